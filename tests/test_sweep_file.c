// SPDX-License-Identifier: MIT
// Sweeps in the library (rodrigues/sweep.h): the sweep file's cases (grid order, explicit cases,
// templates of parameters, ids), its errors with their places, the collector against the
// queries it samples, a case result written and read back, and the tables (sweep.nc read back).
// Runs from the source root (input/pendulum.yaml).
#include <errno.h>
#include <math.h>
#include <netcdf.h>
#include <rodrigues/rodrigues.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_macros.h"

static char tmpdir[] = "/tmp/rd_sweep_test_XXXXXX";
static char deck[1024];  // input/pendulum.yaml, absolute


// write `text` to tmpdir/NAME; returns its path (static buffer)
static const char* write_file(const char* name, const char* text) {
  static char path[1200];
  snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
  FILE* f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}


// a sweep file on the pendulum deck: "deck: DECK\n" then `body`
static int read_sweep(rdContext* ctx, const char* body, rdSweep** sw) {
  char text[4096];
  snprintf(text, sizeof(text), "deck: %s\n%s", deck, body);
  return rd_readSweep(ctx, write_file("s.yaml", text), sw);
}


static void test_grid_and_cases(rdContext* ctx) {
  rdSweep* sw = NULL;
  int st = read_sweep(ctx,
                      "set: {solver.final_time: 0.1}\n"
                      "grid:\n"
                      "  solver.time_step: [1.0e-3, 2.0e-3, 4.0e-3]\n"
                      "  solver.rho_inf: [0.5, 0.9]\n"
                      "cases:\n"
                      "  - {solver.method: nmb}\n"
                      "collect: [max(rod.z), final(total_energy)]\n",
                      &sw);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st != RD_OK) {
    return;
  }
  CHECK(rd_sweepCaseCount(sw) == 7);
  CHECK(rd_sweepVariableCount(sw) == 3);
  CHECK(!strcmp(rd_sweepVariable(sw, 0), "solver.time_step"));
  CHECK(!strcmp(rd_sweepVariable(sw, 2), "solver.method"));
  // the first key varies slowest
  CHECK(!strcmp(rd_sweepValue(sw, 0, 0), "1.0e-3") && !strcmp(rd_sweepValue(sw, 0, 1), "0.5"));
  CHECK(!strcmp(rd_sweepValue(sw, 1, 0), "1.0e-3") && !strcmp(rd_sweepValue(sw, 1, 1), "0.9"));
  CHECK(!strcmp(rd_sweepValue(sw, 5, 0), "4.0e-3") && !strcmp(rd_sweepValue(sw, 5, 1), "0.9"));
  CHECK(rd_sweepValue(sw, 0, 2) == NULL && rd_sweepValue(sw, 6, 0) == NULL);
  CHECK(!strcmp(rd_sweepValue(sw, 6, 2), "nmb"));
  // overrides: set first, then the case's variables
  const char* const* o = NULL;
  CHECK(rd_sweepOverrides(sw, 3, &o) == 3);
  CHECK(!strcmp(o[0], "solver.final_time=0.1"));
  CHECK(!strcmp(o[1], "solver.time_step=2.0e-3"));
  CHECK(!strcmp(o[2], "solver.rho_inf=0.9"));
  CHECK(rd_sweepOverrides(sw, 7, &o) == RD_ERR_ARG);
  // ids: exact when nothing had to change
  CHECK(!strcmp(rd_sweepCaseId(sw, 3), "time_step=2.0e-3_rho_inf=0.9"));
  CHECK(!strcmp(rd_sweepCaseId(sw, 6), "method=nmb"));
  CHECK(rd_sweepFindCase(sw, "method=nmb") == 6);
  CHECK(rd_sweepFindCase(sw, "4") == 4);
  CHECK(rd_sweepFindCase(sw, "nothing") == -1);
  CHECK(rd_sweepQuantityCount(sw) == 2 && !strcmp(rd_sweepQuantity(sw, 1), "final(total_energy)"));
  // fingerprints differ between cases and are 16 hex digits
  CHECK(strlen(rd_sweepFingerprint(sw, 0)) == 16);
  CHECK(strcmp(rd_sweepFingerprint(sw, 0), rd_sweepFingerprint(sw, 1)));
  rd_destroySweep(&sw);
  CHECK(sw == NULL);
  rd_destroySweep(&sw);  // NULL is fine

  // no grid, no cases: the base deck
  CHECK(read_sweep(ctx, "", &sw) == RD_OK);
  CHECK(rd_sweepCaseCount(sw) == 1 && !strcmp(rd_sweepCaseId(sw, 0), "base"));
  rd_destroySweep(&sw);
}


static void test_templates_and_ids(rdContext* ctx) {
  rdSweep* sw = NULL;
  int st = read_sweep(ctx,
                      "parameters: [spin]\n"
                      "set:\n"
                      "  nodes.rod.velocity: \"[0, ${0.5*spin}, 0]\"\n"
                      "  nodes.rod.angular_velocity: \"[0, 0, ${spin}]\"\n"
                      "grid:\n"
                      "  spin: [0.2, 3]\n"
                      "cases:\n"
                      "  - {spin: 1, nodes.rod.position: [0.5, 0, 0]}\n",
                      &sw);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st != RD_OK) {
    return;
  }
  const char* const* o = NULL;
  CHECK(rd_sweepOverrides(sw, 0, &o) == 2);  // a parameter is no override
  // 0.5 * 0.2 is 0.1 in the shortest text that reads back; ${spin} is the value's own text
  CHECK_MSG(!strcmp(o[0], "nodes.rod.velocity=[0, 0.1, 0]"), "%s", o[0]);
  CHECK_MSG(!strcmp(o[1], "nodes.rod.angular_velocity=[0, 0, 0.2]"), "%s", o[1]);
  CHECK(rd_sweepOverrides(sw, 1, &o) == 2 && !strcmp(o[0], "nodes.rod.velocity=[0, 1.5, 0]"));
  CHECK(rd_sweepOverrides(sw, 2, &o) == 3 && !strcmp(o[2], "nodes.rod.position=[0.5, 0, 0]"));
  CHECK(!strcmp(rd_sweepCaseId(sw, 0), "spin=0.2"));
  // a list keeps its numbers and commas: exact, no hash
  CHECK_MSG(!strcmp(rd_sweepCaseId(sw, 2), "spin=1_position=0.5,0,0"), "%s", rd_sweepCaseId(sw, 2));
  rd_destroySweep(&sw);

  // a value whose text must change gets a hash; two variables with one last name too
  st = read_sweep(ctx,
                  "cases:\n"
                  "  - {title: \"a b/c\"}\n"
                  "  - {title: \"a b?c\"}\n",
                  &sw);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st == RD_OK) {
    const char* a = rd_sweepCaseId(sw, 0);
    const char* b = rd_sweepCaseId(sw, 1);
    CHECK_MSG(!strncmp(a, "title=ab-c-", 11) && strlen(a) == 19, "%s", a);
    CHECK_MSG(!strncmp(b, "title=ab-c-", 11) && strcmp(a, b), "%s %s", a, b);
    rd_destroySweep(&sw);
  }
}


// the error of reading `body` starts with the sweep file's name and holds `want`
static void expect_error(rdContext* ctx, const char* body, const char* want) {
  rdSweep* sw = NULL;
  int st = read_sweep(ctx, body, &sw);
  CHECK(st == RD_ERR_DECK && sw == NULL);
  const char* msg = rd_lastError(ctx);
  CHECK_MSG(strstr(msg, "/s.yaml:") && strstr(msg, want), "expected '%s', got '%s'", want, msg);
}


static void test_errors(rdContext* ctx) {
  expect_error(ctx, "grd: {solver.time_step: [1]}\n", "s.yaml:2:1: unknown key 'grd'");
  expect_error(ctx, "grid:\n  solver.time_stp: [1.0e-3]\n",
               "s.yaml:3:3: case 'time_stp=1.0e-3': --set solver.time_stp=1.0e-3: unknown key");
  expect_error(ctx, "grid:\n  solver.time_step: []\n", "s.yaml:3:21: grid 'solver.time_step' must");
  expect_error(ctx, "collect: [maxi(rod.z)]\n", "unknown operation 'maxi' (did you mean 'max'?)");
  expect_error(ctx, "collect: [rod.z]\n", "s.yaml:2:11: a quantity is OPERATION(SOURCE)");
  expect_error(ctx, "parameters: [w]\nset: {title: \"${w\"}\ngrid: {w: [1]}\n",
               "s.yaml:3:14: set 'title': '${' without its '}'");
  expect_error(ctx, "parameters: [w]\ngrid: {solver.rho_inf: [1]}\n",
               "parameter 'w' takes no value");
  expect_error(ctx, "parameters: [w]\nset: {title: \"${w*}\"}\ngrid: {w: [1]}\n", "set 'title'");
  expect_error(ctx, "parameters: [w]\nset: {title: \"${2*w}\"}\ngrid: {w: [a]}\n",
               "is not a finite number in case 0");
  expect_error(ctx, "cases:\n  - {solver.rho_inf: 0.5}\n  - {solver.rho_inf: 0.5}\n",
               "cases 0 and 1 have the same id 'rho_inf=0.5'");
  expect_error(ctx, "grid: {solver.rho_inf: [0.5]}\ncases:\n  - {}\n",
               "s.yaml:4:5: a case must be a mapping");
  // the deck's own errors, at the variable that brought them
  expect_error(ctx, "grid: {nodes.rod.mass: [1]}\n", "s.yaml:2:8: case 'mass=1': --set");
  rdSweep* sw = NULL;
  CHECK(rd_readSweep(ctx, "/nonexistent/s.yaml", &sw) == RD_ERR_IO && sw == NULL);
  const char* path = write_file("nodeck.yaml", "deck: nothing_here.yaml\n");
  CHECK(rd_readSweep(ctx, path, &sw) == RD_ERR_DECK);
  CHECK_MSG(strstr(rd_lastError(ctx), "nodeck.yaml:1:7: cannot read the deck"), "%s",
            rd_lastError(ctx));
}


// the collector against the queries it samples, over the first steps of the pendulum
static void test_collector(rdContext* ctx) {
  rdSweep* sw = NULL;
  int st = read_sweep(ctx,
                      "collect: [max(rod.z), min(rod.z), absmax(rod.vy), final(total_energy),\n"
                      "          max(reaction.pivot.force), final(reaction.pivot.moment_y),\n"
                      "          min(newton_iterations)]\n",
                      &sw);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st != RD_OK) {
    return;
  }
  rdSpec* spec = NULL;
  rdModel* m = NULL;
  rdData* d = NULL;
  rdCollector* c = NULL;
  rdCollector* c2 = NULL;  // restored from c's state halfway
  st = rd_readDeck(ctx, deck, NULL, 0, &spec);
  st = st ? st : rd_compile(spec, &m);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_createCollector(sw, m, &c);
  st = st ? st : rd_initialize(m, d);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  double v[7];
  if (st == RD_OK) {
    CHECK(rd_collectedValues(c, v) == RD_OK && isnan(v[0]));  // no sample yet
    double zmax = -INFINITY, zmin = INFINITY, vy = 0, fbig = 0, te = 0, my = 0;
    for (int k = 0; k < 200 && st == RD_OK; k++) {
      st = k ? rd_step(m, d, 0) : RD_OK;
      st = st ? st : rd_collect(c, d);
      st = st || !c2 ? st : rd_collect(c2, d);
      if (k == 99 && st == RD_OK) {
        // a second collector from the first's state, as a case resumed from a checkpoint
        double state[15];
        st = rd_getCollectorState(c, state);
        st = st ? st : rd_createCollector(sw, m, &c2);
        st = st ? st : rd_setCollectorState(c2, state);
        CHECK(st == RD_OK && state[14] == 100);
        state[7] = 2;
        CHECK(rd_setCollectorState(c2, state) == RD_ERR_ARG);  // a flag that is not 0 or 1
        state[7] = 0;
        state[14] = -1;
        CHECK(rd_setCollectorState(c2, state) == RD_ERR_ARG);  // a negative count
      }
      double x[3], q[4], vel[3], f[3], mo[3], ke, pe;
      rd_getNodeState(m, d, 0, x, q, vel, NULL, NULL);
      rd_getJointReaction(m, d, 0, f, mo);
      rd_getEnergy(m, d, &ke, &pe);
      zmax = fmax(zmax, x[2]);
      zmin = fmin(zmin, x[2]);
      vy = fabs(vel[1]) > fabs(vy) ? vel[1] : vy;
      fbig = fmax(fbig, sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
      te = ke + pe;
      my = mo[1];
    }
    CHECK(st == RD_OK && rd_collectedValues(c, v) == RD_OK);
    CHECK(v[0] == zmax && v[1] == zmin && v[2] == vy && v[3] == te && v[5] == my);
    CHECK_MSG(v[4] == fbig, "%.17g %.17g", v[4], fbig);
    CHECK(v[6] == 0 && zmin < -0.05);  // initialization counts no Newton iteration
    double v2[7];
    CHECK(c2 && rd_collectedValues(c2, v2) == RD_OK && !memcmp(v, v2, sizeof(v)));
  }
  rd_destroyCollector(&c2);
  // the model and the sweep of a live collector refuse to be destroyed
  rdModel* m_keep = m;
  rdSweep* sw_keep = sw;
  rd_destroyModel(&m);
  CHECK(m == m_keep && rd_lastStatus(ctx) == RD_ERR_STATE);
  rd_destroySweep(&sw);
  CHECK(sw == sw_keep && rd_lastStatus(ctx) == RD_ERR_STATE);
  CHECK(strstr(rd_lastError(ctx), "1 collector of this sweep is not destroyed") != NULL);
  rdCollector* c_copy = c;
  rd_destroyCollector(&c);
  CHECK(c == NULL);
  // a stale copy of the collector: refused, and destroying it again does nothing
  CHECK(rd_collect(c_copy, d) == RD_ERR_HANDLE && rd_collectedValues(c_copy, v) == RD_ERR_HANDLE);
  rd_destroyCollector(&c_copy);
  // sources that are not in the model
  rdSweep* bad = NULL;
  st = read_sweep(ctx, "collect: [max(rod.zz)]\n", &bad);
  CHECK(st == RD_OK && rd_createCollector(bad, m, &c) == RD_ERR_DECK && c == NULL);
  CHECK_MSG(strstr(rd_lastError(ctx), "s.yaml:2:11: quantity 'max(rod.zz)': no column 'rod.zz'") &&
                strstr(rd_lastError(ctx), "did you mean 'rod.z'"),
            "%s", rd_lastError(ctx));
  rd_destroySweep(&bad);
  st = read_sweep(ctx, "collect: [max(reaction.pivt.force)]\n", &bad);
  CHECK(st == RD_OK && rd_createCollector(bad, m, &c) == RD_ERR_DECK);
  CHECK_MSG(strstr(rd_lastError(ctx), "no joint 'pivt' in the model (did you mean 'pivot'?)"), "%s",
            rd_lastError(ctx));
  rd_destroySweep(&bad);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&spec);
  rdContext* ctx_copy = ctx;
  rd_destroyContext(&ctx_copy);  // a sweep is alive: refused
  CHECK(ctx_copy == ctx && rd_lastStatus(ctx) == RD_ERR_STATE);
  rdSweep* sw_copy = sw;
  rd_destroySweep(&sw);
  CHECK(sw == NULL && rd_sweepDeck(sw_copy) == NULL && rd_sweepCaseCount(sw_copy) == 0);
  rd_destroySweep(&sw_copy);
}


// a result written and read back; the tables, with sweep.nc read back
static void test_results_and_tables(rdContext* ctx) {
  rdSweep* sw = NULL;
  int st = read_sweep(ctx,
                      "grid: {solver.rho_inf: [0.5, 0.9], title: [a, \"b, c\"]}\n"
                      "collect: [max(rod.z), final(rod.x)]\n",
                      &sw);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st != RD_OK) {
    return;
  }
  double vals[4][2] = {{1.5, NAN}, {-2.25e-300, 3}, {0.1, 0.2}, {0, 0}};
  rdCaseResult r[4];
  for (int i = 0; i < 4; i++) {
    memset(&r[i], 0, sizeof(r[i]));
    r[i].values = vals[i];
    r[i].state = i == 1 ? RD_CASE_FAILED : i == 3 ? RD_CASE_MISSING : RD_CASE_OK;
    r[i].exit_code = i == 1 ? 3 : 0;
    r[i].wall_time = 0.125 * i;
    r[i].steps = 100 + i;
    snprintf(r[i].error, sizeof(r[i].error), "%s", i == 1 ? "Newton \"did\" not\nconverge" : "");
  }
  char path[1200];
  snprintf(path, sizeof(path), "%s/result.json", tmpdir);
  CHECK(rd_writeCaseResult(sw, 1, &r[1], path) == RD_OK);
  double back_vals[2];
  rdCaseResult back;
  back.values = back_vals;
  CHECK(rd_readCaseResult(sw, 1, path, &back) == RD_OK);
  CHECK(back.state == RD_CASE_FAILED && back.exit_code == 3 && back.steps == 101);
  CHECK(back_vals[0] == -2.25e-300 && back_vals[1] == 3 && back.wall_time == 0.125);
  CHECK(!strcmp(back.error, "Newton \"did\" not\nconverge"));
  // the result of another case is stale; no file is missing; a broken file is missing too
  CHECK(rd_readCaseResult(sw, 0, path, &back) == RD_OK && back.state == RD_CASE_STALE);
  snprintf(path, sizeof(path), "%s/none.json", tmpdir);
  CHECK(rd_readCaseResult(sw, 0, path, &back) == RD_OK && back.state == RD_CASE_MISSING);
  CHECK(!strcmp(rd_caseStateName(RD_CASE_CRASHED), "crashed"));
  // not text, and endless: refused at its first bytes (libfyaml reading the file itself grew
  // its memory without end)
  CHECK(rd_readCaseResult(sw, 0, "/dev/zero", &back) == RD_OK && back.state == RD_CASE_MISSING);
  CHECK(strstr(back.error, "is not a case result") != NULL);

  CHECK(rd_writeSweepIndex(sw, tmpdir) == RD_OK);
  CHECK(rd_writeSweepTables(sw, r, tmpdir) == RD_OK);
  snprintf(path, sizeof(path), "%s/sweep.csv", tmpdir);
  FILE* f = fopen(path, "r");
  char line[4][512] = {{0}};
  for (int k = 0; f && k < 4 && fgets(line[k], sizeof(line[k]), f); k++) {
  }
  if (f) {
    fclose(f);
  }
  CHECK_MSG(!strcmp(line[0],
                    "case,id,solver.rho_inf,title,state,exit_code,wall_time,steps,"
                    "rejected_steps,max(rod.z),final(rod.x),error\n"),
            "%s", line[0]);
  CHECK_MSG(!strncmp(line[1], "0,rho_inf=0.5_title=a,0.5,a,ok,0,0,100,0,1.5,,\n", 60), "%s",
            line[1]);
  CHECK_MSG(!strncmp(line[2],
                     "1,\"rho_inf=0.5_title=b,c\",0.5,\"\"\"b, c\"\"\",failed,3,0.125,101,0,"
                     "-2.25e-300,3,\"Newton \"\"did\"\" not",
                     80),
            "%s", line[2]);
  // sweep.nc: the case dimension, a numeric and a text coordinate, a quantity with NaN
  snprintf(path, sizeof(path), "%s/sweep.nc", tmpdir);
  int id, var, dim;
  size_t n = 0;
  CHECK(nc_open(path, NC_NOWRITE, &id) == NC_NOERR);
  CHECK(nc_inq_dimid(id, "case", &dim) == NC_NOERR && nc_inq_dimlen(id, dim, &n) == NC_NOERR &&
        n == 4);
  double rho[4], zmax[4], xf[4];
  CHECK(nc_inq_varid(id, "solver.rho_inf", &var) == NC_NOERR &&
        nc_get_var_double(id, var, rho) == NC_NOERR && rho[0] == 0.5 && rho[3] == 0.9);
  CHECK(nc_inq_varid(id, "max(rod.z)", &var) == NC_NOERR &&
        nc_get_var_double(id, var, zmax) == NC_NOERR && zmax[2] == 0.1);
  CHECK(nc_inq_varid(id, "final(rod.x)", &var) == NC_NOERR &&
        nc_get_var_double(id, var, xf) == NC_NOERR && isnan(xf[0]) && xf[1] == 3);
  char coords[256] = {0};
  CHECK(nc_get_att_text(id, var, "coordinates", coords) == NC_NOERR &&
        !strcmp(coords, "id solver.rho_inf title"));
  nc_type type;
  char* title[4] = {NULL};
  CHECK(nc_inq_varid(id, "title", &var) == NC_NOERR && nc_inq_vartype(id, var, &type) == NC_NOERR &&
        type == NC_STRING && nc_get_var_string(id, var, title) == NC_NOERR &&
        !strcmp(title[1], "\"b, c\""));
  nc_free_string(4, title);
  nc_close(id);
  rd_destroySweep(&sw);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int made = mkdtemp(tmpdir) != NULL;
  CHECK_MSG(made, "cannot create a temporary directory: %s", strerror(errno));
  char cwd[800];
  if (!made || !getcwd(cwd, sizeof(cwd))) {
    return TEST_SUMMARY();
  }
  snprintf(deck, sizeof(deck), "%s/input/pendulum.yaml", cwd);
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  TEST_CASE(test_grid_and_cases(ctx));
  TEST_CASE(test_templates_and_ids(ctx));
  TEST_CASE(test_errors(ctx));
  TEST_CASE(test_collector(ctx));
  TEST_CASE(test_results_and_tables(ctx));
  rd_destroyContext(&ctx);
  const char* names[] = {"s.yaml",    "nodeck.yaml", "result.json",
                         "index.csv", "sweep.csv",   "sweep.nc"};
  for (int i = 0; i < 6; i++) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
    remove(path);
  }
  CHECK(rmdir(tmpdir) == 0);  // nothing else was left behind
  return TEST_SUMMARY();
}
