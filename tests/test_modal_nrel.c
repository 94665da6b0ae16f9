// SPDX-License-Identifier: MIT
// The NREL 5-MW blade (tests/data/nrel5mw_blade, BeamDyn's files) clamped at its root, without
// gravity: modes for element orders 5 (the files'), 8 and 12, their convergence, and the
// comparison with the published frequencies (docs/verification.md, "Modal analysis"). Run from
// the source root.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "tests/test_macros.h"

#define DATA "tests/data/nrel5mw_blade/"

// copy file `from` to `to`, replacing the line that contains `key` by `line` (NULL: none)
static int copy_file(const char* from, const char* to, const char* key, const char* line) {
  FILE* in = fopen(from, "r");
  FILE* out = fopen(to, "w");
  if (!in || !out) {
    if (in) {
      fclose(in);
    }
    if (out) {
      fclose(out);
    }
    return -1;
  }
  char buf[4096];
  while (fgets(buf, sizeof(buf), in)) {
    fputs(key && strstr(buf, key) ? line : buf, out);
  }
  fclose(in);
  return fclose(out);
}


// a model and its modes
typedef struct {
  rdContext* ctx;
  rdModel* m;
  rdData* d;
  rdModes* md;
} blade;


static void blade_free(blade* b) {
  rd_destroyModes(&b->md);
  rd_destroyData(&b->d);
  rd_destroyModel(&b->m);
  rd_destroyContext(&b->ctx);
}


// the blade with element order `order`, clamped, no gravity, spinning about x at rpm (0: at
// rest; steady state first), flap axis x; b->md NULL on failure
static void blade_modes(const char* dir, int order, double rpm, int count, blade* b) {
  char path[1024], line[128], deck[1024];
  snprintf(path, sizeof(path), "%s/bd_primary.inp", dir);
  snprintf(line, sizeof(line), "          %d   order_elem     - Order of interpolation\n", order);
  memset(b, 0, sizeof(*b));
  if (copy_file(DATA "bd_primary.inp", path, "order_elem", line) != 0) {
    return;
  }
  snprintf(path, sizeof(path), "%s/beam_props.inp", dir);
  copy_file(DATA "beam_props.inp", path, NULL, NULL);
  snprintf(deck, sizeof(deck), "%s/blade.yaml", dir);
  FILE* f = fopen(deck, "w");
  fprintf(f,
          "title: NREL 5-MW blade, clamped\n"
          "elements:\n"
          "  - name: blade\n"
          "    type: beam\n"
          "    beamdyn: {primary: bd_primary.inp, position: [0, 0, 1]}\n"
          "joints:\n"
          "  - {name: root, type: fixed, node: blade_0}\n");
  fclose(f);
  rd_createContext(&b->ctx, NULL);
  rdSpec* s = NULL;
  rdLinearization* lin = NULL;
  int st = rd_readDeck(b->ctx, deck, NULL, 0, &s);
  st = st ? st : rd_compile(s, &b->m);
  st = st ? st : rd_createData(b->m, &b->d);
  st = st ? st : rd_initialize(b->m, b->d);
  if (st == RD_OK) {
    rdLinearizeDef def = rd_defaultLinearizeDef();
    def.spin_rate = rpm * 3.14159265358979323846 / 30;
    def.spin_axis[0] = 1;
    def.steady = rpm != 0;
    st = rd_linearize(b->m, b->d, &def, &lin);
  }
  if (st == RD_OK) {
    rdModalDef mdef = rd_defaultModalDef();
    mdef.count = count;
    mdef.flap_axis[0] = 1;
    st = rd_computeModes(lin, &mdef, &b->md);
  }
  if (st != RD_OK) {
    printf("order %d: %s\n", order, rd_lastError(b->ctx));
  }
  rd_destroyLinearization(&lin);
  rd_destroySpec(&s);
}


// the first frequency (Hz) of kind `kind` and index `index` (1: the first), 0 if none
static double freq(const rdModes* md, int kind, int index) {
  for (int k = 0; k < rd_modeCount(md); k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    if (i.kind == kind && i.kind_index == index) {
      return i.frequency_hz;
    }
  }
  return 0;
}


// published frequencies of the NREL 5-MW rotor with a stationary, locked rotor (Jonkman et al.
// 2009, NREL/TP-500-38060, Table 9-1, FAST and ADAMS): the blade modes of the whole turbine
// (hub, drivetrain and tower coupled; 1.5 m hub radius, 2.5 deg precone), so a clamped blade
// differs by a few percent
static const double pub_flap1[2] = {0.6993, 0.7019};  // 1st blade collective flap
static const double pub_edge1[2] = {1.0793, 1.0740};  // 1st blade asymmetric edgewise pitch
static const double pub_flap2[2] = {2.0205, 1.9601};  // 2nd blade collective flap


static void test_nrel5mw_blade(void) {
  char dir[] = "/tmp/rodrigues_nrel_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(0);
    return;
  }
  static const int orders[4] = {5, 8, 12, 16};
  double f[4][5];
  static const char* const names[5] = {"flap 1", "edge 1", "flap 2", "edge 2", "torsion 1"};
  static const int kinds[5][2] = {{RD_MODE_FLAP, 1},
                                  {RD_MODE_EDGE, 1},
                                  {RD_MODE_FLAP, 2},
                                  {RD_MODE_EDGE, 2},
                                  {RD_MODE_TORSION, 1}};
  for (int o = 0; o < 4; o++) {
    blade b;
    blade_modes(dir, orders[o], 0, 12, &b);
    CHECK(b.md != NULL);
    for (int k = 0; k < 5; k++) {
      f[o][k] = b.md ? freq(b.md, kinds[k][0], kinds[k][1]) : 0;
    }
    blade_free(&b);
  }
  printf(
      "  clamped NREL 5-MW blade, no gravity (Hz):\n  mode        order 5     order 8     "
      "order 12    order 16\n");
  for (int k = 0; k < 5; k++) {
    printf("  %-10s %10.6f  %10.6f  %10.6f  %10.6f\n", names[k], f[0][k], f[1][k], f[2][k],
           f[3][k]);
    CHECK(f[3][k] > 0);
    // the station quadrature over linearly interpolated sections limits the rate: the
    // differences to order 16 shrink with the order, below 1 % from order 8 on
    CHECK(fabs(f[2][k] - f[3][k]) < fabs(f[1][k] - f[3][k]));
    CHECK(fabs(f[1][k] - f[3][k]) < fabs(f[0][k] - f[3][k]));
    CHECK_REL(f[1][k], f[3][k], 1e-2);
  }
  // against the published whole-turbine values: within 5 %
  printf(
      "  published (stationary turbine, FAST / ADAMS): flap 1 %.4f / %.4f, edge 1 %.4f / %.4f, "
      "flap 2 %.4f / %.4f\n",
      pub_flap1[0], pub_flap1[1], pub_edge1[0], pub_edge1[1], pub_flap2[0], pub_flap2[1]);
  for (int s = 0; s < 2; s++) {
    CHECK_REL(f[3][0], pub_flap1[s], 0.05);
    CHECK_REL(f[3][1], pub_edge1[s], 0.05);
    CHECK_REL(f[3][2], pub_flap2[s], 0.05);
  }
  // spinning at the rated 12.1 rpm: the flapwise modes stiffen (the Southwell effect)
  blade b;
  blade_modes(dir, 8, 12.1, 12, &b);
  CHECK(b.md != NULL);
  if (b.md) {
    double r1 = freq(b.md, RD_MODE_FLAP, 1), r2 = freq(b.md, RD_MODE_EDGE, 1);
    printf("  at 12.1 rpm: flap 1 %.6f Hz, edge 1 %.6f Hz\n", r1, r2);
    CHECK(r1 > f[1][0] && r1 < 1.2 * f[1][0]);
    CHECK(r2 > 0.95 * f[1][1] && r2 < 1.05 * f[1][1]);
  }
  blade_free(&b);
  char path[1100];
  static const char* const files[3] = {"bd_primary.inp", "beam_props.inp", "blade.yaml"};
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof(path), "%s/%s", dir, files[k]);
    remove(path);
  }
  rmdir(dir);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_nrel5mw_blade());
  return TEST_SUMMARY();
}
