// SPDX-License-Identifier: MIT
// Setup and large models: the time and memory of each stage from a deck to a few steps, and the
// phases of one Newton iteration (docs/performance.md, "Setup and large models").
//
// usage: model_size [--steps K] [--samples S] [--no-phases] [--cpu] [--set KEY=VALUE]... DECK...
//
// For each deck (bench/gen_deck.py writes chains, lattices and beams of any size), in a fresh
// context: rd_readDeck, rd_compile, rd_createData, rd_initialize and K steps (default 3) of
// rd_step, each timed in CPU seconds (the process's, getrusage) and wall seconds, with the peak
// resident memory after it (ru_maxrss: a peak, so it only grows; run one deck per process to
// see its own). Then the phases of one Newton iteration at the final state, median of S
// samples (default 3; bench_phases.c: assembly, refactorization, solve; wall time, or with --cpu
// the process's CPU time, for a machine shared with other jobs), their sum against the measured
// time per iteration, and the memory per DOF. Exits 1 if a deck fails.
// Uses the internal headers for the phase timings only.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "bench_phases.h"
#include "rodrigues/deck.h"
#include "rodrigues/rodrigues.h"

// CPU seconds of the process (user + system) and its peak resident set, MiB
static double cpu_now(double* peak_mib) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  if (peak_mib) {
    *peak_mib = ru.ru_maxrss / 1024.0;
  }
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}


static int g_cpu = 0;  // --cpu: phases in CPU time

typedef struct {
  double cpu, wall, peak;
} stage;

// the clocks now, as the end of a stage that began at *t (then *t becomes now)
static stage lap(stage* t) {
  stage now;
  now.cpu = cpu_now(&now.peak);
  now.wall = bench_now();
  stage s = {now.cpu - t->cpu, now.wall - t->wall, now.peak};
  *t = now;
  return s;
}


static void print_stage(const char* name, const stage* s) {
  printf("  %-12s cpu %9.3f s  wall %9.3f s  peak %9.1f MiB\n", name, s->cpu, s->wall, s->peak);
}


static int run_deck(const char* path, const char* const* set, int nset, int steps, int samples) {
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_createContext(&ctx, NULL);
  if (st) {
    return 1;
  }
  stage t = {0, bench_now(), 0};
  t.cpu = cpu_now(&t.peak);
  stage s[5];
  st = rd_readDeck(ctx, path, set, nset, &spec);
  s[0] = lap(&t);
  st = st ? st : rd_compile(spec, &m);
  rd_destroySpec(&spec);
  s[1] = lap(&t);
  st = st ? st : rd_createData(m, &d);
  s[2] = lap(&t);
  st = st ? st : rd_initialize(m, d);
  s[3] = lap(&t);
  for (int k = 0; k < steps && !st; k++) {
    st = rd_step(m, d, 0);
  }
  s[4] = lap(&t);
  if (st) {
    printf("%s: failed: %s\n", path, rd_lastError(ctx));
    rd_destroyData(&d);
    rd_destroyModel(&m);
    rd_destroyContext(&ctx);
    return 1;
  }
  rdModelInfo info;
  rdStats stats;
  rd_modelInfo(m, &info);
  rd_getStats(d, &stats);
  int n = info.ndof + info.nconstraint;
  printf("%s: %d nodes, %d DOFs + %d multipliers, %s\n", path, info.nnode, info.ndof,
         info.nconstraint, info.linear_solver ? info.linear_solver : "explicit");
  static const char* names[] = {"read", "compile", "create data", "initialize", "steps"};
  for (int k = 0; k < 5; k++) {
    print_stage(names[k], &s[k]);
  }
  double setup_cpu = s[0].cpu + s[1].cpu + s[2].cpu, setup_wall = s[0].wall + s[1].wall + s[2].wall;
  printf("  setup (read + compile + create data, as `rodrigues check`): cpu %.3f s, wall %.3f s\n",
         setup_cpu, setup_wall);
  printf("  peak memory %.1f MiB: %.0f bytes per DOF\n", s[4].peak,
         s[4].peak * 1048576.0 / info.ndof);
  long it = stats.newton_iterations, fa = stats.factorizations;
  if (stats.steps > 0 && it > 0) {
    printf(
        "  %ld steps, %ld Newton iterations, %ld factorizations: %.1f ms per iteration (wall), "
        "%.1f ms (cpu)\n",
        stats.steps, it, fa, 1e3 * s[4].wall / it, 1e3 * s[4].cpu / it);
  }
  if (samples > 0 && info.linear_solver && n > 0) {
    benchPhases ph;
    bench_phases(m, d, samples, &ph);
    double sum = ph.assemble + ph.factor + ph.solve;
    printf(
        "  one iteration (median of %d, %s): assembly %.1f ms, factorization %.1f ms, solve "
        "%.1f ms: %.1f ms (%.0f / %.0f / %.0f %%)\n",
        samples, g_cpu ? "cpu" : "wall", 1e-3 * ph.assemble, 1e-3 * ph.factor, 1e-3 * ph.solve,
        1e-3 * sum, 100 * ph.assemble / sum, 100 * ph.factor / sum, 100 * ph.solve / sum);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return 0;
}


int main(int argc, char** argv) {
#if defined(M_MXFAST)
  mallopt(M_MXFAST, 0);  // as the rodrigues program does (src/cli/main.c)
#endif
  int steps = 3, samples = 3, failures = 0, nset = 0;
  const char** set = calloc((size_t)argc + 1, sizeof(char*));
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
      samples = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--no-phases")) {
      samples = 0;
    } else if (!strcmp(argv[i], "--cpu")) {
      g_cpu = 1;
      bench_setPhaseClock(1);
    } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
      set[nset++] = argv[++i];
    } else if (argv[i][0] == '-') {
      fprintf(
          stderr,
          "usage: model_size [--steps K] [--samples S] [--no-phases] [--cpu] [--set KEY=VALUE]... "
          "DECK...\n");
      return 2;
    }
  }
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") || !strcmp(argv[i], "--samples") || !strcmp(argv[i], "--set")) {
      i++;
    } else if (argv[i][0] != '-') {
      failures += run_deck(argv[i], set, nset, steps, samples);
    }
  }
  free((void*)set);
  return failures ? 1 : 0;
}
