// SPDX-License-Identifier: MIT
// Run a beam deck and write its results as OpenFAST BeamDyn's driver writes them: the 18
// channels of BeamDyn's r-test rows (root reaction force and moment in the root frame r, the
// sectional force and moment at the first node in its local frame l, the tip's displacement and
// Wiener-Milenkovic rotation relative to the root's rigid motion, in r), so that
// bench/peers/compare_rows.py and tip_metrics.py compare the two codes channel by channel.
//
//   build/bench/beamdyn_rows DECK ROOT TIP OUT [--dcm a11,a12,...,a33] [--every DT]
//                            [--until T] [--set KEY=VALUE]...
//
// ROOT, TIP: node names (the root is held by the joint named "root"); --dcm: BeamDyn's GlbDCM
// (rows; global -> blade frame at t = 0, identity by default; the Az90 driver's is
// 1,0,0,0,0,1,0,-1,0); --every: rows only at the multiples of DT (default every step); --until:
// stop there (default solver.final_time). BeamDyn's frames (its Calc_WriteOutput): r is the
// blade frame turned with the root, l a node's section frame with BeamDyn's axis order (x, y
// the section axes, z along the beam: our body y, z, x). Prints steps, Newton iterations and
// the CPU time of the time loop to stderr.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/beamdyn_rows.h"
#include "tests/support/models.h"

#define MAX_SET 32


static int usage(void) {
  fprintf(stderr,
          "usage: beamdyn_rows DECK ROOT TIP OUT [--dcm 9 numbers] [--every DT] [--until T] "
          "[--set KEY=VALUE]...\n");
  return 2;
}


int main(int argc, char** argv) {
  if (argc < 5) {
    return usage();
  }
  const char *deck = argv[1], *root = argv[2], *tip = argv[3], *out_path = argv[4];
  double dcm[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, every = 0, until = -1;
  const char* set[MAX_SET];
  int nset = 0;
  for (int i = 5; i < argc; i++) {
    if (!strcmp(argv[i], "--dcm") && i + 1 < argc) {
      char* p = argv[++i];
      for (int k = 0; k < 9; k++) {
        dcm[k] = strtod(p, &p);
        p += *p == ',';
      }
    } else if (!strcmp(argv[i], "--every") && i + 1 < argc) {
      every = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--until") && i + 1 < argc) {
      until = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--set") && i + 1 < argc && nset < MAX_SET) {
      set[nset++] = argv[++i];
    } else {
      return usage();
    }
  }
  rdContext* ctx = NULL;
  rdModel* model = NULL;
  rdData* data = NULL;
  rd_createContext(&ctx, NULL);
  if (model_openDeck(ctx, deck, set, nset, &model, &data)) {
    return 1;
  }
  bdProbe probe;
  FILE* out = fopen(out_path, "w");
  if (bd_probeInit(&probe, model, data, root, tip, dcm) || !out) {
    fprintf(stderr, "beamdyn_rows: need nodes '%s', '%s', a joint 'root' and to write %s\n", root,
            tip, out_path);
    return 1;
  }
  fprintf(out, "Time");
  for (int k = 0; k < BD_NCHAN; k++) {
    fprintf(out, " %s", BD_CHANNEL[k]);
  }
  fprintf(out, "\n");
  double h = rd_getOptionReal(model, "solver.time_step");
  double tend = until >= 0 ? until : rd_getOptionReal(model, "solver.final_time");
  long nstep = lround((tend - rd_time(data)) / h);
  clock_t c0 = clock();
  int st = RD_OK;
  for (long k = 0; k <= nstep && !st; k++) {
    if (k > 0) {
      st = rd_step(model, data, h);
    }
    double t = rd_time(data), row[BD_NCHAN];
    if (st || (every > 0 && fabs(t / every - round(t / every)) > 1e-6)) {
      continue;
    }
    bd_probeChannels(&probe, model, data, row);
    fprintf(out, "%.6f", t);
    for (int i = 0; i < BD_NCHAN; i++) {
      fprintf(out, " %.9e", row[i]);
    }
    fprintf(out, "\n");
  }
  double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  rdStats stats;
  rd_getStats(data, &stats);
  fprintf(stderr, "%s: t = %g, %ld steps, %ld Newton iterations, %.3f s CPU\n", deck, rd_time(data),
          stats.steps, stats.newton_iterations, cpu);
  if (st) {
    fprintf(stderr, "%s\n", rd_lastError(ctx));
  }
  fclose(out);
  rd_destroyData(&data);
  rd_destroyModel(&model);
  rd_destroyContext(&ctx);
  return st != 0;
}
