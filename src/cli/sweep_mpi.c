// SPDX-License-Identifier: MIT
// rodrigues-sweep: the cases of a sweep on MPI ranks. Rank 0 coordinates: it hands the next case
// to whichever rank reports one done (dynamic load balancing; cases differ in cost), does no case
// work itself, and alone writes the tables. The other ranks run cases as `rodrigues sweep` runs
// them, each into the case's own directory. With one rank it runs the cases itself.
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep.h"

enum { TAG_READY = 1, TAG_CASE = 2 };

// a worker's report: the case it ran (-1: none yet), the seconds it waited for its last case,
// and on the last report the total of its waits
enum { MSG_CASE, MSG_WAIT, MSG_LEN };

// the coordinator's pauses between looks at the mailbox: 50 us after a message, doubling while
// none comes, up to 0.5 ms: short against a case, and an idle coordinator leaves its core to the
// workers (about 2000 wake-ups a second)
#define POLL_MIN 50e-6
#define POLL_MAX 500e-6


// this process's CPU time, seconds: the coordinator's own cost, whatever the machine's load
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static void pause_poll(double seconds) {
  struct timespec ts = {0, (long)(seconds * 1e9)};
  nanosleep(&ts, NULL);
}


// rank 0: hand out the cases; returns an exit code
static int coordinate(cliSweep* s, int nrank, char* extra, size_t extra_size) {
  int active = nrank - 1, next = 0;
  long handled = 0;
  double busy = 0, busy_cpu = 0, waited = 0;
  double msg[MSG_LEN];
  MPI_Request req;
  MPI_Irecv(msg, MSG_LEN, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_READY, MPI_COMM_WORLD, &req);
  struct sigaction old[2];
  cli_catchSignals(old);
  double poll = POLL_MIN;
  while (active > 0) {
    int done = 0;
    MPI_Status status;
    MPI_Test(&req, &done, &status);
    if (!done) {
      pause_poll(poll);
      poll = poll * 2 < POLL_MAX ? poll * 2 : POLL_MAX;
      continue;
    }
    poll = POLL_MIN;
    // from here to the reply is the coordinator's overhead for one case
    double t0 = cli_now(), c0 = cpu_now();
    int i = (int)msg[MSG_CASE];
    if (i >= 0) {
      cli_sweepCaseEnded(s, i, NULL);
      waited += msg[MSG_WAIT];
    }
    int give = next < s->ntodo && !cli_interrupted ? s->todo[next++] : -1;
    MPI_Send(&give, 1, MPI_INT, status.MPI_SOURCE, TAG_CASE, MPI_COMM_WORLD);
    active -= give < 0;
    if (active > 0) {
      MPI_Irecv(msg, MSG_LEN, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_READY, MPI_COMM_WORLD, &req);
    }
    busy += cli_now() - t0;
    busy_cpu += cpu_now() - c0;
    handled++;
  }
  cli_restoreSignals(old);
  if (s->ndone > 0) {
    snprintf(extra, extra_size,
             "%d ranks (%d workers): the coordinator spent %.1f us per case handed out (%.1f us "
             "CPU), the workers waited %.1f us per case for the next",
             nrank, nrank - 1, 1e6 * busy / (double)handled, 1e6 * busy_cpu / (double)handled,
             1e6 * waited / (double)s->ndone);
  }
  return CLI_OK;
}


// ranks 1..: ask for a case, run it, report, until told to stop
static void work(cliSweep* s) {
  double msg[MSG_LEN] = {-1, 0};
  for (;;) {
    double t0 = cli_now();
    MPI_Send(msg, MSG_LEN, MPI_DOUBLE, 0, TAG_READY, MPI_COMM_WORLD);
    int i;
    MPI_Recv(&i, 1, MPI_INT, 0, TAG_CASE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    msg[MSG_WAIT] = cli_now() - t0;
    if (i < 0) {
      return;
    }
    cli_sweepRunCase(s, i, s->results + i);
    msg[MSG_CASE] = i;
  }
}


int main(int argc, char** argv) {
  cli_tuneMalloc();
  MPI_Init(&argc, &argv);
  int rank, nrank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nrank);
  // argv as `rodrigues sweep` gets it: argv[0] is the command's name
  char name[] = "sweep";
  argv[0] = name;
  cliSweepArgs a;
  int code = cli_sweepParseArgs(argc, argv, &a);
  if (code == CLI_OK && a.help) {
    if (rank == 0) {
      fputs(cli_sweepUsage, stdout);
    }
    cli_sweepFreeArgs(&a);
    MPI_Finalize();
    return CLI_OK;
  }
  if (code == CLI_OK && (a.jobs || a.worker)) {
    code = rank == 0 ? cli_usageError("sweep", "--jobs and --worker do not go with MPI", NULL)
                     : CLI_USAGE;
  }
  cliSweep s;
  memset(&s, 0, sizeof(s));
  // rank 0 reads the sweep, prepares the directory and says whether to go on; then the workers
  // read the sweep (its checks have passed)
  if (code == CLI_OK && rank == 0) {
    code = cli_sweepOpen(&a, 0, &s);
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (code == CLI_OK && rank > 0) {
    code = cli_sweepOpen(&a, 1, &s);
    if (code != CLI_OK) {
      MPI_Abort(MPI_COMM_WORLD, code);
    }
  }
  if (code == CLI_OK) {
    char extra[256] = "";
    if (nrank == 1) {
      cli_sweepSerial(&s);
    } else if (rank == 0) {
      code = coordinate(&s, nrank, extra, sizeof(extra));
    } else {
      work(&s);
    }
    if (rank == 0) {
      int fin = cli_sweepFinish(&s, extra);
      code = code != CLI_OK ? code : fin;
    }
  }
  cli_sweepClose(&s);
  cli_sweepFreeArgs(&a);
  MPI_Finalize();
  return rank == 0 ? code : CLI_OK;
}
