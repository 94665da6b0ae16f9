// SPDX-License-Identifier: MIT
// The mixed-stepping decks of input/mixed (docs/mixed.md): each runs mixed and, with
// subsystems=[], monolithic, with the same nodes; the difference between the two at the same
// step is the coupling's own error, which must fall at order 2 in the macro step (positions and
// attitudes of every node at the end, steps H and H/2). The orders against a fine monolithic run
// are measured by tools/mixed_converge.py (docs/verification.md, "Mixed stepping").
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/test_macros.h"

typedef struct {
  const char* deck;
  double final_time, H;  // a short run and its macro step
} deckCase;

static const deckCase cases[] = {
    {"input/mixed/drill_string.yaml", 0.5, 5e-3},
    {"input/mixed/top_on_beam.yaml", 0.2, 5e-4},
    {"input/mixed/gyro_platform.yaml", 0.2, 5e-4},
    {"input/mixed/rotor_on_beam.yaml", 0.2, 5e-4},
};


// the deck to final_time at step h, mixed or monolithic; NULL (the error printed) on failure
static rdData* run(rdContext* ctx, const deckCase* c, int mixed, double h, rdModel** m) {
  char tf[64], ts[64];
  snprintf(tf, sizeof(tf), "solver.final_time=%.17g", c->final_time);
  snprintf(ts, sizeof(ts), "solver.time_step=%.17g", h);
  // Newton converged well below the differences measured
  const char* sets[5] = {tf, ts, "solver.atol=1e-12", "solver.rtol=1e-10", "subsystems=[]"};
  rdSpec* s = NULL;
  rdData* d = NULL;
  *m = NULL;
  int st = rd_readDeck(ctx, c->deck, sets, mixed ? 4 : 5, &s);
  st = st ? st : rd_compile(s, m);
  rd_destroySpec(&s);
  st = st ? st : rd_createData(*m, &d);
  st = st ? st : rd_initialize(*m, d);
  st = st ? st : rd_advance(*m, d, c->final_time, NULL, NULL);
  if (st) {
    printf("  %s (%s, h = %g): %s\n", c->deck, mixed ? "mixed" : "monolithic", h,
           rd_lastError(ctx));
    rd_destroyData(&d);
    rd_destroyModel(m);
  }
  return d;
}


// the largest position and attitude differences over the nodes of a and b (same node names)
static void difference(const rdModel* ma, const rdData* a, const rdModel* mb, const rdData* b,
                       double e[2]) {
  rdModelInfo info;
  rd_modelInfo(ma, &info);
  e[0] = e[1] = 0;
  for (int i = 0; i < info.nnode; i++) {
    int j = rd_findNode(mb, rd_nodeName(ma, i));
    double xa[3], qa[4], xb[3], qb[4];
    rd_getNodeState(ma, a, i, xa, qa, NULL, NULL, NULL);
    rd_getNodeState(mb, b, j, xb, qb, NULL, NULL, NULL);
    for (int k = 0; k < 3; k++) {
      e[0] = fmax(e[0], fabs(xa[k] - xb[k]));
    }
    e[1] = fmax(e[1], rdu_quatDistance(qa, qb));
  }
}


static void test_deck(rdContext* ctx, const deckCase* c) {
  double e[2][2];
  int ok = 1;
  for (int k = 0; k < 2 && ok; k++) {
    double h = c->H / (1 << k);
    rdModel *mx = NULL, *mm = NULL;
    rdData* dx = run(ctx, c, 1, h, &mx);
    rdData* dm = run(ctx, c, 0, h, &mm);
    ok = dx && dm;
    if (ok) {
      rdModelInfo ix, im;
      rd_modelInfo(mx, &ix);
      rd_modelInfo(mm, &im);
      CHECK_MSG(ix.nnode == im.nnode && ix.nsubsystem > 0 && im.nsubsystem == 0,
                "%s: %d and %d nodes, %d and %d subsystems", c->deck, ix.nnode, im.nnode,
                ix.nsubsystem, im.nsubsystem);
      difference(mx, dx, mm, dm, e[k]);
    }
    rd_destroyData(&dx);
    rd_destroyData(&dm);
    rd_destroyModel(&mx);
    rd_destroyModel(&mm);
  }
  CHECK_MSG(ok, "%s: a run failed", c->deck);
  if (!ok) {
    return;
  }
  double op = log2(e[0][0] / e[1][0]), oq = log2(e[0][1] / e[1][1]);
  CHECK_MSG(op >= 1.8 && oq >= 1.8, "%s: orders %.2f %.2f of the coupling's error", c->deck, op,
            oq);
  printf(
      "  %s to t = %g: mixed - monolithic at H = %g: %.2e %.2e, at H/2: %.2e %.2e (position, "
      "attitude), orders %.2f %.2f\n",
      c->deck, c->final_time, c->H, e[0][0], e[0][1], e[1][0], e[1][1], op, oq);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  int st = rd_createContext(&ctx, NULL);
  CHECK_MSG(st == RD_OK, "rd_createContext returned %d", st);
  if (st != RD_OK) {
    return TEST_SUMMARY();
  }
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    TEST_CASE(test_deck(ctx, &cases[i]));
  }
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
