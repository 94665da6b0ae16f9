// SPDX-License-Identifier: MIT
// rodrigues sweep: the cases of a sweep file one after another, in --jobs processes, or, under an
// MPI launcher, handed over to rodrigues-sweep (which links MPI, so that this program does not).
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

extern char** environ;

// the number of processes an MPI launcher started, 0 if none did: Open MPI's mpirun, MPICH's
// and Intel's (PMI), Slurm's srun
static int launcher_size(void) {
  static const char* const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"};
  for (int k = 0; k < 3; k++) {
    const char* v = getenv(vars[k]);
    if (v && atoi(v) > 0) {
      return atoi(v);
    }
  }
  return 0;
}


// this program's file, for starting workers and finding rodrigues-sweep beside it
static int self_path(char* buf, size_t size) {
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0 || (size_t)n >= size - 1) {
    return -1;
  }
  buf[n] = '\0';
  return 0;
}


// replace this process by rodrigues-sweep with the same arguments; returns only on failure
static int exec_mpi(int argc, char** argv, int nproc) {
  char path[PATH_MAX];
  char* slash = self_path(path, sizeof(path) - 32) == 0 ? strrchr(path, '/') : NULL;
  if (!slash) {
    fprintf(stderr, "rodrigues sweep: cannot find this program's file to start rodrigues-sweep\n");
    return CLI_OTHER;
  }
  strcpy(slash + 1, "rodrigues-sweep");
  char** args = calloc((size_t)argc + 1, sizeof(char*));
  if (!args) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  args[0] = path;
  for (int i = 1; i < argc; i++) {
    args[i] = argv[i];
  }
  fflush(stdout);
  execv(path, args);
  int err = errno;
  free(args);
  if (err == ENOENT) {
    fprintf(stderr,
            "rodrigues sweep: started as one of %d MPI processes, but this rodrigues was built "
            "without MPI (no %s); run it without mpirun, or with --jobs K\n",
            nproc, path);
  } else {
    fprintf(stderr, "rodrigues sweep: cannot start %s: %s\n", path, strerror(err));
  }
  return CLI_OTHER;
}

// ---------------------------------------------------------------------------------------------
// --jobs K: a process per case, K at a time

typedef struct {
  pid_t pid;
  int i;  // its case
} job;


static pid_t start_worker(const char* exe, const cliSweepArgs* a, const cliSweep* s, int i) {
  char* args[] = {(char*)exe,
                  "sweep",
                  (char*)a->file,
                  "-o",
                  s->dir,
                  "--worker",
                  (char*)rd_sweepCaseId(s->sw, i),
                  a->every ? "--checkpoint-every" : NULL,
                  (char*)a->every,
                  NULL};
  pid_t pid;
  int err = posix_spawn(&pid, exe, NULL, NULL, args, environ);
  if (err) {
    fprintf(stderr, "rodrigues sweep: cannot start a worker: %s\n", strerror(err));
    return -1;
  }
  return pid;
}


// the reason a worker ended without writing its result
static void crash_reason(char* buf, size_t size, int status) {
  if (WIFSIGNALED(status)) {
    snprintf(buf, size, "the worker was killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  } else {
    snprintf(buf, size, "the worker ended with status %d and wrote no result",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
}


static int run_jobs(const cliSweepArgs* a, cliSweep* s) {
  char exe[PATH_MAX];
  if (self_path(exe, sizeof(exe)) != 0) {
    fprintf(stderr, "rodrigues sweep: cannot find this program's file to start workers\n");
    return CLI_OTHER;
  }
  job* jobs = calloc((size_t)a->jobs, sizeof(job));
  if (!jobs) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  struct sigaction old[2];
  cli_catchSignals(old);
  int next = 0, running = 0, code = CLI_OK, stopping = 0;
  while (next < s->ntodo || running > 0) {
    while (!cli_interrupted && code == CLI_OK && running < a->jobs && next < s->ntodo) {
      int i = s->todo[next++];
      pid_t pid = start_worker(exe, a, s, i);
      if (pid < 0) {
        code = CLI_OTHER;
        break;
      }
      for (int k = 0; k < a->jobs; k++) {
        if (!jobs[k].pid) {
          jobs[k].pid = pid;
          jobs[k].i = i;
          break;
        }
      }
      running++;
    }
    if (running == 0) {
      break;
    }
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) {
        // pass the interruption on once: the workers stop at their next history row
        for (int k = 0; cli_interrupted && !stopping && k < a->jobs; k++) {
          if (jobs[k].pid) {
            kill(jobs[k].pid, SIGTERM);
          }
        }
        stopping |= cli_interrupted != 0;
        continue;
      }
      fprintf(stderr, "rodrigues sweep: waitpid: %s\n", strerror(errno));
      code = CLI_OTHER;
      break;
    }
    for (int k = 0; k < a->jobs; k++) {
      if (jobs[k].pid == pid) {
        char why[256];
        crash_reason(why, sizeof(why), status);
        cli_sweepCaseEnded(s, jobs[k].i, why);
        jobs[k].pid = 0;
        running--;
      }
    }
  }
  cli_restoreSignals(old);
  free(jobs);
  return code;
}


int cmd_sweep(int argc, char** argv) {
  cliSweepArgs a;
  int code = cli_sweepParseArgs(argc, argv, &a);
  if (code == CLI_OK && a.help) {
    fputs(cli_sweepUsage, stdout);
    cli_sweepFreeArgs(&a);
    return CLI_OK;
  }
  if (code == CLI_OK && a.worker && (a.jobs || a.nonly)) {
    code = cli_usageError(argv[0], "--worker runs one case, without --jobs or --case", NULL);
  }
  int nproc = launcher_size();
  if (code == CLI_OK && nproc > 1 && !a.worker) {
    if (a.jobs) {
      code = cli_usageError(argv[0], "--jobs does not go with mpirun or srun", NULL);
    } else {
      code = exec_mpi(argc, argv, nproc);
    }
  }
  if (code != CLI_OK) {
    cli_sweepFreeArgs(&a);
    return code;
  }
  cliSweep s;
  code = cli_sweepOpen(&a, a.worker != NULL, &s);
  if (code == CLI_OK && a.worker) {
    int i = rd_sweepFindCase(s.sw, a.worker);
    if (i < 0) {
      fprintf(stderr, "rodrigues sweep: no case '%s' in %s\n", a.worker, a.file);
      code = CLI_USAGE;
    } else {
      code = cli_sweepRunCase(&s, i, s.results + i);
    }
  } else if (code == CLI_OK) {
    if (a.jobs > 1) {
      code = run_jobs(&a, &s);
    } else {
      cli_sweepSerial(&s);
    }
    int fin = cli_sweepFinish(&s, NULL);
    code = code != CLI_OK ? code : fin;
  }
  cli_sweepClose(&s);
  cli_sweepFreeArgs(&a);
  if (cli_interrupted && !a.worker) {
    // end the way the signal would have, now that the tables are written
    int sig = cli_interrupted;
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return code;
}
