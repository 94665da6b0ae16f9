// SPDX-License-Identifier: MIT
// Host coupling: Jacobians of load callbacks and user elements (finite differences through the
// assembled iteration matrix, and user elements against the built-in ones), the split step
// (rd_stepBegin / rd_setNodeLoad / rd_stepEnd) and its misuse.
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/ga_fd.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// ---------------------------------------------------------------------------------------------
// small 3x3 helpers in the host's own code (row-major)

static void skew(double S[9], const double v[3]) {
  S[0] = 0, S[1] = -v[2], S[2] = v[1];
  S[3] = v[2], S[4] = 0, S[5] = -v[0];
  S[6] = -v[1], S[7] = v[0], S[8] = 0;
}


static void mul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
}


static void mulv(double y[3], const double A[9], const double x[3]) {
  for (int i = 0; i < 3; i++) {
    y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
  }
}


static void cross(double c[3], const double a[3], const double b[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}


// block (row node k, row offset r; column node l, offset c) of an N x N matrix += s B
static void put(double* A, int N, int k, int r, int l, int c, const double B[9], double s) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      A[(6 * k + r + i) * N + 6 * l + c + j] += s * B[3 * i + j];
    }
  }
}


static void quat_mat(double R[9], const double* q) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

// ---------------------------------------------------------------------------------------------
// a nonlinear host load on a node set, with its Jacobian in global conventions: on node k
// (next = k + 1 mod n)
//   F_k = -kap (x_k - x_next) + R_k p - c v_k + beta w_k x w0
//   M_k = gam (x_next - x_k) x u + (R_k s) x e - dmp w_k + eps v_next

static const double P_[3] = {0.3, -0.2, 0.5}, S_[3] = {0.1, 0.4, -0.3}, E_[3] = {0, 0.2, 1};
static const double U_[3] = {0.5, 1, -0.4}, W0_[3] = {0.2, -0.7, 0.3};
static const double KAP = 3, C_ = 0.7, BETA = 0.4, GAM = 1.3, DMP = 0.6, EPS = 0.9;

static int aero(double t, int n, const int* nodes, const double* pose, const double* vel,
                double* load, void* user) {
  (void)t;
  (void)nodes;
  (void)user;
  for (int k = 0; k < n; k++) {
    int l = (k + 1) % n;
    const double* x = pose + 7 * k;
    const double* xn = pose + 7 * l;
    double R[9], a[3], b[3], d[3];
    quat_mat(R, pose + 7 * k + 3);
    double* F = load + 6 * k;
    double* M = F + 3;
    mulv(a, R, P_);
    cross(b, vel + 6 * k + 3, W0_);
    for (int i = 0; i < 3; i++) {
      F[i] = -KAP * (x[i] - xn[i]) + a[i] - C_ * vel[6 * k + i] + BETA * b[i];
      d[i] = xn[i] - x[i];
    }
    cross(M, d, U_);
    mulv(a, R, S_);
    cross(b, a, E_);
    for (int i = 0; i < 3; i++) {
      M[i] = GAM * M[i] + b[i] - DMP * vel[6 * k + 3 + i] + EPS * vel[6 * l + i];
    }
  }
  return 0;
}


static int aero_jac(double t, int n, const int* nodes, const double* pose, const double* vel,
                    double* dfdx, double* dfdv, void* user) {
  (void)t;
  (void)nodes;
  (void)vel;
  (void)user;
  int N = 6 * n;
  double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, S[9], T[9], B[9];
  for (int k = 0; k < n; k++) {
    int l = (k + 1) % n;
    double R[9], a[3];
    quat_mat(R, pose + 7 * k + 3);
    put(dfdx, N, k, 0, k, 0, I3, -KAP);
    put(dfdx, N, k, 0, l, 0, I3, KAP);
    mulv(a, R, P_);
    skew(S, a);
    put(dfdx, N, k, 0, k, 3, S, -1);  // d(R p)/dtheta = -(R p)~
    skew(S, W0_);
    put(dfdv, N, k, 0, k, 0, I3, -C_);
    put(dfdv, N, k, 0, k, 3, S, -BETA);  // w x w0 = -w0~ w
    skew(S, U_);
    put(dfdx, N, k, 3, l, 0, S, -GAM);  // d x u = -u~ d
    put(dfdx, N, k, 3, k, 0, S, GAM);
    mulv(a, R, S_);
    skew(S, E_);
    skew(T, a);
    mul(B, S, T);
    put(dfdx, N, k, 3, k, 3, B, 1);  // (R s) x e: e~ (R s)~
    put(dfdv, N, k, 3, k, 3, I3, -DMP);
    put(dfdv, N, k, 3, l, 0, I3, EPS);
  }
  return 0;
}


static int add_node(rdSpec* s, const char* name, int kind, double x, double y, double z,
                    const double* quat) {
  rdNodeDef n = rd_defaultNodeDef();
  n.name = name;
  n.kind = kind;
  n.position[0] = x;
  n.position[1] = y;
  n.position[2] = z;
  if (quat) {
    double nq = sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
    for (int k = 0; k < 4; k++) {
      n.orientation[k] = quat[k] / nq;
    }
  }
  return rds_addNode(s, &n);
}


static void add_body(rdSpec* s, const char* name, int node, double cx) {
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = name;
  b.node = node;
  b.mass = 2.5;
  double J[9] = {0.4, 0.05, -0.02, 0.05, 0.7, 0.03, -0.02, 0.03, 0.9};
  memcpy(b.inertia, J, sizeof(J));
  b.com[0] = cx;
  rds_addRigidBody(s, &b);
}


// compile, make data, compare the assembled matrix with central differences
static void fd_check(rdSpec* s, const char* what) {
  rdContext* ctx = rds_context(s);
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_compile(s, &m);
  rd_destroySpec(&s);
  CHECK_MSG(st == RD_OK, "%s: %s", what, rd_lastError(ctx));
  st = st ? st : rd_createData(m, &d);
  CHECK_MSG(st == RD_OK, "%s: %s", what, rd_lastError(ctx));
  for (unsigned seed = 1; !st && seed <= 6; seed++) {
    gafd_spatial = seed > 3;  // the body, then the spatial form
    double e1 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
    double e2 = gafd_check(m, d, 0.37, 5.0, 0.7, seed + 10, 1);
    CHECK_MSG(e1 < 1e-7 && e2 < 1e-7, "%s (%s form): relative mismatch %.3e / %.3e", what,
              gafd_spatial ? "spatial" : "body", e1, e2);
  }
  gafd_spatial = 0;
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


static void test_load_jacobian_fd(rdContext* ctx) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  double qa[4] = {0.9, 0.1, -0.3, 0.2}, qb[4] = {0.7, -0.2, 0.5, 0.4};
  int a = add_node(s, "a", RD_NODE_RIGID, 0.3, 0.1, -0.2, qa);
  int b = add_node(s, "b", RD_NODE_RIGID, 1, 0.5, 0.2, qb);
  int c = add_node(s, "c", RD_NODE_POINT, -0.4, 0.8, 0.1, NULL);
  add_body(s, "ba", a, 0.3);
  add_body(s, "bb", b, -0.1);
  rdPointMassDef pm = rd_defaultPointMassDef();
  pm.name = "pc";
  pm.node = c;
  pm.mass = 1.5;
  rds_addPointMass(s, &pm);
  int nodes[3] = {a, c, b};
  rdLoadCallbackDef cb = rd_defaultLoadCallbackDef();
  cb.name = "aero";
  cb.nnode = 3;
  cb.nodes = nodes;
  cb.callback = aero;
  cb.jacobian = aero_jac;
  CHECK(rds_addLoadCallback(s, &cb) == 0);
  fd_check(s, "load callback Jacobian");
}

// ---------------------------------------------------------------------------------------------
// user elements that reproduce built-in ones: a rigid body with its centre of mass at the node,
// a point mass, and a spring-damper along the line of two nodes

typedef struct {
  double mass, J[9];  // body: inertia about the node, body frame
  double k, c, l0;    // spring
  int explicit_;      // 1: leave K, C, M zero
} userPar;

static int user_body(double t, int n, const int* nodes, const double* pose, const double* vel,
                     const double* acc, double* res, double* K, double* C, double* M, void* user) {
  const userPar* p = user;
  (void)t;
  (void)n;
  (void)nodes;
  double R[9], Rt[9], Jg[9], T[9];
  quat_mat(R, pose + 3);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      Rt[3 * i + j] = R[3 * j + i];
    }
  }
  mul(T, R, p->J);
  mul(Jg, T, Rt);
  const double* w = vel + 3;
  const double* al = acc + 3;
  double Ja[3], Jw[3], wJw[3];
  mulv(Ja, Jg, al);
  mulv(Jw, Jg, w);
  cross(wJw, w, Jw);
  for (int i = 0; i < 3; i++) {
    res[i] = p->mass * acc[i];
    res[3 + i] = Ja[i] + wJw[i];
  }
  if (!K || p->explicit_) {
    return 0;
  }
  double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, S[9], A[9], B[9], W[9];
  put(M, 6, 0, 0, 0, 0, I3, p->mass);
  put(M, 6, 0, 3, 0, 3, Jg, 1);
  // d(w x Jg w)/dw = w~ Jg - (Jg w)~
  skew(W, w);
  mul(A, W, Jg);
  skew(S, Jw);
  put(C, 6, 0, 3, 0, 3, A, 1);
  put(C, 6, 0, 3, 0, 3, S, -1);
  // dJg/dtheta applied to y: -(Jg y)~ + Jg y~
  skew(S, Ja);
  put(K, 6, 0, 3, 0, 3, S, -1);
  skew(S, al);
  mul(A, Jg, S);
  put(K, 6, 0, 3, 0, 3, A, 1);
  skew(S, Jw);
  mul(A, W, S);
  put(K, 6, 0, 3, 0, 3, A, -1);
  skew(S, w);
  mul(B, Jg, S);
  mul(A, W, B);
  put(K, 6, 0, 3, 0, 3, A, 1);
  return 0;
}


static int user_mass(double t, int n, const int* nodes, const double* pose, const double* vel,
                     const double* acc, double* res, double* K, double* C, double* M, void* user) {
  const userPar* p = user;
  (void)t;
  (void)n;
  (void)nodes;
  (void)pose;
  (void)vel;
  (void)K;
  (void)C;
  for (int i = 0; i < 3; i++) {
    res[i] = p->mass * acc[i];
    if (M && !p->explicit_) {
      M[i * 6 + i] = p->mass;
    }
  }
  return 0;
}


static int user_spring(double t, int n, const int* nodes, const double* pose, const double* vel,
                       const double* acc, double* res, double* K, double* C, double* M,
                       void* user) {
  const userPar* p = user;
  (void)t;
  (void)n;
  (void)nodes;
  (void)acc;
  (void)M;
  double d[3], dv[3];
  for (int i = 0; i < 3; i++) {
    d[i] = pose[7 + i] - pose[i];
    dv[i] = vel[6 + i] - vel[i];
  }
  double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), nv[3];
  for (int i = 0; i < 3; i++) {
    nv[i] = d[i] / L;
  }
  double e = L - p->l0, ed = nv[0] * dv[0] + nv[1] * dv[1] + nv[2] * dv[2];
  double N = p->k * e + p->c * ed;
  // tension N pulls node 0 towards node 1: force N n on node 0, residual -N n
  for (int i = 0; i < 3; i++) {
    res[i] = -N * nv[i];
    res[6 + i] = N * nv[i];
  }
  if (!K || p->explicit_) {
    return 0;
  }
  double Kd[9], Cd[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double P = (i == j) - nv[i] * nv[j];
      double Pdv = (dv[j] - nv[j] * ed) / L;
      Kd[3 * i + j] = p->k * nv[i] * nv[j] + N / L * P + p->c * nv[i] * Pdv;
      Cd[3 * i + j] = p->c * nv[i] * nv[j];
    }
  }
  // d(N n)/dx1 = Kd, d(N n)/dx0 = -Kd
  put(K, 12, 0, 0, 0, 0, Kd, 1);
  put(K, 12, 0, 0, 1, 0, Kd, -1);
  put(K, 12, 1, 0, 0, 0, Kd, -1);
  put(K, 12, 1, 0, 1, 0, Kd, 1);
  put(C, 12, 0, 0, 0, 0, Cd, 1);
  put(C, 12, 0, 0, 1, 0, Cd, -1);
  put(C, 12, 1, 0, 0, 0, Cd, -1);
  put(C, 12, 1, 0, 1, 0, Cd, 1);
  return 0;
}


static userPar body_par = {2.5, {0.4, 0.05, -0.02, 0.05, 0.7, 0.03, -0.02, 0.03, 0.9}, 0, 0, 0, 0};
static userPar mass_par = {1.5, {0}, 0, 0, 0, 0};
static userPar spring_par = {0, {0}, 40, 0.3, 0.6, 0};

// rigid node a (body), point node b (mass), spring a-b; built in (user == 0) or as user
// elements (user == 1: with matrices; 2: the spring explicit)
static rdSpec* two_nodes(rdContext* ctx, int user, const char* method) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  double qa[4] = {0.9, 0.1, -0.3, 0.2};
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "a";
  for (int k = 0; k < 4; k++) {
    n.orientation[k] = qa[k] / sqrt(0.95);
  }
  n.angular_velocity[0] = 1.5;
  n.angular_velocity[1] = -2;
  n.angular_velocity[2] = 3;
  n.velocity[1] = 0.3;
  int a = rds_addNode(s, &n);
  int b = add_node(s, "b", RD_NODE_POINT, 1, 0.5, 0.2, NULL);
  int nodes[2] = {a, b};
  if (!user) {
    add_body(s, "body", a, 0);
    rdPointMassDef pm = rd_defaultPointMassDef();
    pm.name = "mass";
    pm.node = b;
    pm.mass = mass_par.mass;
    rds_addPointMass(s, &pm);
    rdSpringDef sp = rd_defaultSpringDef();
    sp.name = "spring";
    sp.node[0] = a;
    sp.node[1] = b;
    sp.stiffness[0] = spring_par.k;
    sp.damping = spring_par.c;
    sp.rest_length = spring_par.l0;
    rds_addSpring(s, &sp);
  } else {
    static userPar spring_explicit;
    spring_explicit = spring_par;
    spring_explicit.explicit_ = 1;
    rdUserElementDef u = rd_defaultUserElementDef();
    u.name = "body";
    u.nnode = 1;
    u.nodes = &nodes[0];
    u.callback = user_body;
    u.user = &body_par;
    CHECK(rds_addUserElement(s, &u) == 0);
    u.name = "mass";
    u.nodes = &nodes[1];
    u.callback = user_mass;
    u.user = &mass_par;
    CHECK(rds_addUserElement(s, &u) == 1);
    u.name = "spring";
    u.nnode = 2;
    u.nodes = nodes;
    u.callback = user_spring;
    u.user = user == 2 ? &spring_explicit : &spring_par;
    CHECK(rds_addUserElement(s, &u) == 2);
  }
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "1e-3");
  rds_setOption(s, "solver.atol", "1e-12");
  rds_setOption(s, "solver.rtol", "1e-10");
  // Newton far inside its tolerance: the explicit spring is compared to 1e-8 and by the
  // iterations its missing Jacobian costs, which the estimate stop would save
  rds_setOption(s, "solver.newton_test", "increment");
  return s;
}


// run 300 steps; final states of both nodes (x, q, v, W) and the Newton iterations
static int run_steps(rdSpec* s, double out[26], long* newton) {
  rdContext* ctx = rds_context(s);
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_compile(s, &m);
  rd_destroySpec(&s);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  for (int i = 0; i < 300 && !st; i++) {
    st = rd_step(m, d, 0);
  }
  for (int i = 0; !st && i < 2; i++) {
    double* o = out + 13 * i;
    rd_getNodeState(m, d, i, o, o + 3, o + 7, NULL, o + 10);
  }
  rdStats stats;
  if (!st) {
    rd_getStats(d, &stats);
    *newton = stats.newton_iterations;
  }
  if (st) {
    printf("run: %s\n", rd_lastError(ctx));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


static void test_user_elements(rdContext* ctx) {
  fd_check(two_nodes(ctx, 1, "generalized_alpha"), "user elements");
  double xb[26], xu[26], xe[26];
  long nb = 0, nu = 0, ne = 0;
  CHECK(run_steps(two_nodes(ctx, 0, "generalized_alpha"), xb, &nb) == RD_OK);
  CHECK(run_steps(two_nodes(ctx, 1, "generalized_alpha"), xu, &nu) == RD_OK);
  CHECK(run_steps(two_nodes(ctx, 2, "generalized_alpha"), xe, &ne) == RD_OK);
  double du = 0, de = 0;
  for (int k = 0; k < 26; k++) {
    du = fmax(du, fabs(xu[k] - xb[k]));
    de = fmax(de, fabs(xe[k] - xb[k]));
  }
  CHECK_MSG(du < 1e-11, "user vs built-in: %.3e", du);
  CHECK_MSG(nu == nb, "Newton iterations %ld (user) vs %ld (built in)", nu, nb);
  CHECK_MSG(de < 1e-8, "explicit user spring vs built-in: %.3e", de);
  CHECK_MSG(ne > nb, "explicit spring: %ld Newton iterations vs %ld", ne, nb);
  printf(
      "user elements: |user - built-in| = %.2e (%ld vs %ld Newton iterations); explicit "
      "spring %.2e (%ld)\n",
      du, nu, nb, de, ne);
  // rigid steppers refuse user elements with a clear message
  rdModel* m = NULL;
  rdData* d = NULL;
  rdSpec* s = two_nodes(ctx, 1, "nmb");
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  CHECK(rd_createData(m, &d) == RD_ERR_UNSUPPORTED);
  CHECK(strstr(rd_lastError(ctx), "user element 'body'") != NULL);
  rd_destroyModel(&m);
  // spec errors
  rd_createSpec(ctx, &s);
  int nodes[1] = {7};
  rdUserElementDef u = rd_defaultUserElementDef();
  u.name = "u";
  u.nnode = 1;
  u.nodes = nodes;
  CHECK(rds_addUserElement(s, &u) == RD_ERR_ARG);  // no callback
  u.callback = user_mass;
  CHECK(rds_addUserElement(s, &u) == 0);
  CHECK(rds_addUserElement(s, &u) == RD_ERR_ARG);  // duplicate
  CHECK(rds_addUserElement(s, NULL) == RD_ERR_ARG);
  rdUserElementDef raw;
  memset(&raw, 0, sizeof(raw));
  raw.name = "raw";
  CHECK(rds_addUserElement(s, &raw) == RD_ERR_ARG);       // not from the default
  CHECK(rd_compile(s, &m) == RD_ERR_MODEL || m == NULL);  // node 7 undefined
  rd_destroySpec(&s);
}

// ---------------------------------------------------------------------------------------------
// static method: a host stiffness with its Jacobian

static int host_spring(double t, int n, const int* nodes, const double* pose, const double* vel,
                       double* load, void* user) {
  (void)t;
  (void)n;
  (void)nodes;
  (void)vel;
  (void)user;
  load[0] = 5 - 20 * pose[0] - 3 * pose[0] * pose[0] * pose[0];
  load[1] = -20 * pose[1];
  load[2] = -20 * pose[2];
  return 0;
}


static int host_spring_jac(double t, int n, const int* nodes, const double* pose, const double* vel,
                           double* dfdx, double* dfdv, void* user) {
  (void)t;
  (void)nodes;
  (void)vel;
  (void)dfdv;
  (void)user;
  int N = 6 * n;
  dfdx[0] = -20 - 9 * pose[0] * pose[0];
  dfdx[N + 1] = dfdx[2 * N + 2] = -20;
  return 0;
}


static rdModel* static_model(rdContext* ctx, int jac) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int a = add_node(s, "p", RD_NODE_POINT, 0, 0, 0, NULL);
  rdLoadCallbackDef cb = rd_defaultLoadCallbackDef();
  cb.name = "host";
  cb.nnode = 1;
  cb.nodes = &a;
  cb.callback = host_spring;
  cb.jacobian = jac ? host_spring_jac : NULL;
  rds_addLoadCallback(s, &cb);
  rds_setOption(s, "solver.method", "static");
  rds_setOption(s, "solver.time_step", "1");
  rds_setOption(s, "solver.atol", "1e-12");
  rds_setOption(s, "solver.rtol", "1e-12");
  rds_setOption(s, "solver.max_iter", "200");
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  return m;
}


static int static_run(rdContext* ctx, int jac, double* x, long* newton) {
  rdModel* m = static_model(ctx, jac);
  rdData* d = NULL;
  int st = RD_OK;
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  st = st ? st : rd_step(m, d, 1);
  if (!st) {
    rd_getNodeState(m, d, 0, x, NULL, NULL, NULL, NULL);
    rdStats stats;
    rd_getStats(d, &stats);
    *newton = stats.newton_iterations;
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


static void test_static(rdContext* ctx) {
  double x0[3] = {0}, x1[3] = {0};
  long n0 = 0, n1 = 0;
  int s0 = static_run(ctx, 0, x0, &n0);
  CHECK(static_run(ctx, 1, x1, &n1) == RD_OK);
  // 5 - 20 x - 3 x^3 = 0
  CHECK_NEAR(5 - 20 * x1[0] - 3 * x1[0] * x1[0] * x1[0], 0, 1e-12);
  CHECK(n1 <= 8);
  if (s0) {
    printf(
        "static host stiffness: %ld Newton iterations with the Jacobian; without it the "
        "matrix is singular (expected)\n",
        n1);
  } else {
    printf("static host stiffness: %ld Newton iterations with the Jacobian, %ld without\n", n1, n0);
  }
  CHECK(s0 != RD_OK || n0 > n1);
}

// ---------------------------------------------------------------------------------------------
// split step

typedef struct {
  double scale;  // load factor the host prescribes for the step
  int refuse;    // 1: ask for a smaller step
} hostState;

// a time function that reads the host's state: the pattern for host-prescribed data
static int host_timefn(double t, double* value, double dvalue[2], void* user) {
  hostState* h = user;
  (void)t;
  *value = h->scale;
  if (dvalue) {
    dvalue[0] = dvalue[1] = 0;
  }
  return h->refuse ? 1 : 0;
}


// heavy top: rigid body pinned at the ground by a spherical joint, gravity; an optional load
// on the body scaled by the host's time function
static rdModel* top(rdContext* ctx, const char* formulation, hostState* host) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.position[1] = 1;
  n.angular_velocity[1] = 30;
  n.angular_velocity_frame = RD_FRAME_BODY;
  int a = model_addRigidBody(s, &n, "b", 15, (double[3]){0.234375, 0.46875, 0.234375}, NULL);
  model_addPivot(s, a);
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  if (host) {
    rdTimeFnDef f = rd_defaultTimeFnDef();
    f.name = "host";
    f.type = RD_TIMEFN_CALLBACK;
    f.callback = host_timefn;
    f.user = host;
    int fn = rds_addTimeFn(s, &f);
    rdLoadDef l = rd_defaultLoadDef();
    l.name = "push";
    l.node = a;
    l.value[0] = 10;
    l.timefn = fn;
    rds_addLoad(s, &l);
  }
  rds_setOption(s, "solver.time_step", "1e-3");
  rds_setOption(s, "solver.formulation", formulation);
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  return m;
}


static int same_state(const rdModel* m, const rdData* a, const rdData* b) {
  for (int i = 0; i < m->nnode; i++) {
    double xa[13], xb[13];
    rd_getNodeState(m, a, i, xa, xa + 3, xa + 7, NULL, xa + 10);
    rd_getNodeState(m, b, i, xb, xb + 3, xb + 7, NULL, xb + 10);
    if (memcmp(xa, xb, sizeof(xa)) != 0) {
      return 0;
    }
  }
  return rd_time(a) == rd_time(b);
}


static void test_split_bitwise(rdContext* ctx, const char* formulation) {
  rdModel* m = top(ctx, formulation, NULL);
  rdData *a = NULL, *b = NULL;
  CHECK(rd_createData(m, &a) == RD_OK && rd_createData(m, &b) == RD_OK);
  CHECK(rd_initialize(m, a) == RD_OK && rd_initialize(m, b) == RD_OK);
  int ok = 1;
  double x0[3], xp[3], xe[3];
  for (int i = 0; i < 100 && ok; i++) {
    ok = rd_step(m, a, 1e-3) == RD_OK;
    rd_getNodeState(m, b, 0, x0, NULL, NULL, NULL, NULL);
    ok = ok && rd_stepBegin(m, b, 1e-3) == RD_OK;
    rd_getNodeState(m, b, 0, xp, NULL, NULL, NULL, NULL);  // predicted
    ok = ok && rd_stepEnd(m, b) == RD_OK;
    rd_getNodeState(m, b, 0, xe, NULL, NULL, NULL, NULL);
    // the predictor moves the node, close to the corrected position
    double dp = 0, de = 0;
    for (int k = 0; k < 3; k++) {
      dp = fmax(dp, fabs(xp[k] - x0[k]));
      de = fmax(de, fabs(xp[k] - xe[k]));
    }
    if (ok && !(dp > 0 && de < 1e-4)) {
      printf("%s: step %d: predictor moved %.3e, corrector %.3e\n", formulation, i, dp, de);
      ok = 0;
    }
  }
  CHECK_MSG(ok, "%s: split steps: %s", formulation, rd_lastError(ctx));
  CHECK_MSG(same_state(m, a, b), "%s: stepBegin + stepEnd differs from rd_step", formulation);
  rdStats sa, sb;
  rd_getStats(a, &sa);
  rd_getStats(b, &sb);
  CHECK(sa.newton_iterations == sb.newton_iterations && sa.steps == sb.steps);
  rd_destroyData(&a);
  rd_destroyData(&b);
  rd_destroyModel(&m);
}


// a failed corrector restores the state at t; the host redoes the step in two halves
static void test_split_redo(rdContext* ctx) {
  hostState host = {1, 0};
  rdModel* m = top(ctx, "index3", &host);
  rdData *d = NULL, *ref = NULL;
  CHECK(rd_createData(m, &d) == RD_OK && rd_createData(m, &ref) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK(rd_step(m, d, 1e-3) == RD_OK);
  CHECK(rd_copyData(ref, d) == RD_OK);
  CHECK(rd_stepBegin(m, d, 1e-3) == RD_OK);
  host.refuse = 1;
  int st = rd_stepEnd(m, d);
  CHECK(st == RD_RECOVER_CALLBACK);
  CHECK(same_state(m, d, ref));             // back at t, bit for bit
  CHECK(rd_stepEnd(m, d) == RD_ERR_STATE);  // the step is over
  host.refuse = 0;
  for (int k = 0; k < 2; k++) {
    CHECK(rd_stepBegin(m, d, 0.5e-3) == RD_OK);
    host.scale = 2;  // the host's data for this step
    CHECK(rd_stepEnd(m, d) == RD_OK);
  }
  CHECK_NEAR(rd_time(d), 2e-3, 1e-15);
  rdStats s;
  rd_getStats(d, &s);
  CHECK(s.rejected_steps == 1 && s.steps == 3);
  rd_destroyData(&d);
  rd_destroyData(&ref);
  rd_destroyModel(&m);
}


// loads held by rd_setNodeLoad equal the same dead loads in the model
static void test_set_node_load(rdContext* ctx) {
  hostState host = {1, 0};
  rdModel* with = top(ctx, "index3", &host);
  rdModel* without = top(ctx, "index3", NULL);
  rdData *a = NULL, *b = NULL;
  CHECK(rd_createData(with, &a) == RD_OK && rd_createData(without, &b) == RD_OK);
  CHECK(rd_initialize(with, a) == RD_OK);
  double f[3] = {10, 0, 0};
  CHECK(rd_setNodeLoad(without, b, 0, f, NULL) == RD_OK);
  CHECK(rd_initialize(without, b) == RD_OK);
  int ok = 1;
  for (int i = 0; i < 50 && ok; i++) {
    ok = rd_step(with, a, 1e-3) == RD_OK;
    ok = ok && rd_stepBegin(without, b, 1e-3) == RD_OK && rd_stepEnd(without, b) == RD_OK;
  }
  CHECK(ok);
  double xa[3], xb[3];
  rd_getNodeState(with, a, 0, xa, NULL, NULL, NULL, NULL);
  rd_getNodeState(without, b, 0, xb, NULL, NULL, NULL, NULL);
  double dx = fmax(fabs(xa[0] - xb[0]), fmax(fabs(xa[1] - xb[1]), fabs(xa[2] - xb[2])));
  CHECK_MSG(dx < 1e-13, "held load vs model load: %.3e", dx);
  // kept until changed; zero removes it
  double z[3] = {0, 0, 0};
  CHECK(rd_setNodeLoad(without, b, 0, z, z) == RD_OK);
  rd_destroyData(&a);
  rd_destroyData(&b);
  rd_destroyModel(&with);
  rd_destroyModel(&without);
}


static void test_misuse(rdContext* ctx) {
  rdModel* m = top(ctx, "index3", NULL);
  rdData *d = NULL, *e = NULL;
  CHECK(rd_createData(m, &d) == RD_OK && rd_createData(m, &e) == RD_OK);
  CHECK(rd_stepBegin(m, d, 1e-3) == RD_ERR_STATE);  // before rd_initialize
  CHECK(rd_stepEnd(m, d) == RD_ERR_STATE);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK(rd_stepEnd(m, d) == RD_ERR_STATE);  // without stepBegin
  CHECK(rd_stepBegin(m, d, -1) == RD_ERR_ARG);
  CHECK(rd_stepBegin(m, d, NAN) == RD_ERR_ARG);
  CHECK(rd_stepBegin(NULL, d, 1e-3) == RD_ERR_HANDLE);
  CHECK(rd_stepBegin(m, NULL, 1e-3) == RD_ERR_HANDLE);
  CHECK(rd_stepEnd(m, NULL) == RD_ERR_HANDLE);
  CHECK(rd_setNodeLoad(m, NULL, 0, NULL, NULL) == RD_ERR_HANDLE);
  double f[3] = {1, 2, 3}, bad[3] = {0, NAN, 0};
  CHECK(rd_setNodeLoad(m, d, -1, f, f) == RD_ERR_ARG);
  CHECK(rd_setNodeLoad(m, d, 1, f, f) == RD_ERR_ARG);
  CHECK(rd_setNodeLoad(m, d, 0, bad, NULL) == RD_ERR_ARG);
  CHECK(rd_stepBegin(m, d, 0) == RD_OK);            // 0: the model's time step
  CHECK(rd_stepBegin(m, d, 1e-3) == RD_ERR_STATE);  // twice
  CHECK(rd_step(m, d, 1e-3) == RD_ERR_STATE);
  CHECK(rd_advance(m, d, 1, NULL, NULL) == RD_ERR_STATE);
  CHECK(rd_initialize(m, d) == RD_ERR_STATE);
  CHECK(rd_copyData(e, d) == RD_ERR_STATE);
  CHECK(rd_writeCheckpoint(m, d, "/tmp/rd_coupling_never.ckpt") == RD_ERR_STATE);
  CHECK(rd_setNodeLoad(m, d, 0, f, NULL) == RD_OK);  // allowed inside the step
  CHECK(rd_stepEnd(m, d) == RD_OK);
  CHECK_NEAR(rd_time(d), 1e-3, 1e-18);
  CHECK(rd_stepEnd(m, d) == RD_ERR_STATE);
  CHECK(rd_step(m, d, 1e-3) == RD_OK);
  // reset leaves the step
  CHECK(rd_stepBegin(m, d, 1e-3) == RD_OK);
  CHECK(rd_resetData(m, d) == RD_OK);
  CHECK(rd_stepEnd(m, d) == RD_ERR_STATE);
  rd_destroyData(&d);
  rd_destroyData(&e);
  rd_destroyModel(&m);
  // a rigid stepper has no split
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "free";
  n.angular_velocity[2] = 1;
  int a = rds_addNode(s, &n);
  add_body(s, "b", a, 0);
  rds_setOption(s, "solver.method", "nmb");
  CHECK(rd_compile(s, &m) == RD_OK);
  rd_destroySpec(&s);
  if (rd_createData(m, &d) == RD_OK) {
    CHECK(rd_initialize(m, d) == RD_OK);
    CHECK(rd_stepBegin(m, d, 1e-3) == RD_ERR_UNSUPPORTED);
    CHECK(strstr(rd_lastError(ctx), "nmb") != NULL);
    CHECK(rd_step(m, d, 1e-3) == RD_OK);
    rd_destroyData(&d);
  }
  rd_destroyModel(&m);
}


// the static method: split with the current state as the predictor
static void test_split_static(rdContext* ctx) {
  rdModel* m = static_model(ctx, 1);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  double f[3] = {10, 0, 0}, x[3];
  CHECK(rd_stepBegin(m, d, 1) == RD_OK);
  CHECK(rd_setNodeLoad(m, d, 0, f, NULL) == RD_OK);
  CHECK(rd_stepEnd(m, d) == RD_OK);
  rd_getNodeState(m, d, 0, x, NULL, NULL, NULL, NULL);
  CHECK_NEAR(15 - 20 * x[0] - 3 * x[0] * x[0] * x[0], 0, 1e-12);
  rd_destroyData(&d);
  rd_destroyModel(&m);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  TEST_CASE(test_load_jacobian_fd(ctx));
  TEST_CASE(test_user_elements(ctx));
  TEST_CASE(test_static(ctx));
  TEST_CASE(test_split_bitwise(ctx, "index3"));
  TEST_CASE(test_split_bitwise(ctx, "stabilized"));
  TEST_CASE(test_split_redo(ctx));
  TEST_CASE(test_set_node_load(ctx));
  TEST_CASE(test_misuse(ctx));
  TEST_CASE(test_split_static(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
