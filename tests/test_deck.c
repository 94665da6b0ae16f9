// SPDX-License-Identifier: MIT
// Tests of the YAML deck reader: example decks, --set overrides, and every malformed deck in
// tests/decks/bad (each names its expected error on its first line). Run from the source root.
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/deck.h"
#include "rodrigues/model.h"
#include "rodrigues/simulate.h"
#include "src/io/deck_impl.h"
#include "src/model/spec_impl.h"
#include "tests/support/fail_alloc.h"
#include "tests/test_macros.h"

#define BAD_DIR "tests/decks/bad"
#define MAX_SET 8

// ---------------------------------------------------------------------------------------------
// helpers

static rdSpec* read_ok(rdContext* ctx, const char* path, const char* const* set, int nset) {
  rdSpec* spec = NULL;
  int st = rd_readDeck(ctx, path, set, nset, &spec);
  CHECK_MSG(st == RD_OK && spec, "%s: rd_readDeck returned %d: %s", path, st, rd_lastError(ctx));
  return spec;
}


static const rdElemDef* elem(const rdSpec* s, int i) {
  return (const rdElemDef*)s->elems.items + i;
}


static const rdNodeDef* node(const rdSpec* s, int i) {
  return (const rdNodeDef*)s->nodes.items + i;
}


static const rdJointDef* joint(const rdSpec* s, int i) {
  return (const rdJointDef*)s->joints.items + i;
}


static int is_yaml(const struct dirent* e) {
  size_t n = strlen(e->d_name);
  return n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}


static int near(double a, double b) {
  return test_close(a, b, 1e-12, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// good decks

static void test_pendulum(rdContext* ctx) {
  rdSpec* spec = read_ok(ctx, "input/pendulum.yaml", NULL, 0);
  if (!spec) {
    return;
  }
  CHECK_MSG(rds_count(spec, RD_OBJ_NODE) == 1, "pendulum: nodes");
  CHECK_MSG(rds_count(spec, RD_OBJ_ELEMENT) == 1, "pendulum: elements");
  CHECK_MSG(rds_count(spec, RD_OBJ_JOINT) == 1, "pendulum: joints");
  CHECK_MSG(near(spec->gravity[2], -9.81), "pendulum: gravity");
  CHECK_MSG(spec->outputs.count == 1, "pendulum: output nodes");
  CHECK_MSG(!strcmp(rd_specOrigin(spec, RD_OBJ_ELEMENT, 0), "input/pendulum.yaml:26:5"),
            "pendulum: element origin '%s'", rd_specOrigin(spec, RD_OBJ_ELEMENT, 0));
  rdModel* model = NULL;
  int st = rd_compile(spec, &model);
  CHECK_MSG(st == RD_OK, "pendulum: compile: %s", rd_lastError(ctx));
  rdModelInfo info;
  if (st == RD_OK && rd_modelInfo(model, &info) == RD_OK) {
    CHECK_MSG(info.nnode == 1 && info.nrigid_body == 1 && info.njoint == 1 && info.ndof == 6 &&
                  info.nconstraint == 3 && info.noutput == 1,
              "pendulum: model sizes %d %d %d %d %d %d", info.nnode, info.nrigid_body, info.njoint,
              info.ndof, info.nconstraint, info.noutput);
    CHECK_MSG(near(rd_getOptionReal(model, "output.every"), 10), "pendulum: output.every");
  }
  rd_destroyModel(&model);
  rd_destroySpec(&spec);
}


static void test_heavy_top(rdContext* ctx) {
  rdSpec* spec = read_ok(ctx, "input/heavy_top.yaml", NULL, 0);
  if (!spec) {
    return;
  }
  char buf[64];
  CHECK_MSG(rds_getOption(spec, "solver.method", buf, sizeof(buf)) == RD_OK &&
                !strcmp(buf, "generalized_alpha"),
            "heavy top: method");
  CHECK_MSG(near(spec->opt.time_step, 2e-4) && near(spec->opt.final_time, 2) &&
                near(spec->opt.rho_inf, 0.9),
            "heavy top: solver options");
  const rdNodeDef* n = node(spec, 0);
  CHECK_MSG(n->angular_velocity_frame == RD_FRAME_BODY && near(n->angular_velocity[1], 150) &&
                near(n->velocity[0], 4.61538) && near(n->position[1], 1),
            "heavy top: node state");
  const rdRigidBodyDef* b = &elem(spec, 0)->u.body;
  CHECK_MSG(near(b->mass, 15) && near(b->inertia[0], 0.234375) && near(b->inertia[4], 0.46875) &&
                b->inertia[1] == 0,
            "heavy top: body");
  CHECK_MSG(joint(spec, 0)->type == RD_JOINT_SPHERICAL && joint(spec, 0)->node[1] == RD_GROUND,
            "heavy top: joint");
  rdModel* model = NULL;
  CHECK_MSG(rd_compile(spec, &model) == RD_OK, "heavy top: compile: %s", rd_lastError(ctx));
  rd_destroyModel(&model);
  rd_destroySpec(&spec);
}


// every section and option form, checked value by value
static void test_all_features(rdContext* ctx) {
  rdSpec* s = read_ok(ctx, "tests/decks/good/all_features.yaml", NULL, 0);
  if (!s) {
    return;
  }
  CHECK_MSG(rds_count(s, RD_OBJ_NODE) == 5 && rds_count(s, RD_OBJ_TIMEFN) == 4 &&
                rds_count(s, RD_OBJ_ELEMENT) == 5 && rds_count(s, RD_OBJ_JOINT) == 10 &&
                rds_count(s, RD_OBJ_LOAD) == 2 && rds_count(s, RD_OBJ_TORQUE) == 2,
            "all_features: counts %d %d %d %d %d %d", rds_count(s, RD_OBJ_NODE),
            rds_count(s, RD_OBJ_TIMEFN), rds_count(s, RD_OBJ_ELEMENT), rds_count(s, RD_OBJ_JOINT),
            rds_count(s, RD_OBJ_LOAD), rds_count(s, RD_OBJ_TORQUE));
  // rotation vector (0, 0, pi/2), quaternion, and a matrix of the same rotation
  double h = sqrt(0.5);
  for (int i = 0; i < 3; i++) {
    const double* q = node(s, i)->orientation;
    CHECK_MSG(fabs(q[0] - h) < 1e-9 && fabs(q[3] - h) < 1e-9 && fabs(q[1]) < 1e-12,
              "all_features: orientation of node %d = (%g %g %g %g)", i, q[0], q[1], q[2], q[3]);
  }
  CHECK_MSG(node(s, 3)->kind == RD_NODE_POINT, "all_features: point node");
  // inertia about the node, moved to the centre of mass: J - m(|c|^2 I - c c^T)
  const rdRigidBodyDef* b = &elem(s, 0)->u.body;
  CHECK_MSG(near(b->inertia[0], 10 - 2 * 1) && near(b->inertia[4], 8) && near(b->inertia[8], 10),
            "all_features: parallel axis %g %g %g", b->inertia[0], b->inertia[4], b->inertia[8]);
  const rdSpringDef* sp = &elem(s, 2)->u.spring;
  CHECK_MSG(sp->node[1] == RD_GROUND && near(sp->anchor[2], 3) && near(sp->stiffness[0], 100) &&
                near(sp->stiffness[2], 5) && sp->rest_length == -1,
            "all_features: spring to ground");
  const rdSpringDef* sp2 = &elem(s, 3)->u.spring;
  CHECK_MSG(sp2->node[1] == 1 && near(sp2->stiffness[0], 50) && sp2->stiffness[1] == 0 &&
                near(sp2->rest_length, 0.5),
            "all_features: spring between nodes");
  const rdBushingDef* bu = &elem(s, 4)->u.bushing;
  CHECK_MSG(near(bu->stiffness[0], 1) && near(bu->stiffness[35], 6) && bu->stiffness[1] == 0 &&
                bu->damping[0] == 0,
            "all_features: bushing");
  const rdJointDef* rev = joint(s, 3);
  CHECK_MSG(rev->type == RD_JOINT_REVOLUTE && near(rev->axis[2], 1) && rev->angle_fn == 1 &&
                rev->torque_fn == 0 && near(rev->torque, 2),
            "all_features: revolute (axis normalized, time functions)");
  CHECK_MSG(near(joint(s, 2)->point[0], 1) && near(joint(s, 2)->point[1], 2),
            "all_features: point defaults to the node position");
  const rdJointDef* pre = joint(s, 8);
  CHECK_MSG(pre->motion_fn[0] == 3 && pre->motion_fn[5] == 2 && pre->motion_fn[1] == RD_NO_TIMEFN,
            "all_features: prescribed motion");
  rdModel* model = NULL;
  CHECK_MSG(rd_compile(s, &model) == RD_OK, "all_features: compile: %s", rd_lastError(ctx));
  rd_destroyModel(&model);
  rd_destroySpec(&s);
}


static void test_overrides(rdContext* ctx) {
  const char* set[] = {"solver.time_step=0.01", "elements.body.mass=2",
                       "gravity=[0, 0, -1]",    "nodes.rod.position=[0.5, 0, 0.25]",
                       "output.every=5",        "joints.0.point=[0, 0, 0.25]",
                       "title=changed"};
  rdSpec* s = read_ok(ctx, "input/pendulum.yaml", set, 7);
  if (!s) {
    return;
  }
  CHECK_MSG(near(s->opt.time_step, 0.01), "--set solver.time_step");
  CHECK_MSG(near(elem(s, 0)->u.body.mass, 2), "--set elements.body.mass");
  CHECK_MSG(near(s->gravity[2], -1), "--set gravity");
  CHECK_MSG(near(node(s, 0)->position[2], 0.25), "--set nodes.rod.position");
  CHECK_MSG(s->opt.output_every == 5, "--set output.every");
  CHECK_MSG(near(joint(s, 0)->point[2], 0.25), "--set joints.0.point");
  rd_destroySpec(&s);
  // a section the deck does not have is created
  const char* add[] = {"solver.max_iter=7"};
  s = read_ok(ctx, "tests/decks/good/minimal.yaml", add, 1);
  CHECK_MSG(s && s->opt.max_iter == 7, "--set creates a section");
  rd_destroySpec(&s);
  // an override replacing what an earlier one set (the earlier nodes are freed), then one
  // whose location is looked up among the overrides': read, the later value in place (it read
  // freed nodes and crashed)
  const char* again[] = {"subsystems.0.method=nmb",
                         "subsystems=[]",
                         "solver.rtol=1e-10",
                         "joints.pivot.point=[1, 0, 0]",
                         ("joints.pivot={name: pivot, type: "
                          "spherical, nodes: [top, beam_4], point: [1, 0, 0]}"),
                         "output.every=3"};
  s = read_ok(ctx, "input/mixed/top_on_beam.yaml", again, 6);
  CHECK_MSG(s && s->subsystems.count == 0 && s->opt.output_every == 3,
            "--set over an earlier override");
  rd_destroySpec(&s);
}


// every example deck in input/ reads and compiles
static void test_inputs(rdContext* ctx) {
  struct dirent** list = NULL;
  int n = scandir("input", &list, is_yaml, alphasort);
  CHECK_MSG(n >= 2, "found %d decks in input/", n);
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof(path), "input/%s", list[i]->d_name);
    free(list[i]);
    rdSpec* spec = read_ok(ctx, path, NULL, 0);
    rdModel* model = NULL;
    if (spec) {
      CHECK_MSG(rds_count(spec, RD_OBJ_NODE) > 0, "%s: no nodes", path);
      CHECK_MSG(rd_compile(spec, &model) == RD_OK, "%s: compile: %s", path, rd_lastError(ctx));
    }
    rd_destroyModel(&model);
    rd_destroySpec(&spec);
  }
  free(list);
}


// `sections: {beamdyn_blade: FILE}` with generated nodes: the stations and damping of the
// imported deck (written out there, round-trip exact), the nodes the deck's
static void test_beamdyn_sections(rdContext* ctx) {
  rdSpec* a = read_ok(ctx, "tests/decks/good/beamdyn_blade_straight.yaml", NULL, 0);
  rdSpec* b = read_ok(ctx, "input/beam/nrel5mw_gravity_az00.yaml", NULL, 0);
  if (a && b) {
    const rdBeamDef* ba = (const rdBeamDef*)a->beams.items;
    const rdBeamDef* bb = (const rdBeamDef*)b->beams.items;
    int ns = bb->nstation, same = ba->nstation == ns;
    for (int i = 0; same && i < ns; i++) {
      same = ba->station[i] == bb->station[i];
      for (int j = 0; same && j < 36; j++) {
        same = ba->stiffness[36 * i + j] == bb->stiffness[36 * i + j] &&
               ba->mass[36 * i + j] == bb->mass[36 * i + j];
      }
    }
    for (int j = 0; same && j < 6; j++) {
      same = ba->damping[j] == bb->damping[j];
    }
    CHECK_MSG(same && ns == 49, "beamdyn_blade: the imported deck's 49 stations and damping");
    CHECK_MSG(ba->nnode == 6 && rds_count(a, RD_OBJ_NODE) == 6 &&
                  !strcmp(node(a, 5)->name, "blade_5") && node(a, 5)->position[2] == 62.5,
              "beamdyn_blade: the deck's generated nodes");
    // the documented frame conversion: twist -90 - phi gives BeamDyn's section frame at the
    // ends (phi = 13.308 and 0 deg), where the imported deck has BeamDyn's own frames
    double e = 0;
    for (int k = 0; k < 6; k += 5) {
      for (int j = 0; j < 4; j++) {
        e = fmax(e, fabs(node(a, k)->orientation[j] - node(b, k)->orientation[j]));
      }
    }
    CHECK_MSG(e < 1e-15,
              "beamdyn_blade: end frames of the twisted straight blade = BeamDyn's (%.3g)", e);
    CHECK_MSG(!strcmp(rd_specOrigin(a, RD_OBJ_BEAM, 0),
                      "tests/decks/good/beamdyn_blade_straight.yaml:9:5"),
              "beamdyn_blade: origin %s", rd_specOrigin(a, RD_OBJ_BEAM, 0));
  }
  rd_destroySpec(&a);
  rd_destroySpec(&b);
}


static void test_api_errors(rdContext* ctx) {
  rdSpec* spec = (rdSpec*)&spec;
  CHECK_MSG(rd_readDeck(ctx, "no/such/deck.yaml", NULL, 0, &spec) == RD_ERR_IO && !spec,
            "missing file -> RD_ERR_IO");
  CHECK_MSG(!strncmp(rd_lastError(ctx), "no/such/deck.yaml: cannot open", 30), "missing file: %s",
            rd_lastError(ctx));
  CHECK_MSG(rd_readDeck(ctx, NULL, NULL, 0, &spec) == RD_ERR_ARG, "NULL path");
  CHECK_MSG(rd_readDeck(ctx, "input/pendulum.yaml", NULL, 1, &spec) == RD_ERR_ARG,
            "overrides NULL with noverride > 0");
  CHECK_MSG(rd_readDeck(NULL, "input/pendulum.yaml", NULL, 0, &spec) == RD_ERR_HANDLE,
            "NULL context");
}


// issue 16, findings 1, 2 and 11: the deck is read whole into memory and its text checked
// before libfyaml sees it (a 2-byte directive made its scanner loop forever); decks in memory
static void test_text_checks(rdContext* ctx) {
  static const struct {
    const char* text;
    size_t len;
    const char* expect;
  } cases[] = {
      {"%\377", 2, "deck:1:2: invalid deck: not UTF-8 (byte 0xff)"},
      {"%YAML\377", 6, "deck:1:6: invalid deck: not UTF-8 (byte 0xff)"},
      {"title: x\0", 10, "deck:1:9: invalid deck: a NUL byte (not a text file) (byte 0x00)"},
      {"title: \001", 8, "deck:1:8: invalid deck: a control character (byte 0x01)"},
      {"title: \xc2\x80", 9, "deck:1:8: invalid deck: a character YAML does not allow"},
      {"title: \xed\xa0\x80", 10, "deck:1:8: invalid deck: not UTF-8 (byte 0xed)"},
      {"title: x\ntitle: y\n", 18, "deck:2:1: invalid YAML: duplicate key"},
  };
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    rdSpec* spec = NULL;
    int st = rd_readDeckText(ctx, "deck", cases[k].text, cases[k].len, NULL, 0, &spec);
    CHECK_MSG(st == RD_ERR_DECK && !spec, "case %zu: status %d", k, st);
    CHECK_MSG(!strncmp(rd_lastError(ctx), cases[k].expect, strlen(cases[k].expect)),
              "case %zu: '%s'", k, rd_lastError(ctx));
    rd_destroySpec(&spec);
  }
  // the same through files, and a file larger than the limit
  char path[] = "/tmp/rd_deck_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0 && write(fd, "%\377", 2) == 2);
  close(fd);
  rdSpec* spec = NULL;
  CHECK(rd_readDeck(ctx, path, NULL, 0, &spec) == RD_ERR_DECK && !spec);
  CHECK(strstr(rd_lastError(ctx), ":1:2: invalid deck: not UTF-8") != NULL);
  FILE* f = fopen(path, "wb");
  static char block[1 << 20];
  memset(block, '#', sizeof(block));
  for (unsigned k = 0; f && k <= RD_DECK_MAX_BYTES / sizeof(block); k++) {
    fwrite(block, 1, sizeof(block), f);
  }
  CHECK(f && fclose(f) == 0);
  CHECK(rd_readDeck(ctx, path, NULL, 0, &spec) == RD_ERR_DECK);
  CHECK(strstr(rd_lastError(ctx), "larger than 64 MiB") != NULL);
  remove(path);
  // a deck in memory reads like its file; --set values take the same text checks
  const char* deck = "nodes:\n  - name: a\n";
  CHECK(rd_readDeckText(ctx, "mem.yaml", deck, strlen(deck), NULL, 0, &spec) == RD_OK && spec);
  rd_destroySpec(&spec);
  const char* bad_set[] = {"title=\377"};
  CHECK(rd_readDeckText(ctx, "mem.yaml", deck, strlen(deck), bad_set, 1, &spec) == RD_ERR_DECK);
  CHECK(strstr(rd_lastError(ctx), "--set title=\377: not UTF-8") != NULL);
  CHECK(rd_readDeckText(ctx, NULL, deck, 3, NULL, 0, &spec) == RD_ERR_ARG);
}


static void test_helpers(void) {
  double J[9] = {3, 0, 0, 0, 4, 0, 0, 0, 5}, c[3] = {1, 2, 0}, Jc[9];
  rd_deckInertiaToCom(Jc, J, 2, c);
  // m(|c|^2 I - c c^T) = 2 [[4, -2, 0], [-2, 1, 0], [0, 0, 5]]
  CHECK_MSG(
      near(Jc[0], -5) && near(Jc[1], 4) && near(Jc[4], 2) && near(Jc[8], -5) && near(Jc[3], 4),
      "parallel-axis theorem");
  double R[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, q[4], defect;
  CHECK_MSG(rd_deckMatrixToQuat(q, R, &defect) == 0 && fabs(q[0] - sqrt(0.5)) < 1e-12 &&
                fabs(q[3] - sqrt(0.5)) < 1e-12,
            "matrix to quaternion");
  double F[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  CHECK_MSG(rd_deckMatrixToQuat(q, F, &defect) < 0 && near(defect, 2), "reflection rejected");
}

// ---------------------------------------------------------------------------------------------
// allocation failures: every one must give RD_ERR_NOMEM, no spec and no leak


static void test_alloc_failures(void) {
  failAlloc f = {0, -1, 0};
  rdAllocator a = {fa_malloc, fa_free, &f};
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, &a) != RD_OK) {
    CHECK_MSG(0, "context with a failing allocator");
    return;
  }
  const char* set[] = {"solver.time_step=0.01"};
  // every key, and the BeamDyn readers (primary and blade file)
  static const char* const decks[] = {"tests/decks/good/all_features.yaml",
                                      "input/beam/nrel5mw_from_files.yaml"};
  for (int k = 0; k < 2; k++) {
    int ok = 0, bad = 0;
    for (long n = 0; n < 10000 && !ok; n++) {
      f.calls = 0;
      f.fail_at = n;
      rdSpec* spec = NULL;
      int st = rd_readDeck(ctx, decks[k], set, 1, &spec);
      if (st == RD_OK && f.calls <= n) {
        ok = 1;
      } else if (st != RD_ERR_NOMEM || spec) {
        bad++;
        if (bad < 4) {
          printf("FAIL alloc failure %ld: status %d, %s\n", n, st, rd_lastError(ctx));
        }
      }
      rd_destroySpec(&spec);
    }
    CHECK_MSG(ok && !bad, "%s: allocation failures: %d wrong statuses, finished %d", decks[k], bad,
              ok);
  }
  rd_destroyContext(&ctx);
}

// ---------------------------------------------------------------------------------------------
// bad decks

typedef struct {
  char expect[512];  // "LINE:COL: text" or "--set: text"
  char set[MAX_SET][512];
  int nset;
} badSpec;


// read the "# expect:" and "# set:" comment lines at the top of a deck
static int read_header(const char* path, badSpec* b) {
  FILE* f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  memset(b, 0, sizeof(*b));
  char line[512];
  while (fgets(line, sizeof(line), f) && line[0] == '#') {
    line[strcspn(line, "\r\n")] = '\0';
    if (!strncmp(line, "# expect: ", 10)) {
      snprintf(b->expect, sizeof(b->expect), "%s", line + 10);
    } else if (!strncmp(line, "# set: ", 7) && b->nset < MAX_SET) {
      snprintf(b->set[b->nset++], sizeof(b->set[0]), "%s", line + 7);
    }
  }
  fclose(f);
  return b->expect[0] ? 0 : -1;
}


// read (and compile) the deck; the error it gives, or NULL if there is none
static const char* deck_error(rdContext* ctx, const char* path, const badSpec* b) {
  const char* set[MAX_SET];
  for (int i = 0; i < b->nset; i++) {
    set[i] = b->set[i];
  }
  rdSpec* spec = NULL;
  int st = rd_readDeck(ctx, path, set, b->nset, &spec);
  if (st == RD_OK) {
    // run-time model errors (redundant or conflicting constraints, a singular initial
    // matrix) point into the deck too: initialize and take a few steps
    rdModel* model = NULL;
    rdData* data = NULL;
    st = rd_compile(spec, &model);
    st = st < 0 ? st : rd_createData(model, &data);
    st = st < 0 ? st : rd_initialize(model, data);
    for (int k = 0; st == RD_OK && k < 20; k++) {
      st = rd_step(model, data, 0);
    }
    rd_destroyData(&data);
    rd_destroyModel(&model);
    rd_destroySpec(&spec);
  }
  return st < 0 ? rd_lastError(ctx) : NULL;
}


// does the error match the expectation?
static int matches(const char* path, const badSpec* b, const char* err) {
  if (!strncmp(b->expect, "--set: ", 7)) {
    for (int i = 0; i < b->nset; i++) {
      char prefix[600];
      snprintf(prefix, sizeof(prefix), "--set %s: ", b->set[i]);
      if (!strncmp(err, prefix, strlen(prefix)) && strstr(err, b->expect + 7)) {
        return 1;
      }
    }
    return 0;
  }
  const char* text = strstr(b->expect, ": ");
  if (!text) {
    return 0;
  }
  char prefix[600];
  snprintf(prefix, sizeof(prefix), "%s:%.*s:", path, (int)(text - b->expect), b->expect);
  return !strncmp(err, prefix, strlen(prefix)) && strstr(err, text + 2);
}


static void test_bad_decks(rdContext* ctx) {
  struct dirent** list = NULL;
  int n = scandir(BAD_DIR, &list, is_yaml, alphasort);
  CHECK_MSG(n >= 20, "found %d bad decks in " BAD_DIR, n);
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", BAD_DIR, list[i]->d_name);
    free(list[i]);
    badSpec b;
    if (read_header(path, &b) < 0) {
      CHECK_MSG(0, "%s: no '# expect:' line", path);
      continue;
    }
    const char* err = deck_error(ctx, path, &b);
    CHECK_MSG(err && matches(path, &b, err), "%s: expected '%s', got '%s'", path, b.expect,
              err ? err : "no error");
  }
  free(list);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  int st = rd_createContext(&ctx, NULL);
  CHECK_MSG(st == RD_OK, "rd_createContext returned %d", st);
  if (st != RD_OK) {
    return TEST_SUMMARY();
  }
  TEST_CASE(test_helpers());
  TEST_CASE(test_pendulum(ctx));
  TEST_CASE(test_heavy_top(ctx));
  TEST_CASE(test_all_features(ctx));
  TEST_CASE(test_overrides(ctx));
  TEST_CASE(test_inputs(ctx));
  TEST_CASE(test_beamdyn_sections(ctx));
  TEST_CASE(test_api_errors(ctx));
  TEST_CASE(test_text_checks(ctx));
  TEST_CASE(test_bad_decks(ctx));
  TEST_CASE(test_alloc_failures());
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
