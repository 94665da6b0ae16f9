// SPDX-License-Identifier: MIT
// The rigid steppers' view of the model: body table, torques, node states, start.
//
// Rigid steppers' view of the model: the body table (rotation point, inertia about it), torques
// about the rotation points, node states, the consistent start.
#include <math.h>
#include <string.h>

#include "elements/loads.h"
#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// round up to a multiple of 64 bytes
static size_t round64(size_t n) {
  return (n + 63) & ~(size_t)63;
}


size_t rg_memorySize(const rdModel* m) {
  return (size_t)m->nbody * sizeof(rgMem);
}


size_t rg_viewBytes(int nb, int nn) {
  size_t b = (size_t)nb, n = (size_t)nn;
  return round64(sizeof(rgView)) + round64(b * sizeof(rgBody)) + round64(b * sizeof(rgScratch)) +
         round64(7 * n * sizeof(double));
}


rgView* rg_viewCarve(void* base, int nb, int nn) {
  rgView* v = base;
  char* p = base;
  p += round64(sizeof(rgView));
  v->nb = nb;
  v->body = (rgBody*)p;
  p += round64((size_t)nb * sizeof(rgBody));
  v->sc = (rgScratch*)p;
  p += round64((size_t)nb * sizeof(rgScratch));
  v->q = (double*)p;
  v->loads = NULL;
  v->ext = NULL;
  return v;
}


size_t rg_workSize(const rdModel* m) {
  return rg_viewBytes(m->nbody, m->nnode) + round64((size_t)m->nnode * sizeof(rgNodeMap));
}


// body table entry of element e, pinned by joint j (-1: free)
static void make_body(const rdModel* m, int e, int j, rgBody* b) {
  const rdRigidBodyDef* def = &m->elem[e].def.u.body;
  b->node = def->node;
  b->elem = e;
  b->moving = 0;
  b->mass = def->mass;
  memcpy(b->J, def->inertia, sizeof(b->J));
  b->pinned = j >= 0;
  if (b->pinned) {
    // r0 = R0^T (x0 - p): pivot -> node; c = r0 + com: pivot -> centre of mass
    const double* q0 = m->node_q0 + 7 * def->node;
    double d[3];
    v3_copy(b->p, m->joint[j].def.point);
    v3_sub(d, q0, b->p);
    rdu_quatRotateInv(b->r, q0 + 3, d);
    v3_add(b->c, b->r, def->com);
    double c2 = v3_dot(b->c, b->c);
    for (int i = 0; i < 3; i++) {
      for (int k = 0; k < 3; k++) {
        b->J[3 * i + k] += def->mass * ((i == k ? c2 : 0) - b->c[i] * b->c[k]);
      }
    }
  } else {
    memset(b->p, 0, sizeof(b->p));
    memset(b->c, 0, sizeof(b->c));
    v3_scale(b->r, def->com, -1);
  }
  b->rzero = b->r[0] == 0 && b->r[1] == 0 && b->r[2] == 0;
  v3_scale(b->mg, m->gravity, def->mass);
  b->czero = (b->c[0] == 0 && b->c[1] == 0 && b->c[2] == 0) ||
             (b->mg[0] == 0 && b->mg[1] == 0 && b->mg[2] == 0);
  const double* J = b->J;
  b->diag = J[1] == 0 && J[2] == 0 && J[3] == 0 && J[5] == 0 && J[6] == 0 && J[7] == 0;
  // SPD by the compiler's check (and the parallel-axis term is positive semi-definite)
  if (m3_spdInverse(b->Jinv, b->J)) {
    memset(b->Jinv, 0, sizeof(b->Jinv));
  }
  if (b->diag) {
    // (Jinv stays the Cholesky inverse, diagonal here: J (Jinv b) round trips of the momentum
    // with correctly rounded reciprocals instead drifted pi 3x faster on the free body)
    double jmin = fmin(J[0], fmin(J[4], J[8])), jmax = fmax(J[0], fmax(J[4], J[8]));
    b->jr2 = (jmin / jmax) * (jmin / jmax);
  }
}


rgView* rg_viewBuild(const rdModel* m, rdData* d) {
  rgView* v = rg_viewCarve(d->work, m->nbody, m->nnode);
  rgNodeMap* map = (rgNodeMap*)((char*)d->work + rg_viewBytes(m->nbody, m->nnode));
  v->mem = d->s.memory;
  v->method = rd_methodName(m->opt.method);
  v->others = m->nload > 0 || m->ncallback > 0 || m->ntorque > 0;
  rg_mapNodes(m, map);
  int k = 0;
  for (int i = 0; i < m->nnode && k < m->nbody; i++) {
    if (map[i].elem >= 0) {
      make_body(m, map[i].elem, map[i].pin, &v->body[k++]);
    }
  }
  v->built = 1;
  return v;
}


void rg_viewSubsystem(const rdModel* m, int k, rgView* v, rgMem* mem) {
  const rdSubsystem* sub = &m->sub[k];
  v->mem = mem;
  v->method = rd_methodName(sub->method);
  v->others = 0;
  for (int i = 0; i < sub->nbody; i++) {
    int node = sub->node[i], e = 0;
    while (m->elem[e].def.type != RD_ELEM_RIGID_BODY || m->elem[e].def.u.body.node != node) {
      e++;
    }
    rgBody* b = &v->body[i];
    make_body(m, e, sub->pivot[i], b);
    b->moving = b->pinned && sub->anchor[i] != RD_GROUND;
    if (b->moving) {
      // the weight's moment about the moving pivot is that of m (g - p''), not zero with g
      b->czero = b->c[0] == 0 && b->c[1] == 0 && b->c[2] == 0;
    }
  }
  v->built = 1;
}


static int loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out,
                 int body) {
  int generic = rg_generic(v, d);
  if (generic) {
    int st =
        v->loads ? v->loads(m, d, v, t, q) : rd_evalLoadsNoGravity(m, d, t, q, d->s.v, d->force);
    if (st != RD_OK) {
      return st;
    }
  } else {
    d->stats.load_evaluations++;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const double* fn = generic ? d->force + 6 * b->node : NULL;
    double* f = mem_out ? v->mem[i].f : v->sc[i].f;
    double* torque =
        body ? (mem_out ? v->mem[i].T : v->sc[i].T) : (mem_out ? v->mem[i].tau : v->sc[i].tau);
    rg_bodyLoad(b, q + 7 * b->node + 3, fn, body, torque, f);
  }
  return RD_OK;
}


int rg_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out) {
  return loads(m, d, v, t, q, mem_out, 0);
}


int rg_loadsBody(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out) {
  return loads(m, d, v, t, q, mem_out, 1);
}


// J A = T - W x J W from the body-frame torque T
static void euler_accel_body(const rgBody* b, const double W[3], const double T[3], double A[3]) {
  double JW[3], gyro[3], rhs[3];
  m3_mulv(JW, b->J, W);
  v3_cross(gyro, W, JW);
  v3_sub(rhs, T, gyro);
  m3_mulv(A, b->Jinv, rhs);
}


void rg_eulerAccel(const rgBody* b, const double q[4], const double W[3], const double tau[3],
                   double A[3]) {
  double T[3];
  q4_rotateInv(T, q, tau);
  euler_accel_body(b, W, T, A);
}


void rg_rotateRight(double out[4], const double q[4], const double psi[3]) {
  rg_expRight(out, q, psi);
}


void rg_trialBegin(const rdModel* m, const rdData* d, rgView* v) {
  if (rg_generic(v, d)) {
    memcpy(v->q, d->s.q, 7 * (size_t)m->nnode * sizeof(double));
  }
}


void rg_rotateLeft(double out[4], const double q[4], const double psi[3]) {
  double c;
  double k = rg_halfAngle(psi, &c);
  double dq[4] = {c, k * psi[0], k * psi[1], k * psi[2]};
  rg_quatMulNormalize(out, dq, q);
}


void rg_expRotate(double out[3], const double psi[3], const double a[3]) {
  double R[9], r[3];
  rdu_expSO3(R, psi);
  m3_mulv(r, R, a);
  v3_copy(out, r);
}


int rg_initialize(const rdModel* m, rdData* d) {
  return rg_initializeView(m, d, rg_view(m, d));
}


int rg_initializeView(const rdModel* m, rdData* d, rgView* v) {
  rdState* s = &d->s;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    memset(mem, 0, sizeof(*mem));
    const double* x = s->q + 7 * b->node;
    const double* q = x + 3;
    const double* W = s->v + 6 * b->node + 3;
    if (b->pinned) {
      // the node's translation follows from the rotation about p
      v3_copy(mem->xr, b->p);
    } else {
      double Rr[3], Wr[3], g[3];
      rdu_quatRotate(Rr, q, b->r);
      v3_sub(mem->xr, x, Rr);
      v3_cross(Wr, W, b->r);
      rdu_quatRotate(g, q, Wr);
      v3_sub(mem->vr, s->v + 6 * b->node, g);
    }
  }
  // the torque in both frames: one evaluation, the body frame by rotation
  int st = rg_loads(m, d, v, s->t, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    double q[4], W[3], A[3];
    memcpy(q, s->q + 7 * b->node + 3, sizeof(q));
    v3_copy(W, s->v + 6 * b->node + 3);
    q4_rotateInv(mem->T, q, mem->tau);
    euler_accel_body(b, W, mem->T, A);
    if (!b->pinned) {
      v3_scale(mem->ar, mem->f, 1 / b->mass);
    }
    rdu_quatRotate(mem->w, q, W);
    rdu_quatRotate(mem->al, q, A);
    mem->hh = 0;
    rg_writeNode(b, mem, s, q, W, A);
  }
  return RD_OK;
}


int rg_reloadView(const rdModel* m, rdData* d, rgView* v, int method) {
  rdState* s = &d->s;
  int st = rg_loads(m, d, v, s->t, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    const double* q = s->q + 7 * b->node + 3;
    q4_rotateInv(mem->T, q, mem->tau);
    if (!b->pinned) {
      v3_scale(mem->ar, mem->f, 1 / b->mass);
    }
    if (method == RD_METHOD_NMB || method == RD_METHOD_NMS) {
      double W[3], A[3], qq[4];
      memcpy(qq, q, sizeof(qq));
      v3_copy(W, s->v + 6 * b->node + 3);
      euler_accel_body(b, W, mem->T, A);
      rdu_quatRotate(mem->al, qq, A);
      rg_writeNode(b, mem, s, qq, W, A);
    }
  }
  return RD_OK;
}


rgStep rg_stepFor(int method) {
  switch (method) {
    case RD_METHOD_NMB:
      return rg_stepNmb;
    case RD_METHOD_NMS:
      return rg_stepNms;
    case RD_METHOD_LIEMID_E1:
      return rg_stepLiemidE1;
    case RD_METHOD_LIEMID_E2:
      return rg_stepLiemidE2;
    case RD_METHOD_LIEMID_EA:
      return rg_stepLiemidEa;
    case RD_METHOD_LIEMID_I:
      return rg_stepLiemidI;
    case RD_METHOD_SW:
      return rg_stepSw;
    case RD_METHOD_HSTAGM:
      return rg_stepHstagm;
    case RD_METHOD_AKW:
      return rg_stepAkw;
    default:
      return NULL;
  }
}
