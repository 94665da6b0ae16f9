// SPDX-License-Identifier: MIT
// Cost of beams under generalized-alpha: per step, per Newton iteration and per phase.
//
// usage: beam_cantilever [--quick] [--repeat R] [--max-dofs N] [--solver NAME] [--nodes P]
//                        [--only cantilever|threads|decks|klu|assembly]
//
// 1. Cantilevers of E elements of P nodes (default 5: order 4, 6 DOFs per node) from about 10^2
//    to 10^5 DOFs (--max-dofs, default 10^5): L = 10 along x, the composite section of
//    docs/benchmarks.md B3, clamped at x = 0 by a fixed joint, tip force 150 (1 - cos 20t)/2 along
//    z; generalized-alpha, rho_inf = 0, h = 0.005 (as B3's dynamic case, whose sudden load would
//    excite modes of the small elements that h does not resolve). For each linear solver (klu,
//    umfpack; dense up to 1000 DOFs; --solver: one only): median microseconds per step over the
//    repetitions, Newton iterations and factorizations per step (rdStats), microseconds per
//    iteration; then the phases of one iteration at the final state (bench_phases.c, shared
//    with ga_chain): assembly, factorization, solve, their shares of an iteration, "accounted"
//    = (it x (assembly + solve) + fa x factor) / step, the cost per DOF and Newton iteration
//    (ns/dof/it) and its ratio to the smallest cantilever (linear growth: near 1). Every size
//    takes the same 8 steps (t = 0 ... 0.04), repeated (R, default 3; 5 R below 10^4 DOFs).
// 2. Threads: the largest cantilever with solver.threads = 1 and 2 (OpenMP builds), one run
//    each, steps and assembly phase timed, and the final states compared bit for bit.
// 3. Decks, with full and modified Newton: input/beam/composite_dynamic.yaml (B3, one 5-node
//    element, h = 0.005), input/beam/composite_robust.yaml (one 15-node element), both to t = 1,
//    and input/beam/nrel5mw_rotating.yaml (NREL 5-MW blade, one 6-node element, 49-station
//    quadrature, h = 0.002) to t = 1: microseconds per step, Newton iterations per step, phases,
//    and the tip difference between the two Newton variants. The peers run on the same models
//    in the same run with bench/peers/run_beamdyn.sh and run_kynema.sh.
// 4. KLU directly on the cantilevers' matrices (10^3 ... 10^5 DOFs): L + U entries per unknown,
//    refactorization and solve time per unknown, BTF on and off, AMD and COLAMD: is a growth of
//    the cost per DOF fill or memory traffic?
// 5. --only assembly: rd_assemble alone on cantilevers of 10^3 ... 10^5 DOFs, microseconds per
//    element (for callgrind: instructions per element).
// --quick: cantilevers up to 10^3 DOFs (dense at 10^2 only), threads on 10^3 DOFs, decks to
// t = 0.2 (NREL 0.1), one repetition, 3 phase samples: a smoke run (meson test beam_cantilever).
// Exits 1 if a run fails or the thread results differ.
// Run from the source root (reads input/beam). Builds the cantilevers through the public API
// (rds_addBeam); the GLL points and the phase timings use internal headers.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "bench_phases.h"
#include "elements/beam.h"
#include "rodrigues/deck.h"
#include "rodrigues/rodrigues.h"
#include "solver/assemble.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"

typedef struct {
  const char* linsol;
  int threads;
} setup;

static int g_nodes = 5;
static int g_quick = 0;     // --quick: fewer phase samples, dense only on the smallest
static int g_failures = 0;  // runs that failed, thread results that differ: the exit status

// E elements of P nodes along x, nodes at the GLL points of each element; the section of
// docs/benchmarks.md B3, clamped at x = 0
static rdSpec* cantilever(rdContext* ctx, int E, int P, const setup* su) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s)) {
    return NULL;
  }
  double M[36];
  model_diag6(M, model_b3Mass);
  int nn = E * (P - 1) + 1;
  int* node = malloc(sizeof(int) * (size_t)nn);
  if (!node || model_addGllBeams(s, E, P, 10, model_b3Stiffness, M, "b", node)) {
    free(node);
    rd_destroySpec(&s);
    return NULL;
  }
  model_addClamp(s, node[0]);
  // a smooth onset: a sudden load excites the axial and shear modes of the small elements, which
  // h = 0.005 does not resolve, and Newton then needs more iterations (and step cuts) on finer
  // meshes, which would hide the cost per iteration
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = "onset";
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = "0.5 * (1 - cos(20 * t))";
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "tip";
  l.node = node[nn - 1];
  l.value[2] = 150;
  l.timefn = rds_addTimeFn(s, &f);
  rds_addLoad(s, &l);
  free(node);
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOptionReal(s, "solver.rho_inf", 0);
  rds_setOptionReal(s, "solver.time_step", 0.005);
  rds_setOption(s, "solver.linear_solver", su->linsol);
  rds_setOptionReal(s, "solver.threads", su->threads);
  return s;
}


typedef struct {
  double us_step, iters, facts;
  benchPhases ph;
  int n, nnz, ok;
  double* state;  // final q and v of every node (for the thread comparison), or NULL
  double tip[3];  // final position of the last node
  long rejected, attempts;
  double min_step;
} result;


// nstep steps of the compiled spec, `repeat` times from the start; medians. The spec is
// destroyed.
static result run(rdContext* ctx, rdSpec* s, int nstep, double tend, int repeat, int samples,
                  int keep_state) {
  result r;
  memset(&r, 0, sizeof(r));
  rdModel* m = NULL;
  if (!s || rd_compile(s, &m)) {
    printf("# setup failed: %s\n", rd_lastError(ctx));
    rd_destroySpec(&s);
    return r;
  }
  rd_destroySpec(&s);
  double* t = malloc(sizeof(double) * (size_t)repeat);
  rdData* d = NULL;
  for (int k = 0; k < repeat; k++) {
    rd_destroyData(&d);
    if (rd_createData(m, &d) || rd_initialize(m, d)) {
      printf("# setup failed: %s\n", rd_lastError(ctx));
      goto done;
    }
    double t0 = bench_now();
    int st = RD_OK;
    if (tend > 0) {
      st = rd_advance(m, d, tend, NULL, NULL);
    } else {
      for (int i = 0; i < nstep && st == RD_OK; i++) {
        st = rd_step(m, d, 0);
      }
    }
    t[k] = bench_now() - t0;
    if (st != RD_OK) {
      printf("# step failed: %s\n", rd_lastError(ctx));
      goto done;
    }
  }
  rdStats stats;
  rd_getStats(d, &stats);
  r.iters = (double)stats.newton_iterations / (double)stats.steps;
  r.facts = (double)stats.factorizations / (double)stats.steps;
  r.us_step = 1e6 * bench_median(t, repeat) / (double)stats.steps;
  r.rejected = stats.rejected_steps;
  r.attempts = stats.steps + stats.rejected_steps;
  r.min_step = stats.min_step;
  r.n = m->pattern->n;
  r.nnz = m->pattern->nnz;
  rd_getNodeState(m, d, m->nnode - 1, r.tip, NULL, NULL, NULL, NULL);
  if (keep_state) {
    size_t nn = (size_t)m->nnode;
    r.state = malloc(sizeof(double) * 13 * nn);
    memcpy(r.state, d->s.q, sizeof(double) * 7 * nn);
    memcpy(r.state + 7 * nn, d->s.v, sizeof(double) * 6 * nn);
  }
  if (samples > 0) {
    bench_phases(m, d, samples, &r.ph);
  }
  r.ok = 1;
done:
  free(t);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return r;
}


static void header(const char* first) {
  printf("%-22s %-8s %7s %8s %10s %6s %6s %9s %10s %10s %9s %5s %5s %5s %9s %8s\n", first, "solver",
         "n", "nnz", "us/step", "it/st", "fa/st", "us/iter", "asm us", "factor us", "solve us",
         "asm%", "fac%", "sol%", "accounted", "ns/dof/it");
}


static void row(const char* label, const char* solver, const result* r) {
  if (!r->ok) {
    printf("%-22s %-8s failed\n", label, solver);
    g_failures++;
    return;
  }
  double it = r->ph.assemble + r->ph.factor + r->ph.solve;
  double acc = r->iters * (r->ph.assemble + r->ph.solve) + r->facts * r->ph.factor;
  printf(
      "%-22s %-8s %7d %8d %10.1f %6.2f %6.2f %9.1f %10.1f %10.1f %9.1f %5.0f %5.0f %5.0f "
      "%8.0f%% %8.1f\n",
      label, solver, r->n, r->nnz, r->us_step, r->iters, r->facts, r->us_step / r->iters,
      r->ph.assemble, r->ph.factor, r->ph.solve, 100 * r->ph.assemble / it, 100 * r->ph.factor / it,
      100 * r->ph.solve / it, 100 * acc / r->us_step, 1e3 * r->us_step / r->iters / r->n);
  if (r->rejected) {
    printf("#   %ld of %ld step attempts rejected and cut (smallest step %g)\n", r->rejected,
           r->attempts, r->min_step);
  }
}


// elements giving about `dofs` DOFs: 6 (E (P - 1) + 1)
static int elements_for(int dofs) {
  int E = (int)lround((dofs / 6.0 - 1) / (g_nodes - 1));
  return E < 1 ? 1 : E;
}


static void cantilevers(rdContext* ctx, int maxdofs, int repeat, const char* only_solver) {
  static const char* solvers[] = {"klu", "umfpack", "dense"};
  static const int sizes[] = {100, 1000, 10000, 100000};
  printf(
      "\n# cantilevers: %d-node elements, B3 section, h = 0.005, rho_inf = 0, tip force 150 (1 - "
      "cos 20t) / 2\n",
      g_nodes);
  header("cantilever E elements");
  for (int k = 0; k < 3; k++) {
    if (only_solver && strcmp(only_solver, solvers[k])) {
      continue;
    }
    double base = 0;
    for (int i = 0; i < 4 && sizes[i] <= maxdofs; i++) {
      if (!strcmp(solvers[k], "dense") && sizes[i] > (g_quick ? 100 : 1000)) {
        continue;
      }
      int E = elements_for(sizes[i]);
      // the same 8 steps (t = 0 ... 0.04) at every size, so that Newton does the same work per
      // step; more repetitions for the small ones
      int rep = sizes[i] >= 100000 ? 1 : sizes[i] >= 10000 ? repeat : 5 * repeat;
      setup su = {solvers[k], 1};
      result r = run(ctx, cantilever(ctx, E, g_nodes, &su), 8, 0, rep,
                     sizes[i] >= 100000 || g_quick ? 3 : 9, 0);
      char label[64];
      snprintf(label, sizeof(label), "E = %d", E);
      row(label, solvers[k], &r);
      if (r.ok) {
        double per = r.us_step / r.iters / r.n;
        if (base == 0) {
          base = per;
        }
        printf("#   cost per DOF and Newton iteration vs the smallest: %.2f\n", per / base);
      }
    }
  }
}


static void threads(rdContext* ctx, int maxdofs, const char* solver) {
  int dofs = maxdofs >= 100000 ? 100000 : maxdofs;
  int E = elements_for(dofs);
  int nstep = 8;
  printf("\n# threads: cantilever of %d elements, %s, %d steps, solver.threads = 1 and 2\n", E,
         solver, nstep);
  header("threads");
  result r[2];
  for (int k = 0; k < 2; k++) {
    setup su = {solver, k + 1};
    r[k] = run(ctx, cantilever(ctx, E, g_nodes, &su), nstep, 0, 1, 5, 1);
    row(k ? "solver.threads = 2" : "solver.threads = 1", solver, &r[k]);
  }
  if (r[0].ok && r[1].ok) {
    size_t n = 13 * (size_t)(E * (g_nodes - 1) + 1);
    int same = !memcmp(r[0].state, r[1].state, n * sizeof(double));
    printf("#   2 threads vs 1: step %.2fx, assembly %.2fx faster; final states %s\n",
           r[0].us_step / r[1].us_step, r[0].ph.assemble / r[1].ph.assemble,
           same ? "bitwise identical" : "DIFFER");
    g_failures += !same;
  }
  free(r[0].state);
  free(r[1].state);
}


// a KLU cantilever of E elements, compiled, initialized and stepped nstep times, with the
// arrays of one rd_assemble (cM = 1, cC = 1e-3, cK = 1e-6, zero rotation increments)
typedef struct {
  rdModel* m;
  rdData* d;
  double *r, *Ax, *psi;
  int n;
} prepared;

static int prepare(rdContext* ctx, int E, int nstep, prepared* p) {
  memset(p, 0, sizeof(*p));
  setup su = {"klu", 1};
  rdSpec* s = cantilever(ctx, E, g_nodes, &su);
  int st = !s || rd_compile(s, &p->m) || rd_createData(p->m, &p->d) || rd_initialize(p->m, p->d);
  rd_destroySpec(&s);
  if (st) {
    printf("# setup failed: %s\n", rd_lastError(ctx));
    g_failures++;
    return 1;
  }
  for (int k = 0; k < nstep; k++) {
    rd_step(p->m, p->d, 0);
  }
  p->n = p->m->ndof + p->m->nconstraint;
  p->r = malloc(sizeof(double) * (size_t)p->n);
  p->Ax = malloc(sizeof(double) * (size_t)p->m->pattern->nnz);
  p->psi = calloc(3 * (size_t)p->m->nnode, sizeof(double));
  return 0;
}

static void assemble_at(prepared* p) {
  rdAsmCoef c = {1, 1e-3, 1e-6, p->psi, NULL};
  rdData* d = p->d;
  rd_assemble(p->m, d, d->s.t, d->s.q, d->s.v, d->s.vd, d->s.lambda, &c, p->r, NULL, p->Ax);
}

static void release(prepared* p) {
  free(p->r);
  free(p->Ax);
  free(p->psi);
  rd_destroyData(&p->d);
  rd_destroyModel(&p->m);
}


// the assembly alone (rd_assemble with the matrix, 10 calls after 2 to warm up) on cantilevers of
// 10^3 ... 10^5 DOFs: microseconds per element; for instruction counts run it under
// valgrind --tool=callgrind --toggle-collect=rd_assembleBeams (12 calls per size)
static void assembly(rdContext* ctx, int maxdofs) {
  static const int sizes[] = {1000, 10000, 100000};
  printf("\n# assembly alone (rd_assemble with the matrix, 12 calls, the last 10 timed)\n");
  for (int i = 0; i < 3 && sizes[i] <= maxdofs; i++) {
    int E = elements_for(sizes[i]);
    prepared p;
    if (prepare(ctx, E, 0, &p)) {
      continue;
    }
    double t0 = 0;
    for (int k = 0; k < 12; k++) {
      if (k == 2) {
        t0 = bench_now();
      }
      assemble_at(&p);
    }
    double us = 1e6 * (bench_now() - t0) / 10;
    printf("E = %-5d n = %-6d %10.1f us per assembly %8.2f us per element\n", E, p.n, us, us / E);
    release(&p);
  }
}


// KLU on the cantilevers' iteration matrices directly: fill (L + U entries per unknown), and
// refactorization and solve time per unknown, with KLU's BTF pre-ordering on and off, AMD and
// COLAMD orderings, pivot tolerance 0.1 as solver/linsol_klu.c; to see where a growth of the
// cost per DOF comes from (fill or memory traffic)
static void klu_fill(rdContext* ctx, int maxdofs) {
  static const int sizes[] = {1000, 10000, 100000};
  printf("\n# KLU on the cantilever matrix (after 4 steps): fill and time per unknown\n");
  printf("%8s %8s %4s %7s %8s %11s %10s %12s %10s %12s\n", "E", "n", "btf", "order", "blocks",
         "L+U", "L+U / n", "refactor us", "ns / n", "solve us");
  for (int i = 0; i < 3 && sizes[i] <= maxdofs; i++) {
    int E = elements_for(sizes[i]);
    prepared p;
    if (prepare(ctx, E, 4, &p)) {
      continue;
    }
    assemble_at(&p);
    int n = p.n;
    int* Ap = (int*)p.m->pattern->Ap;
    int* Ai = (int*)p.m->pattern->Ai;
    double* Ax = p.Ax;
    double* b = malloc(sizeof(double) * (size_t)n);
    for (int btf = 1; btf >= 0; btf--) {
      for (int ord = 0; ord <= 1; ord++) {
        klu_common cm;
        klu_defaults(&cm);
        cm.btf = btf;
        cm.ordering = ord;
        cm.tol = 0.1;
        klu_symbolic* S = klu_analyze(n, Ap, Ai, &cm);
        klu_numeric* N = S ? klu_factor(Ap, Ai, Ax, S, &cm) : NULL;
        if (!N) {
          printf("%8d %8d %4d %7s failed\n", E, n, btf, ord ? "colamd" : "amd");
          klu_free_symbolic(&S, &cm);
          continue;
        }
        enum { K = 7 };
        double tf[K], ts[K];
        for (int k = 0; k < K; k++) {
          double t0 = bench_now();
          klu_refactor(Ap, Ai, Ax, S, N, &cm);
          double t1 = bench_now();
          memcpy(b, p.r, sizeof(double) * (size_t)n);
          klu_solve(S, N, n, 1, b, &cm);
          tf[k] = 1e6 * (t1 - t0);
          ts[k] = 1e6 * (bench_now() - t1);
        }
        double lu = (double)N->lnz + (double)N->unz;
        double f = bench_median(tf, K), so = bench_median(ts, K);
        printf("%8d %8d %4d %7s %8d %11.0f %10.1f %12.1f %10.1f %12.1f (%.1f ns / n)\n", E, n, btf,
               ord ? "colamd" : "amd", S->nblocks, lu, lu / n, f, 1e3 * f / n, so, 1e3 * so / n);
        klu_free_numeric(&N, &cm);
        klu_free_symbolic(&S, &cm);
      }
    }
    free(b);
    release(&p);
  }
}


static void decks(rdContext* ctx, int quick, int repeat, const char* solver) {
  typedef struct {
    const char* path;
    const char* label;
    double tend;
  } deck;
  const deck list[] = {{"input/beam/composite_dynamic.yaml", "B3 5 nodes", quick ? 0.2 : 1},
                       {"input/beam/composite_robust.yaml", "B3 15 nodes", quick ? 0.2 : 1},
                       {"input/beam/nrel5mw_rotating.yaml", "NREL 5-MW rotating", quick ? 0.1 : 1}};
  printf("\n# decks (solver.linear_solver = %s; full and modified Newton)\n", solver);
  header("deck");
  for (int k = 0; k < 3; k++) {
    double uz[2][3];
    for (int mod = 0; mod < 2; mod++) {
      rdSpec* s = NULL;
      char set[2][64];
      snprintf(set[0], sizeof(set[0]), "solver.linear_solver=%s", solver);
      snprintf(set[1], sizeof(set[1]), "solver.modified_newton=%s", mod ? "true" : "false");
      const char* over[] = {set[0], set[1]};
      if (rd_readDeck(ctx, list[k].path, over, 2, &s)) {
        printf("# %s: %s\n", list[k].path, rd_lastError(ctx));
        continue;
      }
      result r = run(ctx, s, 0, list[k].tend, repeat, g_quick ? 3 : 9, 1);
      char label[64];
      snprintf(label, sizeof(label), "%s%s", list[k].label, mod ? " mod." : "");
      row(label, solver, &r);
      if (r.ok) {
        // the last node is the tip in these decks
        memcpy(uz[mod], r.tip, sizeof(uz[mod]));
      }
      if (r.ok && mod) {
        printf("#   tip position, modified vs full Newton at t = %g: largest difference %.1e\n",
               list[k].tend,
               fmax(fabs(uz[1][0] - uz[0][0]),
                    fmax(fabs(uz[1][1] - uz[0][1]), fabs(uz[1][2] - uz[0][2]))));
      }
      free(r.state);
    }
  }
}


int main(int argc, char** argv) {
  int repeat = 3, maxdofs = 100000, quick = 0;
  const char *only = NULL, *solver = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) {
      quick = g_quick = 1;
    } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--max-dofs") && i + 1 < argc) {
      maxdofs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--solver") && i + 1 < argc) {
      solver = argv[++i];
    } else if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
      g_nodes = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else {
      fprintf(stderr,
              "usage: beam_cantilever [--quick] [--repeat R] [--max-dofs N] "
              "[--solver NAME] [--nodes P] [--only cantilever|threads|decks|klu|assembly]\n");
      return 2;
    }
  }
  if (quick) {
    maxdofs = maxdofs < 1000 ? maxdofs : 1000;
    repeat = 1;
  }
  if (repeat < 1) {
    repeat = 1;
  }
  if (g_nodes < 2 || g_nodes > RD_BEAM_MAX_NODES) {
    fprintf(stderr, "beam_cantilever: --nodes must be 2 .. %d\n", RD_BEAM_MAX_NODES);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL)) {
    return 1;
  }
  if (!only || !strcmp(only, "cantilever")) {
    cantilevers(ctx, maxdofs, repeat, solver);
  }
  if (!only || !strcmp(only, "threads")) {
    threads(ctx, maxdofs, solver ? solver : "klu");
  }
  if (!only || !strcmp(only, "decks")) {
    decks(ctx, quick, repeat, solver ? solver : "klu");
  }
  if (!only || !strcmp(only, "klu")) {
    klu_fill(ctx, maxdofs);
  }
  if (only && !strcmp(only, "assembly")) {
    assembly(ctx, maxdofs);
  }
  rd_destroyContext(&ctx);
  if (g_failures) {
    printf("# %d failure(s)\n", g_failures);
  }
  return g_failures ? 1 : 0;
}
