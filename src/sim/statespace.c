// SPDX-License-Identifier: MIT
// State-space models of a linearization (docs/modal.md): x = (z, z'), y = N z + Y_p s with the
// prescribed motions s, x' = A x + B u, y = C x + D u.
#include <stdio.h>
#include <string.h>

#include "constraints/constraint.h"
#include "rodrigues/liegroup.h"
#include "src/math/vec3.h"
#include "src/sim/modal_impl.h"

// last: lapacke.h brings complex.h, whose macro I clashes with names (LAPACKE is loaded when first
// used, src/core/lapack.h)
#include "src/core/lapack.h"

int rd_ssValid(const rdStateSpace* ss) {
  return ss && ss->magic == RD_MAGIC_SS;
}


static const char* const axis_name = "xyz";


void rd_ssChannelName(const rdModel* m, const rdSsChannel* c, int input, int rate, char* buf,
                      int size) {
  static const char* const in[3] = {"force", "moment", "motion"};
  static const char* const out[6] = {"displacement",     "rotation",       "velocity",
                                     "angular_velocity", "reaction_force", "reaction_moment"};
  static const char* const rates[3] = {"", "_rate", "_acceleration"};
  if (input && c->kind == RD_SS_MOTION) {
    snprintf(buf, (size_t)size, "motion%s %s %d", rates[rate], m->joint[c->index].def.name,
             c->component + 1);
  } else if (input) {
    snprintf(buf, (size_t)size, "%s %s %c", in[c->kind], m->node_name[c->index],
             axis_name[c->component]);
  } else if (c->kind >= RD_SS_REACTION_FORCE) {
    snprintf(buf, (size_t)size, "%s %s %c", out[c->kind], m->joint[c->index].def.name,
             axis_name[c->component]);
  } else {
    snprintf(buf, (size_t)size, "%s %s %c", out[c->kind], m->node_name[c->index],
             axis_name[c->component]);
  }
}


static int check_channel(const rdModel* m, const rdSsChannel* c, int input, int k) {
  const char* what = input ? "input" : "output";
  int kinds = input ? 3 : 6;
  if (c->kind < 0 || c->kind >= kinds) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_stateSpace: %s %d: unknown kind %d", what, k, c->kind);
  }
  int joint = input ? c->kind == RD_SS_MOTION : c->kind >= RD_SS_REACTION_FORCE;
  int count = joint ? m->njoint : m->nnode;
  if (c->index < 0 || c->index >= count) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_stateSpace: %s %d: %s %d out of range (%d)", what, k,
                    joint ? "joint" : "node", c->index, count);
  }
  int ncomp = input && joint ? m->joint[c->index].nrow : 3;
  if (c->component < 0 || c->component >= ncomp) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_stateSpace: %s %d: component %d out of range (%d)",
                    what, k, c->component, ncomp);
  }
  int rot = input ? c->kind == RD_SS_MOMENT
                  : c->kind == RD_SS_ROTATION || c->kind == RD_SS_ANGULAR_VELOCITY;
  if (rot && m->node_kind[c->index] != RD_NODE_RIGID) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_stateSpace: %s %d: node '%s' has no rotation", what, k,
                    m->node_name[c->index]);
  }
  return RD_OK;
}


void rd_destroyStateSpace(rdStateSpace** pss) {
  if (!pss || !rd_ssValid(*pss)) {
    return;
  }
  rdStateSpace* ss = *pss;
  rdContext* ctx = ss->ctx;
  for (int k = 0; ss->uname && k < ss->nu; k++) {
    rd_free(ctx, ss->uname[k]);
  }
  for (int k = 0; ss->yname && k < ss->ny; k++) {
    rd_free(ctx, ss->yname[k]);
  }
  rd_free(ctx, ss->uname);
  rd_free(ctx, ss->yname);
  rd_free(ctx, ss->A);
  rd_free(ctx, ss->B);
  rd_free(ctx, ss->C);
  rd_free(ctx, ss->D);
  ss->magic = 0;
  rd_free(ctx, ss);
  *pss = NULL;
}


// the dense column-major copy of a CSC matrix, allocated
static double* dense(rdContext* ctx, const rdCsc* A) {
  double* D = rd_alloc(ctx, sizeof(double) * ((size_t)A->nrow * (size_t)A->ncol + 1));
  if (D) {
    rd_cscToDense(A, D, A->nrow);
  }
  return D;
}


// the work of rd_stateSpace: dense reduced matrices and the columns it builds
typedef struct {
  int n, nr, nc;  // ndof, reduced, constraints
  int nu, ny;
  double* Nd;  // n x nr: N, dense
  double* Yp;  // n x nu: particular motions (only the s columns of motion inputs are used)
  double* F;   // n x nu: the generalized forces of the inputs in the residual rows
  double* G;   // nr x nu: reduced inputs
  double* MK;  // nr x nr: M_r^-1 K_r
  double* MD;  // nr x nr: M_r^-1 D_r
  double* MG;  // nr x nu: M_r^-1 G
  double* t;   // n scratch
  double* t2;  // n scratch
} ssWork;


// the input columns: forces and moments in F; motions: Y_p (minimum-norm solution of B y = e_k)
// and the reduced columns -N^T K Y_p, -N^T D Y_p, -N^T M Y_p
static int input_columns(const rdLinearization* lin, int ninput, const rdSsChannel* inputs,
                         ssWork* w) {
  const rdModel* m = lin->model;
  rdContext* ctx = lin->ctx;
  const rdLapack* la = rd_lapack(ctx, "the state-space model");
  if (!la) {
    return RD_ERR_IO;
  }
  const rdCsc* A = lin->mat;
  int n = w->n, col = 0;
  for (int k = 0; k < ninput; k++) {
    const rdSsChannel* c = &inputs[k];
    if (c->kind != RD_SS_MOTION) {
      double* f = w->F + (size_t)col * (size_t)n;
      int dof = m->node_dof[c->index];
      if (c->kind == RD_SS_FORCE) {
        f[dof + c->component] = 1;
      } else {
        double e[3] = {0, 0, 0};
        e[c->component] = 1;
        // moment rows are R^T M: a global moment e enters as R^T e
        rdu_quatRotateInv(f + dof + 3, lin->q + 7 * c->index + 3, e);
      }
      rd_cscMatTVec(&A[RD_LIN_N], f, w->G + (size_t)col * (size_t)w->nr);
      col++;
      continue;
    }
    // B y = e_k, minimum norm (LAPACK dgelsd on the dense B)
    int nc = w->nc, ld = nc > n ? nc : n;
    double* Bd = dense(ctx, &A[RD_LIN_B]);
    double* rhs = rd_calloc(ctx, (size_t)ld + 1, sizeof(double));
    double* sv = rd_alloc(ctx, sizeof(double) * ((size_t)(nc < n ? nc : n) + 1));
    int st = Bd && rhs && sv ? RD_OK : RD_ERR_NOMEM;
    if (st == RD_OK) {
      rhs[m->joint[c->index].row + c->component] = 1;
      lapack_int rank = 0;
      lapack_int info =
          la->dgelsd(LAPACK_COL_MAJOR, nc, n, 1, Bd, nc, rhs, ld, sv, m->opt.redundant_tol, &rank);
      if (info != 0) {
        st = RD_ERROR(ctx, RD_ERR_NUMERIC, "rd_stateSpace: dgelsd failed (info %d)", (int)info);
      }
    }
    if (st == RD_OK) {
      double* yp = w->Yp + (size_t)col * (size_t)n;
      memcpy(yp, rhs, sizeof(double) * (size_t)n);
      // -N^T X Y_p for X = K, D, M: the columns s, s', s''
      static const int which[3] = {RD_LIN_K, RD_LIN_D, RD_LIN_M};
      for (int r = 0; r < 3; r++) {
        rd_cscMatVec(&A[which[r]], yp, w->t, 0);
        double* g = w->G + (size_t)(col + r) * (size_t)w->nr;
        rd_cscMatTVec(&A[RD_LIN_N], w->t, g);
        for (int i = 0; i < w->nr; i++) {
          g[i] = -g[i];
        }
        if (r > 0) {
          memcpy(w->Yp + (size_t)(col + r) * (size_t)n, yp, sizeof(double) * (size_t)n);
        }
      }
    }
    rd_free(ctx, Bd);
    rd_free(ctx, rhs);
    rd_free(ctx, sv);
    if (st != RD_OK) {
      return st;
    }
    col += 3;
  }
  return RD_OK;
}


// M_r^-1 [K_r D_r G] with one LU of the dense M_r
static int solve_mass(const rdLinearization* lin, ssWork* w) {
  rdContext* ctx = lin->ctx;
  const rdLapack* la = rd_lapack(ctx, "the state-space model");
  if (!la) {
    return RD_ERR_IO;
  }
  int nr = w->nr, nrhs = 2 * nr + w->nu;
  size_t nn = (size_t)nr * (size_t)nr;
  double* Md = dense(ctx, &lin->mat[RD_LIN_MR]);
  double* X = rd_alloc(ctx, sizeof(double) * ((size_t)nr * (size_t)nrhs + 1));
  lapack_int* ipiv = rd_alloc(ctx, sizeof(lapack_int) * ((size_t)nr + 1));
  int st = Md && X && ipiv ? RD_OK : RD_ERR_NOMEM;
  if (st == RD_OK) {
    rd_cscToDense(&lin->mat[RD_LIN_KR], X, nr);
    rd_cscToDense(&lin->mat[RD_LIN_DR], X + nn, nr);
    memcpy(X + 2 * nn, w->G, sizeof(double) * (size_t)nr * (size_t)w->nu);
    lapack_int info = la->dgesv(LAPACK_COL_MAJOR, nr, nrhs, Md, nr, ipiv, X, nr);
    if (info != 0) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "rd_stateSpace: the reduced mass matrix is singular%s",
                    info > 0 ? " (a degree of freedom without mass)" : "");
    }
  }
  if (st == RD_OK) {
    memcpy(w->MK, X, sizeof(double) * nn);
    memcpy(w->MD, X + nn, sizeof(double) * nn);
    memcpy(w->MG, X + 2 * nn, sizeof(double) * (size_t)nr * (size_t)w->nu);
  }
  rd_free(ctx, Md);
  rd_free(ctx, X);
  rd_free(ctx, ipiv);
  return st;
}


// z'' = -MK z - MD z' + MG u, as the row of coefficients (cz, cv: nr; cu: nu) of e^T z'' for a
// DOF vector e (n): the acceleration part of y'' = N z'' + Y_p s''
static void accel_row(const ssWork* w, const double* e, double* cz, double* cv, double* cu) {
  int nr = w->nr;
  // a = N^T e restricted: e^T N z'' = (N^T e)^T z''
  double* a = w->t2;  // nr <= n
  for (int j = 0; j < nr; j++) {
    double s = 0;
    for (int i = 0; i < w->n; i++) {
      s += e[i] * w->Nd[(size_t)j * (size_t)w->n + (size_t)i];
    }
    a[j] = s;
  }
  for (int j = 0; j < nr; j++) {
    double sk = 0, sd = 0;
    for (int i = 0; i < nr; i++) {
      sk += a[i] * w->MK[(size_t)j * (size_t)nr + (size_t)i];
      sd += a[i] * w->MD[(size_t)j * (size_t)nr + (size_t)i];
    }
    cz[j] = -sk;
    cv[j] = -sd;
  }
  for (int j = 0; j < w->nu; j++) {
    double s = 0;
    for (int i = 0; i < nr; i++) {
      s += a[i] * w->MG[(size_t)j * (size_t)nr + (size_t)i];
    }
    cu[j] = s;
  }
}


// the row of output o: C (cz, cv: nr each) and D (du: nu); rate[col]: 0, 1, 2 for the s, s',
// s'' columns of motion inputs, -1 for loads
static int output_row(const rdLinearization* lin, const rdSsChannel* c, const int* rate, ssWork* w,
                      double* cz, double* cv, double* du) {
  const rdModel* m = lin->model;
  rdContext* ctx = lin->ctx;
  const rdLapack* la = rd_lapack(ctx, "the state-space model");
  if (!la) {
    return RD_ERR_IO;
  }
  const rdCsc* A = lin->mat;
  int n = w->n, nr = w->nr, nu = w->nu;
  memset(cz, 0, sizeof(double) * (size_t)nr);
  memset(cv, 0, sizeof(double) * (size_t)nr);
  memset(du, 0, sizeof(double) * (size_t)nu);
  if (c->kind <= RD_SS_ANGULAR_VELOCITY) {
    int rot = c->kind == RD_SS_ROTATION || c->kind == RD_SS_ANGULAR_VELOCITY;
    int d = m->node_dof[c->index] + 3 * rot + c->component;
    int vel = c->kind == RD_SS_VELOCITY || c->kind == RD_SS_ANGULAR_VELOCITY;
    double* row = vel ? cv : cz;
    for (int j = 0; j < nr; j++) {
      row[j] = w->Nd[(size_t)j * (size_t)n + (size_t)d];
    }
    for (int k = 0; k < nu; k++) {
      if (rate[k] == vel) {
        du[k] = w->Yp[(size_t)k * (size_t)n + (size_t)d];
      }
    }
    return RD_OK;
  }
  // a reaction: out = -w^T rho - h^T y with rho = F u - M y'' - D y' - K y (docs/modal.md)
  const rdJoint* jt = &m->joint[c->index];
  rdJointEval ev, ev0;
  int st = rd_jointEval(m, c->index, lin->t, lin->q, lin->v, lin->lam + jt->row, &ev);
  if (st == RD_OK) {
    st = rd_jointEval(m, c->index, lin->t, lin->q, lin->v, NULL, &ev0);
  }
  if (st != RD_OK) {
    return st;
  }
  int node = ev.node[0], d0 = m->node_dof[node];
  int moment = c->kind == RD_SS_REACTION_MOMENT;
  if (moment && m->node_kind[node] != RD_NODE_RIGID) {
    return RD_OK;  // a point node takes no moment
  }
  // eo: the output as a combination of node 0's rows; b = R^T e_c for a moment
  double* eo = w->t;
  memset(eo, 0, sizeof(double) * (size_t)n);
  double b[3] = {0, 0, 0}, g[3] = {0, 0, 0};
  if (moment) {
    double e[3] = {0, 0, 0};
    e[c->component] = 1;
    rdu_quatRotateInv(b, lin->q + 7 * node + 3, e);
    for (int l = 0; l < 3; l++) {
      eo[d0 + 3 + l] = b[l];
      for (int r = 0; r < ev.nrow; r++) {
        g[l] -= ev.B[r * ev.n + 3 + l] * lin->lam[jt->row + r];
      }
    }
  } else {
    eo[d0 + c->component] = 1;
  }
  // h = H^T eo - (g x b) at node 0's rotations, H = d(B^T lam)/dq of the joint (local layout)
  double* h = rd_calloc(ctx, (size_t)n + 1, sizeof(double));
  double* vp = rd_calloc(ctx, (size_t)(w->nc > n ? w->nc : n) + 1, sizeof(double));
  double* Bd = dense(ctx, &A[RD_LIN_B]);
  double* sv = rd_alloc(ctx, sizeof(double) * ((size_t)n + (size_t)w->nc + 1));
  double* a = rd_alloc(ctx, sizeof(double) * 3 * ((size_t)n + 1));
  double* au = rd_alloc(ctx, sizeof(double) * ((size_t)nu + 1));
  double* az = rd_alloc(ctx, sizeof(double) * ((size_t)nr + 1));
  double* av = rd_alloc(ctx, sizeof(double) * ((size_t)nr + 1));
  st = h && vp && Bd && sv && a && au && az && av ? RD_OK : RD_ERR_NOMEM;
  if (st == RD_OK) {
    int nd0 = m->node_kind[node] == RD_NODE_RIGID ? 6 : 3;
    for (int col = 0; col < ev.n; col++) {
      int nb = col < ev.off[1] || ev.nnode == 1 ? 0 : 1;
      int gd = m->node_dof[ev.node[nb]] + col - ev.off[nb];
      double s = 0;
      for (int r = 0; r < nd0; r++) {
        s += eo[d0 + r] * (ev.K[r * ev.n + col] - ev0.K[r * ev.n + col]);
      }
      h[gd] += s;
    }
    if (moment) {
      double gb[3];
      v3_cross(gb, g, b);
      for (int l = 0; l < 3; l++) {
        h[d0 + 3 + l] -= gb[l];
      }
    }
    // w = pinv(B) vp, vp = the joint's rows of B eo (minimum norm, LAPACK dgelsd)
    rd_cscMatVec(&A[RD_LIN_B], eo, vp, 0);
    for (int r = 0; r < w->nc; r++) {
      if (r < jt->row || r >= jt->row + jt->nrow) {
        vp[r] = 0;
      }
    }
    lapack_int rank = 0;
    lapack_int info = la->dgelsd(LAPACK_COL_MAJOR, w->nc, n, 1, Bd, w->nc, vp,
                                 w->nc > n ? w->nc : n, sv, m->opt.redundant_tol, &rank);
    if (info != 0) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "rd_stateSpace: dgelsd failed (info %d)", (int)info);
    }
  }
  if (st == RD_OK) {
    // a_M = M^T w, a_D = D^T w, a_K = K^T w
    double *aM = a, *aD = a + n, *aK = a + 2 * (size_t)n;
    rd_cscMatTVec(&A[RD_LIN_M], vp, aM);
    rd_cscMatTVec(&A[RD_LIN_D], vp, aD);
    rd_cscMatTVec(&A[RD_LIN_K], vp, aK);
    // a_M^T N z'' through the equations of motion
    accel_row(w, aM, az, av, au);
    for (int j = 0; j < nr; j++) {
      double sk = 0, sd = 0;
      for (int i = 0; i < n; i++) {
        double nij = w->Nd[(size_t)j * (size_t)n + (size_t)i];
        sk += (aK[i] - h[i]) * nij;
        sd += aD[i] * nij;
      }
      cz[j] = az[j] + sk;
      cv[j] = av[j] + sd;
    }
    for (int k = 0; k < nu; k++) {
      const double* f = w->F + (size_t)k * (size_t)n;
      const double* yp = w->Yp + (size_t)k * (size_t)n;
      double s = au[k];
      for (int i = 0; i < n; i++) {
        s -= vp[i] * f[i];
        if (rate[k] == 0) {
          s += (aK[i] - h[i]) * yp[i];
        } else if (rate[k] == 1) {
          s += aD[i] * yp[i];
        } else if (rate[k] == 2) {
          s += aM[i] * yp[i];
        }
      }
      du[k] = s;
    }
  }
  rd_free(ctx, h);
  rd_free(ctx, vp);
  rd_free(ctx, Bd);
  rd_free(ctx, sv);
  rd_free(ctx, a);
  rd_free(ctx, au);
  rd_free(ctx, az);
  rd_free(ctx, av);
  return st;
}


static void free_work(rdContext* ctx, ssWork* w) {
  rd_free(ctx, w->Nd);
  rd_free(ctx, w->Yp);
  rd_free(ctx, w->F);
  rd_free(ctx, w->G);
  rd_free(ctx, w->MK);
  rd_free(ctx, w->MD);
  rd_free(ctx, w->MG);
  rd_free(ctx, w->t);
  rd_free(ctx, w->t2);
}


// the names of the inputs and outputs; RD_OK or RD_ERR_NOMEM
static int name_channels(rdStateSpace* ss, int ninput, const rdSsChannel* inputs, int noutput,
                         const rdSsChannel* outputs) {
  char buf[512];
  int col = 0;
  for (int k = 0; k < ninput; k++) {
    int nr = inputs[k].kind == RD_SS_MOTION ? 3 : 1;
    for (int r = 0; r < nr; r++) {
      rd_ssChannelName(ss->model, &inputs[k], 1, r, buf, sizeof(buf));
      ss->uname[col] = rd_strdup(ss->ctx, buf);
      if (!ss->uname[col++]) {
        return RD_ERR_NOMEM;
      }
    }
  }
  for (int k = 0; k < noutput; k++) {
    rd_ssChannelName(ss->model, &outputs[k], 0, 0, buf, sizeof(buf));
    ss->yname[k] = rd_strdup(ss->ctx, buf);
    if (!ss->yname[k]) {
      return RD_ERR_NOMEM;
    }
  }
  return RD_OK;
}


int rd_stateSpace(const rdLinearization* lin, int ninput, const rdSsChannel* inputs, int noutput,
                  const rdSsChannel* outputs, rdStateSpace** out) {
  if (!out) {
    return RD_ERR_ARG;
  }
  *out = NULL;
  if (!rd_linValid(lin)) {
    return RD_ERR_HANDLE;
  }
  const rdModel* m = lin->model;
  rdContext* ctx = lin->ctx;
  if (ninput < 0 || noutput < 0 || (ninput && !inputs) || (noutput && !outputs)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_stateSpace: %d inputs, %d outputs", ninput, noutput);
  }
  int nu = 0, st = RD_OK;
  for (int k = 0; k < ninput && st == RD_OK; k++) {
    st = check_channel(m, &inputs[k], 1, k);
    nu += inputs[k].kind == RD_SS_MOTION ? 3 : 1;
  }
  for (int k = 0; k < noutput && st == RD_OK; k++) {
    st = check_channel(m, &outputs[k], 0, k);
  }
  if (st != RD_OK) {
    return st;
  }
  const rdCsc* A = lin->mat;
  int n = m->ndof, nr = A[RD_LIN_N].ncol, nx = 2 * nr, ny = noutput;
  if (nx > RD_SS_MAX_STATES) {
    return RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                    "rd_stateSpace: %d states, more than the dense matrices take (%d)", nx,
                    RD_SS_MAX_STATES);
  }
  rdStateSpace* ss = rd_calloc(ctx, 1, sizeof(rdStateSpace));
  if (!ss) {
    return RD_ERR_NOMEM;
  }
  ss->magic = RD_MAGIC_SS;
  ss->model = m;
  ss->ctx = ctx;
  ss->nx = nx;
  ss->nu = nu;
  ss->ny = ny;
  ss->t = lin->t;
  ss->spin_rate = lin->spin_rate;
  size_t sx = (size_t)nx;
  ss->A = rd_calloc(ctx, sx * sx + 1, sizeof(double));
  ss->B = rd_calloc(ctx, sx * (size_t)nu + 1, sizeof(double));
  ss->C = rd_calloc(ctx, (size_t)ny * sx + 1, sizeof(double));
  ss->D = rd_calloc(ctx, (size_t)ny * (size_t)nu + 1, sizeof(double));
  ss->uname = rd_calloc(ctx, (size_t)nu + 1, sizeof(char*));
  ss->yname = rd_calloc(ctx, (size_t)ny + 1, sizeof(char*));
  ssWork w;
  memset(&w, 0, sizeof(w));
  w.n = n;
  w.nr = nr;
  w.nc = m->nconstraint;
  w.nu = nu;
  w.ny = ny;
  size_t big = (size_t)(n > nr ? n : nr) + 1;
  w.Nd = dense(ctx, &A[RD_LIN_N]);
  w.Yp = rd_calloc(ctx, (size_t)n * (size_t)nu + 1, sizeof(double));
  w.F = rd_calloc(ctx, (size_t)n * (size_t)nu + 1, sizeof(double));
  w.G = rd_calloc(ctx, (size_t)nr * (size_t)nu + 1, sizeof(double));
  w.MK = rd_alloc(ctx, sizeof(double) * ((size_t)nr * (size_t)nr + 1));
  w.MD = rd_alloc(ctx, sizeof(double) * ((size_t)nr * (size_t)nr + 1));
  w.MG = rd_alloc(ctx, sizeof(double) * ((size_t)nr * (size_t)nu + 1));
  w.t = rd_alloc(ctx, sizeof(double) * big);
  w.t2 = rd_alloc(ctx, sizeof(double) * big);
  int* rate = rd_alloc(ctx, sizeof(int) * ((size_t)nu + 1));
  double* row = rd_alloc(ctx, sizeof(double) * (sx + (size_t)nu + 1));
  st = ss->A && ss->B && ss->C && ss->D && ss->uname && ss->yname && w.Nd && w.Yp && w.F && w.G &&
               w.MK && w.MD && w.MG && w.t && w.t2 && rate && row
           ? RD_OK
           : RD_ERR_NOMEM;
  if (st == RD_OK) {
    st = name_channels(ss, ninput, inputs, noutput, outputs);
  }
  if (st == RD_OK) {
    int col = 0;
    for (int k = 0; k < ninput; k++) {
      for (int r = 0; r < (inputs[k].kind == RD_SS_MOTION ? 3 : 1); r++) {
        rate[col++] = inputs[k].kind == RD_SS_MOTION ? r : -1;
      }
    }
    st = input_columns(lin, ninput, inputs, &w);
  }
  if (st == RD_OK) {
    st = solve_mass(lin, &w);
  }
  if (st == RD_OK) {
    // A = [0 I; -M^-1 K, -M^-1 D], B = [0; M^-1 G]
    for (int j = 0; j < nr; j++) {
      ss->A[(size_t)(nr + j) * sx + (size_t)j] = 1;
      for (int i = 0; i < nr; i++) {
        ss->A[(size_t)j * sx + (size_t)(nr + i)] = -w.MK[(size_t)j * (size_t)nr + (size_t)i];
        ss->A[(size_t)(nr + j) * sx + (size_t)(nr + i)] = -w.MD[(size_t)j * (size_t)nr + (size_t)i];
      }
    }
    for (int k = 0; k < nu; k++) {
      for (int i = 0; i < nr; i++) {
        ss->B[(size_t)k * sx + (size_t)(nr + i)] = w.MG[(size_t)k * (size_t)nr + (size_t)i];
      }
    }
  }
  for (int o = 0; st == RD_OK && o < ny; o++) {
    st = output_row(lin, &outputs[o], rate, &w, row, row + nr, row + nx);
    for (int j = 0; st == RD_OK && j < nx; j++) {
      ss->C[(size_t)j * (size_t)ny + (size_t)o] = row[j];
    }
    for (int k = 0; st == RD_OK && k < nu; k++) {
      ss->D[(size_t)k * (size_t)ny + (size_t)o] = row[nx + k];
    }
  }
  free_work(ctx, &w);
  rd_free(ctx, rate);
  rd_free(ctx, row);
  if (st != RD_OK) {
    rd_destroyStateSpace(&ss);
    return st;
  }
  *out = ss;
  return RD_OK;
}


int rd_getStateSpace(const rdStateSpace* ss, int* nx, int* nu, int* ny, double* A, double* B,
                     double* C, double* D) {
  if (!rd_ssValid(ss)) {
    return RD_ERR_HANDLE;
  }
  size_t x = (size_t)ss->nx, u = (size_t)ss->nu, y = (size_t)ss->ny;
  if (nx) {
    *nx = ss->nx;
  }
  if (nu) {
    *nu = ss->nu;
  }
  if (ny) {
    *ny = ss->ny;
  }
  if (A) {
    memcpy(A, ss->A, sizeof(double) * x * x);
  }
  if (B) {
    memcpy(B, ss->B, sizeof(double) * x * u);
  }
  if (C) {
    memcpy(C, ss->C, sizeof(double) * y * x);
  }
  if (D) {
    memcpy(D, ss->D, sizeof(double) * y * u);
  }
  return RD_OK;
}
