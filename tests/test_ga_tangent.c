// SPDX-License-Identifier: MIT
// Finite-difference checks of every element tangent, load stiffness, joint Jacobian B and K^Phi
// through the assembled generalized-alpha iteration matrix (perturbations on the Lie group), and
// of the stabilized index-2 blocks and correction matrix.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/constraint.h"
#include "rodrigues/rodrigues.h"
#include "solver/genalpha.h"
#include "src/model/data_impl.h"
#include "tests/support/ga_fd.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static rdSpec* base(rdContext* ctx, int kindA, int kindB) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "a";
  n.kind = kindA;
  n.position[0] = 0.3;
  n.position[1] = 0.1;
  n.position[2] = -0.2;
  if (kindA == RD_NODE_RIGID) {
    double q[4] = {0.9, 0.1, -0.3, 0.2}, nq = 0;
    for (int k = 0; k < 4; k++)
      nq += q[k] * q[k];
    for (int k = 0; k < 4; k++)
      n.orientation[k] = q[k] / sqrt(nq);
  }
  rds_addNode(s, &n);
  n = rd_defaultNodeDef();
  n.name = "b";
  n.kind = kindB;
  n.position[0] = 1;
  n.position[1] = 0.5;
  n.position[2] = 0.2;
  if (kindB == RD_NODE_RIGID) {
    double q[4] = {0.7, -0.2, 0.5, 0.4}, nq = 0;
    for (int k = 0; k < 4; k++)
      nq += q[k] * q[k];
    for (int k = 0; k < 4; k++)
      n.orientation[k] = q[k] / sqrt(nq);
  }
  rds_addNode(s, &n);
  double g[3] = {0.3, -1, -9.81};
  rds_setGravity(s, g);
  return s;
}


static void body(rdSpec* s, const char* name, int node, double cx, double cz) {
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = name;
  b.node = node;
  b.mass = 2.5;
  double J[9] = {0.4, 0.05, -0.02, 0.05, 0.7, 0.03, -0.02, 0.03, 0.9};
  for (int k = 0; k < 9; k++)
    b.inertia[k] = J[k];
  b.com[0] = cx;
  b.com[1] = -0.2;
  b.com[2] = cz;
  rds_addRigidBody(s, &b);
}


// compile, make data, check the matrix at three random states and two coefficient pairs, in
// the body and the spatial form
static void check(rdSpec* s, const char* what) {
  rdContext* ctx = rds_context(s);
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_compile(s, &m);
  rd_destroySpec(&s);
  if (st) {
    printf("%s: compile failed: %s\n", what, rd_lastError(ctx));
    CHECK(0);
    return;
  }
  st = rd_createData(m, &d);
  CHECK_MSG(st == 0, "%s: %s", what, rd_lastError(ctx));
  if (!st) {
    for (unsigned seed = 1; seed <= 6; seed++) {
      gafd_spatial = seed > 3;
      double e1 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
      double e2 = gafd_check(m, d, 0.37, 5.0, 0.7, seed + 10, 1);
      CHECK_MSG(e1 < 1e-7 && e2 < 1e-7, "%s (%s form): relative mismatch %.3e / %.3e", what,
                gafd_spatial ? "spatial" : "body", e1, e2);
    }
    gafd_spatial = 0;
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


static rdJointDef joint(int type, int n0, int n1) {
  rdJointDef j = rd_defaultJointDef();
  j.name = "j";
  j.type = type;
  j.node[0] = n0;
  j.node[1] = n1;
  j.point[0] = 0.6;
  j.point[1] = 0.2;
  j.point[2] = 0.1;
  j.axis[0] = 0.2;
  j.axis[1] = 0.9;
  j.axis[2] = -0.3;
  // axis2 normal to axis
  j.axis2[0] = 0.9;
  j.axis2[1] = -0.2;
  j.axis2[2] = 0;
  return j;
}


// the nodes and bodies of base() (node a a point with a point mass when kind0 says so), the
// centres of mass in the plane z = 0, joint j of joint(type, 0, n1), and for a joint between the
// nodes a second one from a to the ground; the stabilized formulation
static rdSpec* joint_model(rdContext* ctx, int type, int n1, int kind0) {
  rdSpec* s = base(ctx, kind0, RD_NODE_RIGID);
  if (kind0 == RD_NODE_RIGID) {
    body(s, "ba", 0, 0.2, 0);
  } else {
    rdPointMassDef pm = rd_defaultPointMassDef();
    pm.name = "pa";
    pm.node = 0;
    pm.mass = 1.5;
    rds_addPointMass(s, &pm);
  }
  body(s, "bb", 1, 0.2 - 0.3, 0);
  rdJointDef j = joint(type, 0, n1);
  if (type == RD_JOINT_PRESCRIBED || type == RD_JOINT_ROTATION_CONTROL) {
    const char* ex[4] = {"0.1*sin(t)", "t*t", "0.3*t", "-0.2*cos(t)"};
    int slot[4] = {0, 2, 3, 5};
    for (int k = 0; k < 4; k++) {
      char name[8] = "f0";
      name[1] = (char)('0' + k);
      int id = model_addExpression(s, name, ex[k]);
      if (type == RD_JOINT_PRESCRIBED) {
        j.motion_fn[slot[k]] = id;
      } else if (k == 0) {
        j.angle_fn = id;
      }
    }
  }
  rds_addJoint(s, &j);
  if (n1 != RD_GROUND) {
    // a second joint on node a: the correction couples the two through it
    rdJointDef j2 = rd_defaultJointDef();
    j2.name = "j2";
    j2.type = RD_JOINT_SPHERICAL;
    j2.node[0] = 0;
    j2.node[1] = RD_GROUND;
    rds_addJoint(s, &j2);
  }
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOption(s, "solver.formulation", "stabilized");
  return s;
}


// residual of the stabilized rows at the increment (x, mu) from the base state (v moves by x)
static void stab_res(const rdModel* m, rdData* d, double t, const double* qn, const double* psi,
                     const double* v0, const double* vd0, const double* lam0, double bp,
                     const double* x, double* r) {
  int nn = m->nnode;
  double q[14], v[12], vd[12], lam[12], vb[12], vdb[12], map[2 * RD_ASM_SPATIAL];
  gafd_config(m, qn, psi, x, q);
  gafd_increment(m, qn, psi, x, vb);
  memcpy(v, v0, sizeof(double) * 6 * (size_t)nn);
  memcpy(vd, vd0, sizeof(double) * 6 * (size_t)nn);
  for (int k = 0; k < 6 * nn; k++) {
    v[k] += vb[k];
    vd[k] += bp * vb[k];
  }
  for (int k = 0; k < m->nconstraint; k++) {
    lam[k] = lam0[k] + x[m->ndof + k];
  }
  gafd_body(m, q, v, vd, NULL, vb, vdb, map);
  rdAsmCoef c = {0, 0, 0, NULL, NULL};
  rdAsmStab st = {1, 0, NULL, NULL};
  rd_assembleEx(m, d, t, q, vb, vdb, lam, &c, &st, r, NULL, NULL);
}


// stabilized blocks at a random state: the whole matrix [b'M + C + K T, B^T; B + Z T, 0]
// (velocity rows, v moving with coefficient 1) and the correction matrix Bc Bh^T against
// central differences; returns the larger relative mismatch
static double stab_fd(const rdModel* m, rdData* d, double t, unsigned seed, double eps) {
  enum { NMAX = 24 };
  int nn = m->nnode, N = m->ndof + m->nconstraint, nc = m->nconstraint;
  double qn[14], psi[6] = {0}, v[12], vd[12], lam[12] = {0}, x[NMAX] = {0};
  double rp[NMAX], rm[NMAX], A[NMAX * NMAX] = {0}, Ax[NMAX * NMAX];
  double BT[2 * RD_ASM_BSTRIDE], q[14], E[144], phip[12], phim[12];
  double vb[12], vdb[12], map[2 * RD_ASM_SPATIAL];
  srand(seed);
  memcpy(qn, d->s.q, sizeof(double) * 7 * (size_t)nn);
  for (int i = 0; i < nn; i++) {
    for (int k = 0; k < 3; k++) {
      qn[7 * i + k] += 0.1 * RND();
      psi[3 * i + k] = m->node_kind[i] == RD_NODE_RIGID ? 0.7 * RND() : 0;
    }
    for (int k = 0; k < 6; k++) {
      v[6 * i + k] = RND();
      vd[6 * i + k] = RND();
    }
  }
  for (int k = 0; k < nc; k++) {
    lam[k] = 3 * RND();
  }
  double bp = 2.0;
  gafd_config(m, qn, psi, x, q);
  rdAsmCoef c = {bp, 1, 1, psi, gafd_body(m, q, v, vd, psi, vb, vdb, map)};
  rdAsmStab st = {1, 1, NULL, BT};
  rd_assembleEx(m, d, t, q, vb, vdb, lam, &c, &st, rp, NULL, Ax);
  const rdPattern* P = m->pattern;
  for (int col = 0; col < N; col++) {
    for (int p = P->Ap[col]; p < P->Ap[col + 1]; p++) {
      A[P->Ai[p] * N + col] = Ax[p];
    }
  }
  double scale = 0, worst = 0;
  for (int k = 0; k < N * N; k++) {
    scale = fmax(scale, fabs(A[k]));
  }
  for (int j = 0; j < N; j++) {
    x[j] = eps;
    stab_res(m, d, t, qn, psi, v, vd, lam, bp, x, rp);
    x[j] = -eps;
    stab_res(m, d, t, qn, psi, v, vd, lam, bp, x, rm);
    x[j] = 0;
    for (int i = 0; i < N; i++) {
      worst = fmax(worst, fabs((rp[i] - rm[i]) / (2 * eps) - A[i * N + j]) / scale);
    }
  }
  // correction: d phi(q_n o exp(psi + Bh^T e)) / de at e = 0, with Bh = Bc = B T here
  if (rd_gaCorrectionMatrix(m, d, BT, BT, E) != RD_OK) {
    return 1;
  }
  double escale = 0, eworst = 0;
  for (int k = 0; k < nc * nc; k++) {
    escale = fmax(escale, fabs(E[k]));
  }
  for (int k = 0; k < nc; k++) {
    for (int sgn = 0; sgn < 2; sgn++) {
      double e = sgn ? -eps : eps, dx[NMAX] = {0};
      // dx = Bh^T e_k, scattered to the DOFs of joint k's nodes
      for (int j = 0; j < m->njoint; j++) {
        int row = k - m->joint[j].row;
        if (row < 0 || row >= m->joint[j].nrow) {
          continue;
        }
        int node[2], off = 0, cn = rd_jointNodes(m, j, node), w = 0;
        for (int a = 0; a < cn; a++) {
          w += m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
        }
        for (int a = 0; a < cn; a++) {
          int ndf = m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
          for (int l = 0; l < ndf; l++) {
            dx[m->node_dof[node[a]] + l] += e * BT[j * RD_ASM_BSTRIDE + row * w + off + l];
          }
          off += ndf;
        }
      }
      gafd_config(m, qn, psi, dx, q);
      gafd_body(m, q, v, vd, NULL, vb, vdb, map);
      rdAsmCoef c0 = {0, 0, 0, NULL, NULL};
      rd_assemble(m, d, t, q, vb, vdb, lam, &c0, rp, NULL, NULL);
      memcpy(sgn ? phim : phip, rp + m->ndof, sizeof(double) * (size_t)nc);
    }
    for (int i = 0; i < nc; i++) {
      eworst = fmax(eworst, fabs((phip[i] - phim[i]) / (2 * eps) - E[i * nc + k]) / escale);
    }
  }
  return fmax(worst, eworst);
}


static void stabilized_blocks(void) {
  struct {
    int type, n1, kind0;
    const char* name;
  } cases[] = {
      {RD_JOINT_SPHERICAL, RD_GROUND, RD_NODE_RIGID, "spherical to ground"},
      {RD_JOINT_SPHERICAL, 1, RD_NODE_POINT, "spherical (point node) + spherical"},
      {RD_JOINT_REVOLUTE, 1, RD_NODE_RIGID, "revolute + spherical"},
      {RD_JOINT_UNIVERSAL, 1, RD_NODE_RIGID, "universal + spherical"},
      {RD_JOINT_PRISMATIC, 1, RD_NODE_RIGID, "prismatic + spherical"},
      {RD_JOINT_CYLINDRICAL, RD_GROUND, RD_NODE_RIGID, "cylindrical to ground"},
      {RD_JOINT_PLANAR, 1, RD_NODE_RIGID, "planar + spherical"},
      {RD_JOINT_FIXED, RD_GROUND, RD_NODE_RIGID, "fixed"},
      {RD_JOINT_RIGID, 1, RD_NODE_RIGID, "rigid + spherical"},
      {RD_JOINT_PRESCRIBED, RD_GROUND, RD_NODE_RIGID, "prescribed"},
      {RD_JOINT_ROTATION_CONTROL, 1, RD_NODE_RIGID, "rotation control + spherical"},
  };
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    rdModel* m = NULL;
    rdData* d = NULL;
    rdSpec* s = joint_model(ctx, cases[k].type, cases[k].n1, cases[k].kind0);
    int st = rd_compile(s, &m);
    rd_destroySpec(&s);
    if (!st) {
      st = rd_createData(m, &d);
    }
    CHECK_MSG(st == 0, "%s: %s", cases[k].name, rd_lastError(ctx));
    // moving joints: phi_t is itself a central difference (step 1e-6 in t), so the outer
    // differences need a larger step and a looser bound
    int moving = cases[k].type == RD_JOINT_PRESCRIBED || cases[k].type == RD_JOINT_ROTATION_CONTROL;
    for (unsigned seed = 1; !st && seed <= 6; seed++) {
      gafd_spatial = seed > 3;
      const char* form = gafd_spatial ? "spatial" : "body";
      double e = stab_fd(m, d, 0.37, seed, moving ? 1e-4 : 1e-6);
      CHECK_MSG(e < (moving ? 1e-6 : 1e-7),
                "%s (%s form): stabilized blocks, relative mismatch %.3e", cases[k].name, form, e);
      double e3 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
      CHECK_MSG(e3 < 1e-7, "%s (%s form): index-3 blocks, relative mismatch %.3e", cases[k].name,
                form, e3);
    }
    gafd_spatial = 0;
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
}


// rigid bodies with a centre-of-mass offset, gravity, dead and follower forces and moments
static void test_loads(rdContext* ctx) {
  rdSpec* s = base(ctx, RD_NODE_RIGID, RD_NODE_RIGID);
  body(s, "ba", 0, 0.3, 0.15);
  body(s, "bb", 1, -0.1, 0.15);
  const char* names[4] = {"f_dead", "m_dead", "f_follow", "m_follow"};
  for (int k = 0; k < 4; k++) {
    rdLoadDef l = rd_defaultLoadDef();
    l.name = names[k];
    l.node = 0;
    l.kind = k % 2 ? RD_LOAD_MOMENT : RD_LOAD_FORCE;
    l.frame = k < 2 ? RD_FRAME_GLOBAL : RD_FRAME_BODY;
    l.value[0] = 1 + k;
    l.value[1] = -2;
    l.value[2] = 0.5 * k;
    rds_addLoad(s, &l);
  }
  check(s, "rigid body + loads");
}


// a point mass and springs (two point nodes; a rigid node to a ground anchor)
static void test_springs(rdContext* ctx) {
  rdSpec* s = base(ctx, RD_NODE_POINT, RD_NODE_POINT);
  rdPointMassDef p = rd_defaultPointMassDef();
  p.name = "pm";
  p.node = 0;
  p.mass = 1.5;
  rds_addPointMass(s, &p);
  rdSpringDef sp = rd_defaultSpringDef();
  sp.name = "sp";
  sp.node[0] = 0;
  sp.node[1] = 1;
  sp.stiffness[0] = 10;
  sp.stiffness[1] = 3;
  sp.stiffness[2] = 7;
  sp.damping = 0.8;
  sp.rest_length = 0.5;
  rds_addSpring(s, &sp);
  check(s, "point mass + spring");
  s = base(ctx, RD_NODE_RIGID, RD_NODE_RIGID);
  sp = rd_defaultSpringDef();
  sp.name = "sp";
  sp.node[0] = 1;
  sp.node[1] = RD_GROUND;
  sp.anchor[2] = 1;
  sp.stiffness[0] = 4;
  sp.stiffness[2] = 2;
  sp.damping = 0.3;
  rds_addSpring(s, &sp);
  check(s, "spring to ground");
}


// every joint type
static void test_joints(rdContext* ctx) {
  struct {
    int type, n0, n1, ka, kb;
    const char* name;
  } cases[] = {
      {RD_JOINT_FIXED, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "fixed"},
      {RD_JOINT_FIXED, 0, RD_GROUND, RD_NODE_POINT, RD_NODE_RIGID, "fixed (point node)"},
      {RD_JOINT_RIGID, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "rigid"},
      {RD_JOINT_RIGID, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "rigid to ground"},
      {RD_JOINT_SPHERICAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "spherical"},
      {RD_JOINT_SPHERICAL, 0, 1, RD_NODE_POINT, RD_NODE_RIGID, "spherical (point node)"},
      {RD_JOINT_SPHERICAL, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "spherical to ground"},
      {RD_JOINT_REVOLUTE, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "revolute"},
      {RD_JOINT_REVOLUTE, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "revolute to ground"},
      {RD_JOINT_REVOLUTE, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "revolute, prescribed angle"},
      {RD_JOINT_REVOLUTE, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID,
       "revolute to ground, prescribed angle"},
      {RD_JOINT_UNIVERSAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "universal"},
      {RD_JOINT_PRISMATIC, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "prismatic"},
      {RD_JOINT_CYLINDRICAL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "cylindrical"},
      {RD_JOINT_CYLINDRICAL, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "cylindrical to ground"},
      {RD_JOINT_PLANAR, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "planar"},
      {RD_JOINT_PRESCRIBED, 0, RD_GROUND, RD_NODE_RIGID, RD_NODE_RIGID, "prescribed"},
      {RD_JOINT_PRESCRIBED, 0, RD_GROUND, RD_NODE_POINT, RD_NODE_RIGID, "prescribed (point)"},
      // node[1] given through the C API: ignored, the node is held to the moving ground
      {RD_JOINT_PRESCRIBED, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "prescribed, node[1] ignored"},
      {RD_JOINT_FIXED, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "fixed, node[1] ignored"},
      {RD_JOINT_ROTATION_CONTROL, 0, 1, RD_NODE_RIGID, RD_NODE_RIGID, "rotation control"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    rdSpec* s = base(ctx, cases[c].ka, cases[c].kb);
    rdJointDef j = joint(cases[c].type, cases[c].n0, cases[c].n1);
    if (cases[c].type == RD_JOINT_REVOLUTE) {
      j.torque = 2.5;
      j.torque_fn = model_addExpression(s, "tq", "1 + t");
    }
    if (cases[c].type == RD_JOINT_PRESCRIBED) {
      j.motion_fn[0] = model_addExpression(s, "ux", "0.1*sin(t)");
      j.motion_fn[2] = model_addExpression(s, "uz", "t*t");
      j.motion_fn[3] = model_addExpression(s, "rx", "0.3*t");
      j.motion_fn[5] = model_addExpression(s, "rz", "-0.2*cos(t)");
    }
    if (cases[c].type == RD_JOINT_ROTATION_CONTROL || strstr(cases[c].name, "angle")) {
      j.angle_fn = model_addExpression(s, "th", "0.5*t + 0.2");
    }
    rds_addJoint(s, &j);
    check(s, cases[c].name);
  }
}


// beams (two 3-node elements along x, B3 section with damping and a centre-of-mass offset,
// gravity, a follower distributed load, clamped at the root) in both rotation fields and both
// virtual rotations
static void test_beams(rdContext* ctx) {
  for (int k = 0; k < 4; k++) {
    rdSpec* s = NULL;
    rd_createSpec(ctx, &s);
    double K[36], M[36], g[3] = {0.3, -1, -9.81}, station = 0;
    memcpy(K, model_b3Stiffness, sizeof(K));
    model_diag6(M, model_b3Mass);
    M[6 * 4 + 2] = M[6 * 2 + 4] = 0.01;  // a centre-of-mass offset in the section plane
    M[6 * 5 + 1] = M[6 * 1 + 5] = -0.01;
    rds_setGravity(s, g);
    int nodes[5];
    for (int i = 0; i < 5; i++) {
      rdNodeDef n = rd_defaultNodeDef();
      char label[8];
      snprintf(label, sizeof(label), "n%d", i);
      n.name = label;
      n.position[0] = 0.5 * i;
      nodes[i] = rds_addNode(s, &n);
    }
    for (int e = 0; e < 2; e++) {
      rdBeamDef b = rd_defaultBeamDef();
      b.name = e ? "beam1" : "beam0";
      b.nnode = 3;
      b.nodes = nodes + 2 * e;
      b.nstation = 1;
      b.station = &station;
      b.stiffness = K;
      b.mass = M;
      b.span[0] = 0.5 * e;
      b.span[1] = 0.5 * (e + 1);
      for (int c = 0; c < 6; c++) {
        b.damping[c] = 1e-3 * (c + 1);
      }
      b.rotation_field = k % 2 ? RD_BEAM_ROTATION_DISPLACEMENT : RD_BEAM_ROTATION_TOTAL;
      b.virtual_rotation =
          k / 2 ? RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED : RD_BEAM_VIRTUAL_ROTATION_FIELD;
      b.force[2] = 2;
      b.moment[0] = 0.5;
      b.load_frame = RD_FRAME_BODY;
      rds_addBeam(s, &b);
    }
    model_addClamp(s, nodes[0]);
    char name[96];
    snprintf(name, sizeof(name), "beam, %s field, %s virtual rotations",
             k % 2 ? "displacement" : "total", k / 2 ? "interpolated" : "field");
    check(s, name);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(test_loads(ctx));
  TEST_CASE(test_springs(ctx));
  TEST_CASE(test_joints(ctx));
  TEST_CASE(stabilized_blocks());
  TEST_CASE(test_beams(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
