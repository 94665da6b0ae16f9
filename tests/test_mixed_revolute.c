// SPDX-License-Identifier: MIT
// Mixed stepping with a body on a revolute joint to a node of the flexible part (solver/mixed.c,
// docs/mixed.md, "A body on a revolute joint"): the condensed body (M_eff, f0) against the
// monolithic model's joint at a consistent start, the order of the mixed solution of
// input/mixed/rotor_on_beam.yaml against a fine monolithic generalized-alpha run, the constant
// spin of a torque-free rotor on a clamped node (exact), checkpoints and the split step bit for
// bit, energy over 10^4 steps without the motor, and the partitions refused.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

#define DECK "input/mixed/rotor_on_beam.yaml"

static rdContext* g_ctx;  // for the error messages of the helpers


// the deck to time T at step h, with the overrides more[0 .. nmore - 1] (the monolithic model:
// "subsystems=[]" among them); Newton converged well below the errors measured; NULL on failure
static rdData* run_deck(double T, double h, const char* const* more, int nmore, rdModel** m) {
  char tf[64], ts[64];
  snprintf(tf, sizeof(tf), "solver.final_time=%.17g", T);
  snprintf(ts, sizeof(ts), "solver.time_step=%.17g", h);
  const char* set[8] = {tf, ts, "solver.atol=1e-12", "solver.rtol=1e-10"};
  for (int i = 0; i < nmore && i < 4; i++) {
    set[4 + i] = more[i];
  }
  rdData* d = NULL;
  if (model_openDeck(g_ctx, DECK, set, 4 + nmore, m, &d) != RD_OK) {
    return NULL;
  }
  if (rd_advance(*m, d, T, NULL, NULL) != RD_OK) {
    printf("%s, h = %g: %s\n", DECK, h, rd_lastError(g_ctx));
    rd_destroyData(&d);
  }
  return d;
}


// errors of d against the reference r (same node names): positions, attitudes (|R - R_ref|_2)
// and velocities (linear and body angular), the largest over the nodes
static void errors(const rdModel* m, const rdData* d, const rdModel* mr, const rdData* r,
                   double e[3]) {
  e[0] = e[1] = e[2] = 0;
  rdModelInfo info;
  rd_modelInfo(m, &info);
  for (int i = 0; i < info.nnode; i++) {
    int j = rd_findNode(mr, rd_nodeName(m, i));
    double xa[3], qa[4], va[3], Wa[3], xb[3], qb[4], vb[3], Wb[3];
    rd_getNodeState(m, d, i, xa, qa, va, NULL, Wa);
    rd_getNodeState(mr, r, j, xb, qb, vb, NULL, Wb);
    for (int k = 0; k < 3; k++) {
      e[0] = fmax(e[0], fabs(xa[k] - xb[k]));
      e[2] = fmax(e[2], fmax(fabs(va[k] - vb[k]), fabs(Wa[k] - Wb[k])));
    }
    e[1] = fmax(e[1], rdu_quatDistance(qa, qb));
  }
}


// ---------------------------------------------------------------------------------------------
// order: the deck's rotor, mixed at H, H/2, H/4 (its method and sub-steps, or `method` with
// `sub` sub-steps, both predictors) against monolithic generalized-alpha at H/64, to t = 0.5;
// orders >= 1.8 in positions, attitudes and velocities (measured 1.96 ... 2.05)

static void check_order(const rdModel* mr, const rdData* r, const char* method, int sub,
                        const char* predictor, double H, double T) {
  char sm[64], ss[64], sp[64];
  snprintf(sm, sizeof(sm), "subsystems.0.method=%s", method);
  snprintf(ss, sizeof(ss), "subsystems.0.substeps=%d", sub);
  snprintf(sp, sizeof(sp), "subsystems.0.predictor=%s", predictor);
  const char* more[3] = {sm, ss, sp};
  double e[3][3];
  for (int k = 0; k < 3; k++) {
    rdModel* m = NULL;
    rdData* d = run_deck(T, H / (1 << k), more, 3, &m);
    CHECK_MSG(d != NULL, "%s x %d, %s predictor: the mixed run at H = %g failed", method, sub,
              predictor, H / (1 << k));
    if (!d) {
      rd_destroyModel(&m);
      return;
    }
    errors(m, d, mr, r, e[k]);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  static const char* const names[] = {"position", "attitude", "velocity"};
  double p[2][3];
  for (int k = 1; k < 3; k++) {
    for (int c = 0; c < 3; c++) {
      p[k - 1][c] = log2(e[k - 1][c] / e[k][c]);
      CHECK_MSG(p[k - 1][c] >= 1.8,
                "%s x %d, %s predictor: %s order %.2f at H = %g (errors %.3e, %.3e)", method, sub,
                predictor, names[c], p[k - 1][c], H / (1 << k), e[k - 1][c], e[k][c]);
    }
  }
  printf(
      "  %s x %d, %s predictor, H = %g .. %g: errors at H/4 %.2e %.2e %.2e (position, attitude, "
      "velocity), orders %.2f %.2f %.2f, %.2f %.2f %.2f\n",
      method, sub, predictor, H, H / 4, e[2][0], e[2][1], e[2][2], p[0][0], p[0][1], p[0][2],
      p[1][0], p[1][1], p[1][2]);
}


static void test_order(void) {
  const double H = 2.5e-4, T = 0.5;
  const char* mono[1] = {"subsystems=[]"};
  rdModel* mr = NULL;
  rdData* r = run_deck(T, H / 64, mono, 1, &mr);
  CHECK_MSG(r != NULL, "the monolithic reference did not run");
  if (r) {
    check_order(mr, r, "liemid_ea", 4, "substeps", H, T);
    check_order(mr, r, "liemid_ea", 4, "taylor", H, T);
    check_order(mr, r, "nmb", 2, "substeps", H, T);
    check_order(mr, r, "sw", 1, "substeps", H, T);
  }
  rd_destroyData(&r);
  rd_destroyModel(&mr);
}


// ---------------------------------------------------------------------------------------------
// the condensation: at a start the predicted body state is the state itself, so the flexible
// part's consistent accelerations with the body condensed (M_eff, f0) and then the body's own
// (theta'') are those of the monolithic model, whose Newton system holds the body and the
// joint's multipliers. The state: the monolithic deck's at t = 0.3 (the beam moving and turning,
// the rotor spinning, the motor torque on), given to both models and initialized again

static void condensed_start(int reversed) {
  // the rotor as the joint's node 1 (the deck's), or as its node 0 (the axis torque reversed)
  const char* rev = "joints.bearing.nodes=[rotor, beam_2]";
  const char* mono[2] = {"subsystems=[]", rev};
  rdModel *mm = NULL, *mx = NULL;
  rdData* dm = run_deck(0.3, 1e-3, mono, 1 + reversed, &mm);
  rdData* dx = run_deck(0, 1e-3, &rev, reversed, &mx);
  rdModelInfo info;
  int ok = dm && dx && rd_modelInfo(mm, &info) == RD_OK;
  for (int i = 0; ok && i < info.nnode; i++) {
    int j = rd_findNode(mx, rd_nodeName(mm, i));
    memcpy(dx->s.q + 7 * j, dm->s.q + 7 * i, 7 * sizeof(double));
    memcpy(dx->s.v + 6 * j, dm->s.v + 6 * i, 6 * sizeof(double));
  }
  if (ok) {
    dx->s.t = dm->s.t;
  }
  // the mixed start keeps of the rotor's velocity what the joint allows (the run's velocities
  // satisfy the joint to O(h^2) only); the monolithic start then from the same state
  ok = ok && rd_initialize(mx, dx) == RD_OK;
  for (int i = 0; ok && i < info.nnode; i++) {
    int j = rd_findNode(mx, rd_nodeName(mm, i));
    memcpy(dm->s.q + 7 * i, dx->s.q + 7 * j, 7 * sizeof(double));
    memcpy(dm->s.v + 6 * i, dx->s.v + 6 * j, 6 * sizeof(double));
  }
  ok = ok && rd_initialize(mm, dm) == RD_OK;
  CHECK_MSG(ok, "the starts failed: %s", rd_lastError(g_ctx));
  double e = 0, scale = 0;
  for (int i = 0; ok && i < info.nnode; i++) {
    int j = rd_findNode(mx, rd_nodeName(mm, i));
    for (int k = 0; k < 6; k++) {
      e = fmax(e, fabs(dx->s.vd[6 * j + k] - dm->s.vd[6 * i + k]));
      scale = fmax(scale, fabs(dm->s.vd[6 * i + k]));
    }
  }
  CHECK_MSG(ok && e <= 1e-13 * scale,
            "consistent accelerations: mixed - monolithic %.3e (largest acceleration %.3e)", e,
            scale);
  printf(
      "  consistent accelerations at t = 0.3, the rotor the joint's node %d: mixed - "
      "monolithic %.2e, largest %.2e\n",
      reversed ? 0 : 1, e, scale);
  rd_destroyData(&dm);
  rd_destroyData(&dx);
  rd_destroyModel(&mm);
  rd_destroyModel(&mx);
}


static void test_condensed_start(void) {
  condensed_start(0);
  condensed_start(1);
}


// ---------------------------------------------------------------------------------------------
// exactness: a rotor on a revolute joint at the clamped root of a cantilever under gravity, its
// centre of mass on the axis, no axis torque: theta'' = 0, and each method the joint allows
// keeps theta' (the body angular velocity) bit for bit, step after step, the attitude
// exp(theta' t a)

static rdSpec* root_rotor(const char* method, int sub, double spin) {
  rdSpec* s = NULL;
  rd_createSpec(g_ctx, &s);
  double g[3] = {0, 0, -9.81};
  rds_setGravity(s, g);
  int nodes[3];
  double K[36], M[36], k[6] = {1e4, 1e4, 1e4, 200, 200, 200}, mu[6] = {2, 2, 2, 1, 0.5, 0.5};
  model_diag6(K, k);
  model_diag6(M, mu);
  model_addGllBeams(s, 1, 3, 1, K, M, "beam", nodes);
  model_addClamp(s, nodes[0]);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "rotor";
  n.angular_velocity[0] = spin;
  n.angular_velocity_frame = RD_FRAME_BODY;
  double J[3] = {0.02, 0.01, 0.015}, c[3] = {-0.1, 0, 0};
  int rotor = model_addRigidBody(s, &n, "rotorbody", 1, J, c);
  rdJointDef j = rd_defaultJointDef();
  j.name = "bearing";
  j.type = RD_JOINT_REVOLUTE;
  j.node[0] = nodes[0];
  j.node[1] = rotor;
  j.axis[0] = 1;
  rds_addJoint(s, &j);
  rdSubsystemDef d = rd_defaultSubsystemDef();
  d.name = "rotor";
  d.nbody = 1;
  d.nodes = &rotor;
  d.substeps = sub;
  for (int i = 0; i < RD_METHOD_COUNT; i++) {
    if (!strcmp(rd_methodName(i), method)) {
      d.method = i;
    }
  }
  rds_addSubsystem(s, &d);
  rds_setOptionReal(s, "solver.time_step", 1e-3);
  return s;
}


static void test_constant_spin(void) {
  const char* methods[] = {"nmb", "nms", "sw", "liemid_ea"};
  const double spin = 37.5;
  for (int k = 0; k < 4; k++) {
    rdModel* m = NULL;
    rdData* d = NULL;
    int ok = model_make(root_rotor(methods[k], 3, spin), &m, &d) == RD_OK;
    int rotor = ok ? rd_findNode(m, "rotor") : -1;
    int exact = ok;
    double angle = 0;
    for (int i = 0; ok && i < 1000; i++) {
      ok = rd_step(m, d, 0) == RD_OK;
      double W[3], q[4];
      ok = ok && rd_getNodeState(m, d, rotor, NULL, q, NULL, NULL, W) == RD_OK;
      exact &= W[0] == spin && W[1] == 0 && W[2] == 0;
      // the angle of q about x against theta' t
      double t = rd_time(d), th = 2 * atan2(q[1], q[0]),
             dth = remainder(th - spin * t, 4 * acos(0.0));
      angle = fmax(angle, fabs(dth));
    }
    CHECK_MSG(ok, "%s: the run failed: %s", methods[k], rd_lastError(g_ctx));
    CHECK_MSG(exact, "%s: the rotor's angular velocity moved off (%g, 0, 0)", methods[k], spin);
    CHECK_MSG(angle <= 1e-11, "%s: the attitude is %.3e rad off exp(theta' t a)", methods[k],
              angle);
    printf("  %s x 3: 1000 steps at theta' = %g: W exact, attitude within %.2e rad\n", methods[k],
           spin, angle);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
}


// ---------------------------------------------------------------------------------------------
// energy: the deck without the motor and with rho_inf = 1 is conservative; over 10^4 steps of
// H = 1e-3 its energy stays within the spread of the monolithic model's (measured 5.0e-5
// against 7.1e-5, relative), and the means of the first and last tenth differ by less than a
// third of it (7.1e-6; monolithic 5.2e-6): no drift

static int energy_run(int mixed, double* spread, double* drift) {
  const int N = 10000;
  const char* set[5] = {"solver.time_step=1e-3", "joints.bearing.torque=0", "solver.rho_inf=1",
                        "solver.final_time=10", "subsystems=[]"};
  rdModel* m = NULL;
  rdData* d = NULL;
  int ok = model_openDeck(g_ctx, DECK, set, mixed ? 4 : 5, &m, &d) == RD_OK;
  double e0 = 0, lo = INFINITY, hi = -INFINITY, first = 0, last = 0;
  for (int i = 0; ok && i <= N; i++) {
    double kin, pot;
    ok = rd_getEnergy(m, d, &kin, &pot) == RD_OK;
    double e = kin + pot;
    e0 = i == 0 ? e : e0;
    lo = fmin(lo, e);
    hi = fmax(hi, e);
    first += i < N / 10 ? e / (N / 10) : 0;
    last += i > N - N / 10 ? e / (N / 10) : 0;
    ok = ok && (i == N || rd_step(m, d, 0) == RD_OK);
  }
  *spread = (hi - lo) / fabs(e0);
  *drift = (last - first) / fabs(e0);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return ok;
}


static void test_energy(void) {
  double sx = 0, dx = 0, sm = 0, dm = 0;
  int ok = energy_run(1, &sx, &dx) && energy_run(0, &sm, &dm);
  CHECK_MSG(ok, "the energy runs failed: %s", rd_lastError(g_ctx));
  CHECK_MSG(ok && sx <= sm && fabs(dx) <= sx / 3,
            "energy over 10^4 steps: spread %.3e, drift %.3e (monolithic %.3e, %.3e)", sx, dx, sm,
            dm);
  printf("  energy over 10^4 steps: spread %.2e, drift %.2e (monolithic %.2e, %.2e)\n", sx, dx, sm,
         dm);
}


// ---------------------------------------------------------------------------------------------
// checkpoint and restart, copy, split step: bit for bit on the deck

static int same_data(const rdModel* m, const rdData* a, const rdData* b) {
  rdModelInfo info;
  rd_modelInfo(m, &info);
  for (int i = 0; i < info.nnode; i++) {
    double xa[7 + 6], xb[7 + 6];
    rd_getNodeState(m, a, i, xa, xa + 3, xa + 7, NULL, xa + 10);
    rd_getNodeState(m, b, i, xb, xb + 3, xb + 7, NULL, xb + 10);
    if (memcmp(xa, xb, sizeof(xa))) {
      return 0;
    }
  }
  return rd_time(a) == rd_time(b);
}


static void test_checkpoint(void) {
  const char* preds[2] = {"subsystems.0.predictor=substeps", "subsystems.0.predictor=taylor"};
  for (int k = 0; k < 2; k++) {
    const char* set[2] = {"solver.time_step=2e-3", preds[k]};
    rdModel* m = NULL;
    rdData *a = NULL, *b = NULL, *c = NULL;
    const char* path = "test_mixed_revolute.ckpt";
    int ok = model_openDeck(g_ctx, DECK, set, 2, &m, &a) == RD_OK;
    ok = ok && rd_advance(m, a, 0.1, NULL, NULL) == RD_OK &&
         rd_writeCheckpoint(m, a, path) == RD_OK && rd_advance(m, a, 0.2, NULL, NULL) == RD_OK;
    ok = ok && rd_createData(m, &b) == RD_OK && rd_readCheckpoint(m, b, path) == RD_OK &&
         rd_advance(m, b, 0.2, NULL, NULL) == RD_OK;
    CHECK_MSG(ok && same_data(m, a, b), "%s: the resumed run differs (%s)", preds[k],
              ok ? "" : rd_lastError(g_ctx));
    // a copy steps as the original
    ok = ok && rd_createData(m, &c) == RD_OK && rd_copyData(c, a) == RD_OK &&
         rd_step(m, a, 0) == RD_OK && rd_step(m, c, 0) == RD_OK;
    CHECK_MSG(ok && same_data(m, a, c), "%s: a copy steps differently", preds[k]);
    remove(path);
    rd_destroyData(&a);
    rd_destroyData(&b);
    rd_destroyData(&c);
    rd_destroyModel(&m);
  }
}


static void test_split_step(void) {
  const char* set[1] = {"solver.time_step=2e-3"};
  rdModel* m = NULL;
  rdData *a = NULL, *b = NULL;
  int ok = model_openDeck(g_ctx, DECK, set, 1, &m, &a) == RD_OK && rd_createData(m, &b) == RD_OK &&
           rd_initialize(m, b) == RD_OK;
  int rotor = ok ? rd_findNode(m, "rotor") : -1;
  double q0[4] = {0}, q1[4] = {0};
  if (ok) {
    rd_getNodeState(m, b, rotor, NULL, q0, NULL, NULL, NULL);
  }
  for (int i = 0; ok && i < 50; i++) {
    ok = rd_step(m, a, 0) == RD_OK && rd_stepBegin(m, b, 0) == RD_OK;
    if (ok && i == 0) {
      rd_getNodeState(m, b, rotor, NULL, q1, NULL, NULL, NULL);
      CHECK_MSG(memcmp(q0, q1, sizeof(q0)), "the rotor is not predicted between the halves");
    }
    ok = ok && rd_stepEnd(m, b) == RD_OK;
  }
  CHECK_MSG(ok && same_data(m, a, b), "split steps differ from rd_step");
  rd_destroyData(&a);
  rd_destroyData(&b);
  rd_destroyModel(&m);
}


// ---------------------------------------------------------------------------------------------
// partitions refused before the first step, naming the joint: the deck with `edit` (overrides)
// must fail to compile with a message containing `expect`

static void expect_refused(const char* what, const char* const* edit, int nedit,
                           const char* expect) {
  rdSpec* s = NULL;
  rdModel* m = NULL;
  int st = rd_readDeck(g_ctx, DECK, edit, nedit, &s);
  st = st ? st : rd_compile(s, &m);
  const char* err = rd_lastError(g_ctx);
  CHECK_MSG(st == RD_ERR_MODEL && strstr(err, expect), "%s: status %d, '%s' (expected '%s')", what,
            st, st ? err : "", expect);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
}


static void test_refused(void) {
  // the methods whose form on the joint's rotation is not velocity Verlet
  const char* refused[] = {"liemid_e1", "liemid_e2", "liemid_i", "hstagm", "akw"};
  for (int k = 0; k < 5; k++) {
    char set[64];
    snprintf(set, sizeof(set), "subsystems.0.method=%s", refused[k]);
    const char* edit[1] = {set};
    char expect[160];
    snprintf(expect, sizeof(expect),
             "joint 'bearing' (revolute) holds node 'rotor' of subsystem 'rotor', whose method "
             "'%s' does not integrate a body on a revolute joint",
             refused[k]);
    expect_refused(refused[k], edit, 1, expect);
  }
  // to the ground, with a prescribed angle (tests/test_mixed.c: between two bodies, beside a
  // free body in one subsystem)
  const char* ground[1] = {
      "joints.bearing={name: bearing, type: revolute, node: rotor, point: [1, 0, 0], axis: [1, 0, "
      "0]}"};
  expect_refused(
      "to the ground", ground, 1,
      "joint 'bearing' (revolute) holds node 'rotor' of subsystem 'rotor' to the ground");
  const char* angle[2] = {
      "time_functions=[{name: spinup, type: expression, expression: \"0.5*(1 - cos(2*_pi*t))\"}, "
      "{name: turn, type: expression, expression: \"20*t\"}]",
      "joints.bearing.angle=turn"};
  expect_refused("prescribed angle", angle, 2, "prescribes the angle of the body on node 'rotor'");
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int st = rd_createContext(&g_ctx, NULL);
  CHECK_MSG(st == RD_OK, "rd_createContext returned %d", st);
  if (st != RD_OK) {
    return TEST_SUMMARY();
  }
  TEST_CASE(test_condensed_start());
  TEST_CASE(test_constant_spin());
  TEST_CASE(test_energy());
  TEST_CASE(test_refused());
  TEST_CASE(test_checkpoint());
  TEST_CASE(test_split_step());
  TEST_CASE(test_order());
  rd_destroyContext(&g_ctx);
  return TEST_SUMMARY();
}
