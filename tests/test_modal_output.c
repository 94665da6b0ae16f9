// SPDX-License-Identifier: MIT
// The modal API's files read back (modes.csv, modes.nc, the VTK animation, the Matrix Market
// matrices, the state-space model), ARPACK against the dense solvers, misuse, and every
// allocation failing in turn.
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "src/model/model_impl.h"
#include "tests/support/fail_alloc.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// a cantilever of E elements of P nodes along x, L = 2
static rdSpec* cantilever(rdContext* ctx, int E, int P) {
  double k[6] = {2e3, 400, 300, 1.5, 3, 1.2}, mm[6] = {1, 1, 1, 4e-3, 2e-3, 1e-3}, K[36], M[36];
  model_diag6(K, k);
  model_diag6(M, mm);
  return model_cantilever(ctx, E, P, 2, K, M);
}


// the number in field `field` (0: the first) of a CSV row
static int csv_field(const char* line, int field, double* x) {
  const char* p = line;
  for (int k = 0; k < field && p; k++) {
    p = strchr(p, ',');
    p = p ? p + 1 : NULL;
  }
  return p && sscanf(p, "%lf", x) == 1 ? 0 : -1;
}


static void test_files(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(cantilever(ctx, 3, 5), &m, &d) == 0);
  if (!m) {
    rd_destroyContext(&ctx);
    return;
  }
  rdLinearization* lin = NULL;
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_OK);
  rdModalDef def = rd_defaultModalDef();
  def.count = 6;
  rdModes* md = NULL;
  CHECK(rd_computeModes(lin, &def, &md) == RD_OK);
  char dir[] = "/tmp/rodrigues_modes_XXXXXX", path[512];
  CHECK(mkdtemp(dir) != NULL);
  // modes.csv
  snprintf(path, sizeof(path), "%s/modes.csv", dir);
  CHECK(rd_writeModesCsv(md, path) == RD_OK);
  FILE* f = fopen(path, "r");
  char line[4096];
  int rows = 0;
  CHECK(f && fgets(line, sizeof(line), f) &&
        !strncmp(line, "mode,frequency_hz,damping_ratio,natural_hz", 42));
  while (f && fgets(line, sizeof(line), f)) {
    rdModeInfo i;
    rd_getMode(md, rows, &i);
    double fr;
    CHECK(csv_field(line, 1, &fr) == 0 && fabs(fr - i.frequency_hz) <= 1e-9 * i.frequency_hz);
    CHECK(strstr(line, rd_modeKindName(i.kind)) != NULL);
    rows++;
  }
  if (f) {
    fclose(f);
  }
  CHECK(rows == 6);
  remove(path);
  // modes.nc
  snprintf(path, sizeof(path), "%s/modes.nc", dir);
  CHECK(rd_writeModesNetcdf(md, path) == RD_OK);
  int id, var;
  size_t nmode = 0, nnode = 0;
  CHECK(nc_open(path, NC_NOWRITE, &id) == NC_NOERR);
  int dim;
  CHECK(nc_inq_dimid(id, "mode", &dim) == NC_NOERR && nc_inq_dimlen(id, dim, &nmode) == NC_NOERR);
  CHECK(nc_inq_dimid(id, "node", &dim) == NC_NOERR && nc_inq_dimlen(id, dim, &nnode) == NC_NOERR);
  CHECK(nmode == 6 && (int)nnode == m->nnode);
  double fr[6], sh[3];
  CHECK(nc_inq_varid(id, "frequency_hz", &var) == NC_NOERR &&
        nc_get_var_double(id, var, fr) == NC_NOERR);
  double* re = malloc(sizeof(double) * 6 * (size_t)m->nnode);
  rd_getModeShape(md, 2, re, NULL);
  size_t start[3] = {2, (size_t)m->nnode - 1, 0}, count[3] = {1, 1, 3};
  CHECK(nc_inq_varid(id, "shape_translation_real", &var) == NC_NOERR &&
        nc_get_vara_double(id, var, start, count, sh) == NC_NOERR);
  nc_close(id);
  for (int k = 0; k < 6; k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    CHECK(fr[k] == i.frequency_hz);
  }
  for (int c = 0; c < 3; c++) {
    CHECK(sh[c] == re[6 * (m->nnode - 1) + c]);
  }
  remove(path);
  // the animation: 8 frames (the beams' part 0; the joints' mechanism part 1 beside it); the
  // first (phase 0) at q0 + a Re(y)
  CHECK(rd_writeModeVtk(md, 0, dir, 8, 0.05) == RD_OK);
  snprintf(path, sizeof(path), "%s/results.pvd", dir);
  f = fopen(path, "r");
  int sets = 0;
  while (f && fgets(line, sizeof(line), f)) {
    sets += strstr(line, "<DataSet") != NULL && strstr(line, "part=\"0\"") != NULL;
  }
  if (f) {
    fclose(f);
  }
  CHECK(sets == 8);
  remove(path);
  rd_getModeShape(md, 0, re, NULL);
  snprintf(path, sizeof(path), "%s/vtk/results_000000.vtu", dir);
  f = fopen(path, "r");
  int in_points = 0, node = 0;
  double worst = 0;
  while (f && fgets(line, sizeof(line), f)) {
    if (strstr(line, "<Points>")) {
      in_points = 1;
      fgets(line, sizeof(line), f);  // the DataArray line
      continue;
    }
    if (in_points && strstr(line, "</DataArray>")) {
      break;
    }
    double x[3];
    if (in_points && sscanf(line, "%lf %lf %lf", x, x + 1, x + 2) == 3 && node < m->nnode) {
      for (int c = 0; c < 3; c++) {
        worst = fmax(worst, fabs(x[c] - (m->node_q0[7 * node + c] + 0.05 * re[6 * node + c])));
      }
      node++;
    }
  }
  if (f) {
    fclose(f);
  }
  CHECK(node == m->nnode && worst < 1e-12);
  for (int k = 0; k < 8; k++) {
    snprintf(path, sizeof(path), "%s/vtk/results_%06d.vtu", dir, k);
    CHECK(remove(path) == 0);
    snprintf(path, sizeof(path), "%s/vtk/mechanism_%06d.vtu", dir, k);
    remove(path);
  }
  snprintf(path, sizeof(path), "%s/vtk", dir);
  rmdir(path);
  // the matrices: K.mtx against the API
  CHECK(rd_writeLinearMatrices(lin, dir) == RD_OK);
  int nrow, ncol, nnz;
  rd_getLinearMatrix(lin, RD_LIN_K, &nrow, &ncol, &nnz, NULL, NULL, NULL);
  int* Ap = malloc(sizeof(int) * (size_t)(ncol + 1));
  int* Ai = malloc(sizeof(int) * (size_t)nnz);
  double* Ax = malloc(sizeof(double) * (size_t)nnz);
  rd_getLinearMatrix(lin, RD_LIN_K, NULL, NULL, NULL, Ap, Ai, Ax);
  snprintf(path, sizeof(path), "%s/K.mtx", dir);
  f = fopen(path, "r");
  int r0 = 0, c0 = 0, z0 = 0, entries = 0, same = 1;
  CHECK(f && fgets(line, sizeof(line), f) && strstr(line, "coordinate real general"));
  while (f && fgets(line, sizeof(line), f) && line[0] == '%') {
  }
  CHECK(sscanf(line, "%d %d %d", &r0, &c0, &z0) == 3 && r0 == nrow && c0 == ncol && z0 == nnz);
  for (int j = 0; f && j < ncol; j++) {
    for (int p = Ap[j]; p < Ap[j + 1]; p++) {
      int i1, j1;
      double v;
      if (fscanf(f, "%d %d %lf", &i1, &j1, &v) == 3) {
        same &= i1 == Ai[p] + 1 && j1 == j + 1 && v == Ax[p];
        entries++;
      }
    }
  }
  if (f) {
    fclose(f);
  }
  CHECK(same && entries == nnz);
  free(Ap);
  free(Ai);
  free(Ax);
  static const char* const names[9] = {"M", "D", "K", "B", "N", "Mr", "Dr", "Kr", "matrices"};
  for (int k = 0; k < 9; k++) {
    snprintf(path, sizeof(path), "%s/%s.%s", dir, names[k], k < 8 ? "mtx" : "json");
    CHECK(remove(path) == 0);
  }
  // the state-space model: A.mtx is nx x nx
  rdSsChannel in = {RD_SS_FORCE, m->nnode - 1, 2}, out = {RD_SS_DISPLACEMENT, m->nnode - 1, 2};
  rdStateSpace* ss = NULL;
  CHECK(rd_stateSpace(lin, 1, &in, 1, &out, &ss) == RD_OK);
  CHECK(rd_writeStateSpace(ss, dir) == RD_OK);
  int nx;
  rd_getStateSpace(ss, &nx, NULL, NULL, NULL, NULL, NULL, NULL);
  snprintf(path, sizeof(path), "%s/A.mtx", dir);
  f = fopen(path, "r");
  CHECK(f && fgets(line, sizeof(line), f) && strstr(line, "array real general"));
  while (f && fgets(line, sizeof(line), f) && line[0] == '%') {
  }
  CHECK(sscanf(line, "%d %d", &r0, &c0) == 2 && r0 == nx && c0 == nx);
  if (f) {
    fclose(f);
  }
  static const char* const ssnames[5] = {"A.mtx", "B.mtx", "C.mtx", "D.mtx", "statespace.json"};
  for (int k = 0; k < 5; k++) {
    snprintf(path, sizeof(path), "%s/%s", dir, ssnames[k]);
    CHECK(remove(path) == 0);
  }
  CHECK(rmdir(dir) == 0);
  free(re);
  rd_destroyStateSpace(&ss);
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// ARPACK against the dense solvers: at rest (symmetric, K z = w^2 M z), spinning about z (the
// quadratic problem: Coriolis and centrifugal terms), and with a shift
static double compare_solvers(rdContext* ctx, rdModel* m, rdData* d, double spin, double shift) {
  rdLinearizeDef ld = rd_defaultLinearizeDef();
  ld.spin_rate = spin;
  ld.spin_axis[2] = 1;
  ld.steady = spin != 0;
  rdLinearization* lin = NULL;
  CHECK(rd_linearize(m, d, &ld, &lin) == RD_OK);
  rdModalDef def = rd_defaultModalDef();
  def.count = 40;
  def.solver = RD_EIGEN_DENSE;
  rdModes *dense = NULL, *arpack = NULL;
  CHECK(rd_computeModes(lin, &def, &dense) == RD_OK);
  def.count = 8;
  def.shift_hz = shift;
  def.solver = RD_EIGEN_ARPACK;
  int st = rd_computeModes(lin, &def, &arpack);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  double worst = 0, mac = 1;
  rdModesInfo ai;
  rd_getModesInfo(arpack, &ai);
  int n = rd_modeCount(arpack);
  // each ARPACK mode against the dense mode of the nearest frequency
  for (int k = 0; k < n; k++) {
    rdModeInfo a, b;
    rd_getMode(arpack, k, &a);
    int near = 0;
    double best = INFINITY;
    for (int j = 0; j < rd_modeCount(dense); j++) {
      rd_getMode(dense, j, &b);
      if (fabs(b.natural_hz - a.natural_hz) < best) {
        best = fabs(b.natural_hz - a.natural_hz);
        near = j;
      }
    }
    rd_getMode(dense, near, &b);
    worst = fmax(worst, fabs(a.natural_hz / b.natural_hz - 1));
    worst = fmax(worst, fabs(a.damping_ratio - b.damping_ratio));
    mac = fmin(mac, rd_modeMac(arpack, k, dense, near));
  }
  if (shift > 0 && n > 0) {
    // the modes nearest the shift: none of the dense ones left out is nearer
    rdModeInfo far;
    double reach = 0;
    for (int k = 0; k < n; k++) {
      rd_getMode(arpack, k, &far);
      reach = fmax(reach, fabs(far.natural_hz - shift));
    }
    int nearer = 0;
    for (int j = 0; j < rd_modeCount(dense); j++) {
      rdModeInfo b;
      rd_getMode(dense, j, &b);
      nearer += fabs(b.natural_hz - shift) < reach * (1 - 1e-9);
    }
    CHECK(nearer == n - 1 || nearer == n);
  }
  printf(
      "  spin %g rad/s, shift %g Hz: %d modes, ARPACK against dense %.1e, smallest MAC %.12f "
      "(%s, %d restarts, %d products, sigma %.3g)\n",
      spin, shift, n, worst, mac, ai.symmetric ? "symmetric" : "quadratic", ai.restarts,
      ai.products, ai.sigma);
  CHECK(n == 8 && mac > 1 - 1e-8);
  rd_destroyModes(&dense);
  rd_destroyModes(&arpack);
  rd_destroyLinearization(&lin);
  return worst;
}


static void test_arpack(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(cantilever(ctx, 6, 7), &m, &d) == 0);
  if (m) {
    CHECK(compare_solvers(ctx, m, d, 0, 0) < 1e-10);
    CHECK(compare_solvers(ctx, m, d, 0, 20) < 1e-10);
    CHECK(compare_solvers(ctx, m, d, 3, 0) < 1e-9);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// misuse: every call refuses bad arguments with a status (and a message), never crashes
static void test_misuse(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = cantilever(ctx, 1, 4);
  rdModel* m = model_compile(s);
  rdData* d = NULL;
  rd_createData(m, &d);
  rdLinearization* lin = NULL;
  CHECK(rd_linearize(m, d, NULL, NULL) == RD_ERR_ARG);
  CHECK(rd_linearize(NULL, d, NULL, &lin) == RD_ERR_HANDLE && !lin);
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_ERR_STATE && !lin);  // not initialized
  rd_initialize(m, d);
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.spin_rate = 2;  // no axis
  CHECK(rd_linearize(m, d, &def, &lin) == RD_ERR_ARG && !lin);
  def.spin_rate = NAN;
  CHECK(rd_linearize(m, d, &def, &lin) == RD_ERR_ARG);
  rdLinearizeDef raw;
  memset(&raw, 0, sizeof(raw));
  CHECK(rd_linearize(m, d, &raw, &lin) == RD_ERR_ARG);
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_OK);
  rdLinearizationInfo li;
  CHECK(rd_getLinearizationInfo(NULL, &li) == RD_ERR_HANDLE);
  CHECK(rd_getLinearizationInfo(lin, NULL) == RD_ERR_ARG);
  CHECK(rd_getLinearMatrix(lin, RD_LIN_COUNT, NULL, NULL, NULL, NULL, NULL, NULL) == RD_ERR_ARG);
  CHECK(rd_linearMatrixName(-1) == NULL && !strcmp(rd_linearMatrixName(RD_LIN_KR), "Kr"));
  CHECK(rd_writeLinearMatrices(lin, "/nonexistent/dir") == RD_ERR_IO);
  rdModalDef md_def = rd_defaultModalDef();
  md_def.count = 0;
  rdModes* md = NULL;
  CHECK(rd_computeModes(lin, &md_def, &md) == RD_ERR_ARG && !md);
  md_def = rd_defaultModalDef();
  md_def.solver = RD_EIGEN_ARPACK;
  md_def.count = 100;  // more than the reduced unknowns allow
  CHECK(rd_computeModes(lin, &md_def, &md) == RD_ERR_ARG);
  CHECK(rd_computeModes(NULL, NULL, &md) == RD_ERR_HANDLE);
  CHECK(rd_computeModes(lin, NULL, &md) == RD_OK);
  rdModeInfo mi;
  CHECK(rd_getMode(md, -1, &mi) == RD_ERR_ARG && rd_getMode(md, 10, &mi) == RD_ERR_ARG);
  CHECK(rd_getMode(NULL, 0, &mi) == RD_ERR_HANDLE);
  CHECK(rd_getModeShape(md, 99, NULL, NULL) == RD_ERR_ARG);
  CHECK(rd_modeCount(NULL) == 0 && isnan(rd_modeMac(md, 0, NULL, 0)));
  CHECK(rd_modeKindName(RD_MODE_KIND_COUNT) == NULL &&
        !strcmp(rd_modeKindName(RD_MODE_FLAP), "flap"));
  CHECK(rd_writeModeVtk(md, 0, "/tmp", -1, 0) == RD_ERR_ARG);
  CHECK(rd_writeModesCsv(md, "/nonexistent/dir/modes.csv") == RD_ERR_IO);
  CHECK(rd_writeModesNetcdf(md, "/nonexistent/dir/modes.nc") == RD_ERR_IO);
  rdStateSpace* ss = NULL;
  rdSsChannel bad = {RD_SS_FORCE, 99, 0}, badk = {7, 0, 0}, rot = {RD_SS_MOMENT, 0, 3};
  CHECK(rd_stateSpace(lin, 1, &bad, 0, NULL, &ss) == RD_ERR_ARG && !ss);
  CHECK(rd_stateSpace(lin, 1, &badk, 0, NULL, &ss) == RD_ERR_ARG);
  CHECK(rd_stateSpace(lin, 1, &rot, 0, NULL, &ss) == RD_ERR_ARG);
  CHECK(rd_stateSpace(lin, 1, NULL, 0, NULL, &ss) == RD_ERR_ARG);
  CHECK(rd_getStateSpace(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == RD_ERR_HANDLE);
  rd_destroyStateSpace(NULL);
  rd_destroyModes(NULL);
  rd_destroyLinearization(NULL);
  rd_destroyModes(&md);
  rd_destroyModes(&md);  // twice: a NULL pointer
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  // an explicit method has no matrix pattern
  s = cantilever(ctx, 1, 3);
  rd_destroySpec(&s);
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "b";
  model_addRigidBody(s, &n, "body", 1, (double[3]){1, 1, 1}, NULL);
  rds_setOption(s, "solver.method", "nmb");
  CHECK(model_make(s, &m, &d) == 0);
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_ERR_UNSUPPORTED);
  printf("  %s\n", rd_lastError(ctx));
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// linearize, modes, state space and files with the n-th allocation failing; 1 when complete
static int modal_path(long n, long* live, int* status) {
  failAlloc fa = {0, n, 0};
  rdAllocator a = {fa_malloc, fa_free, &fa};
  rdContext* ctx = NULL;
  rdModel* m = NULL;
  rdData* d = NULL;
  rdSpec* s = NULL;
  rdLinearization* lin = NULL;
  rdModes* md = NULL;
  rdStateSpace* ss = NULL;
  int st = rd_createContext(&ctx, &a);
  if (st == RD_OK) {
    s = cantilever(ctx, 2, 3);
    st = s ? RD_OK : RD_ERR_NOMEM;
  }
  st = st ? st : rd_compile(s, &m);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.spin_rate = 1;
  def.spin_axis[2] = 1;
  def.steady = 1;
  st = st ? st : rd_linearize(m, d, &def, &lin);
  st = st ? st : rd_computeModes(lin, NULL, &md);
  rdSsChannel in = {RD_SS_FORCE, 2, 1}, out = {RD_SS_REACTION_MOMENT, 0, 2};
  st = st ? st : rd_stateSpace(lin, 1, &in, 1, &out, &ss);
  *status = st;
  rd_destroyStateSpace(&ss);
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
  *live = fa.live;
  return st == RD_OK;
}


static void test_alloc_failures(void) {
  long n = 0, live;
  int bad = 0, leaks = 0, st;
  for (; n < 100000; n++) {
    if (modal_path(n, &live, &st)) {
      break;
    }
    if (st != RD_ERR_NOMEM) {
      bad++;
      printf("  allocation %ld failing gave %s\n", n, rd_statusName(st));
    }
    if (live) {
      leaks++;
      printf("  allocation %ld failing leaked %ld blocks\n", n, live);
    }
  }
  printf("  %ld allocations, each failing in turn\n", n);
  CHECK(n > 50 && n < 100000);
  CHECK(bad == 0 && leaks == 0);
  CHECK(modal_path(-1, &live, &st) && live == 0);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_files());
  TEST_CASE(test_arpack());
  TEST_CASE(test_misuse());
  TEST_CASE(test_alloc_failures());
  return TEST_SUMMARY();
}
