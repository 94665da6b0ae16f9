// SPDX-License-Identifier: MIT
// The rigid steppers' view of the model: body table, torques, node states, start.
//
// Rigid steppers' view of the model: the body table (rotation point, inertia about it), torques
// about the rotation points, node states, the consistent start.
#include <math.h>
#include <string.h>

#include "core.h"
#include "rigid.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

// round up to a multiple of 64 bytes
static size_t round64(size_t n) {
  return (n + 63) & ~(size_t)63;
}


size_t rg_memorySize(const rdModel* m) {
  return (size_t)m->nbody * sizeof(rgMem);
}


size_t rg_workSize(const rdModel* m) {
  size_t nb = (size_t)m->nbody, nn = (size_t)m->nnode;
  return 64 + round64(nb * sizeof(rgBody)) + round64(nb * sizeof(rgScratch)) +
         round64(7 * nn * sizeof(double)) + round64(nn * sizeof(rgNodeMap));
}


// body table entry of element e, pinned by joint j (-1: free)
static void make_body(const rdModel* m, int e, int j, rgBody* b) {
  const rdRigidBodyDef* def = &m->elem[e].def.u.body;
  b->node = def->node;
  b->elem = e;
  b->mass = def->mass;
  memcpy(b->J, def->inertia, sizeof(b->J));
  b->pinned = j >= 0;
  if (b->pinned) {
    // r0 = R0^T (x0 - p): pivot -> node; cp = r0 + com: pivot -> centre of mass
    const double* q0 = m->node_q0 + 7 * def->node;
    double d[3], cp[3];
    v3_copy(b->p, m->joint[j].def.point);
    v3_sub(d, q0, b->p);
    rdu_quatRotateInv(b->r, q0 + 3, d);
    v3_add(cp, b->r, def->com);
    double c2 = v3_dot(cp, cp);
    for (int i = 0; i < 3; i++) {
      for (int k = 0; k < 3; k++) {
        b->J[3 * i + k] += def->mass * ((i == k ? c2 : 0) - cp[i] * cp[k]);
      }
    }
  } else {
    memset(b->p, 0, sizeof(b->p));
    v3_scale(b->r, def->com, -1);
  }
  b->rzero = b->r[0] == 0 && b->r[1] == 0 && b->r[2] == 0;
  // SPD by the compiler's check (and the parallel-axis term is positive semi-definite)
  if (m3_spdInverse(b->Jinv, b->J)) {
    memset(b->Jinv, 0, sizeof(b->Jinv));
  }
}


void rg_view(const rdModel* m, rdData* d, rgView* v) {
  char* p = d->work;
  size_t nb = (size_t)m->nbody, nn = (size_t)m->nnode;
  int* built = (int*)p;
  p += 64;
  v->nb = m->nbody;
  v->body = (rgBody*)p;
  p += round64(nb * sizeof(rgBody));
  v->sc = (rgScratch*)p;
  p += round64(nb * sizeof(rgScratch));
  v->q = (double*)p;
  p += round64(7 * nn * sizeof(double));
  rgNodeMap* map = (rgNodeMap*)p;
  v->mem = d->s.memory;
  v->method = rd_methodName(m->opt.method);
  // the table depends on the model only: built once per rdData (the workspace starts zeroed)
  if (!*built) {
    rg_mapNodes(m, map);
    int k = 0;
    for (int i = 0; i < m->nnode && k < m->nbody; i++) {
      if (map[i].elem >= 0) {
        make_body(m, map[i].elem, map[i].pin, &v->body[k++]);
      }
    }
    *built = 1;
  }
}


int rg_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q, int mem_out) {
  int st = rd_evalLoads(m, d, t, q, d->s.v, d->force);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const double* f = d->force + 6 * b->node;
    double* tau = mem_out ? v->mem[i].tau : v->sc[i].tau;
    // torque about the rotation point: M + (x_node - x_r) x F, with x_node - x_r = R r
    if (b->rzero) {
      v3_copy(tau, f + 3);
    } else {
      double Rr[3], arm[3];
      rg_qrot(Rr, q + 7 * b->node + 3, b->r);
      v3_cross(arm, Rr, f);
      v3_add(tau, f + 3, arm);
    }
    v3_copy(mem_out ? v->mem[i].f : v->sc[i].f, f);
  }
  return RD_OK;
}


void rg_placeNode(const rgBody* b, double* q, const double qb[4], const double xr[3]) {
  double* qn = q + 7 * b->node;
  if (b->rzero) {
    v3_copy(qn, xr);
  } else {
    double Rr[3];
    rg_qrot(Rr, qb, b->r);
    v3_add(qn, xr, Rr);
  }
  memcpy(qn + 3, qb, 4 * sizeof(double));
}


void rg_writeNode(const rgBody* b, const rgMem* mem, rdState* s, const double q[4],
                  const double W[3], const double A[3]) {
  double* v = s->v + 6 * b->node;
  double* a = s->vd + 6 * b->node;
  double Wr[3], WWr[3], Ar[3], g[3];
  rg_placeNode(b, s->q, q, mem->xr);
  v3_copy(v + 3, W);
  v3_copy(a + 3, A);
  if (b->rzero) {
    v3_copy(v, mem->vr);
    v3_copy(a, mem->ar);
    return;
  }
  // v = v_r + R (W x r);  a = a_r + R (A x r + W x (W x r))
  v3_cross(Wr, W, b->r);
  rg_qrot(g, q, Wr);
  v3_add(v, mem->vr, g);
  v3_cross(WWr, W, Wr);
  v3_cross(Ar, A, b->r);
  v3_add(Ar, Ar, WWr);
  rg_qrot(g, q, Ar);
  v3_add(a, mem->ar, g);
}


void rg_eulerAccel(const rgBody* b, const double q[4], const double W[3], const double tau[3],
                   double A[3]) {
  double T[3], JW[3], gyro[3], rhs[3];
  rg_qrotInv(T, q, tau);
  m3_mulv(JW, b->J, W);
  v3_cross(gyro, W, JW);
  v3_sub(rhs, T, gyro);
  m3_mulv(A, b->Jinv, rhs);
}


void rg_translate(const rgBody* b, rgMem* mem, double dt, const double vel[3]) {
  if (!b->pinned) {
    v3_axpy(mem->xr, dt, vel);
  }
}


void rg_kick(const rgBody* b, rgMem* mem, double dt, const double f[3]) {
  if (!b->pinned) {
    v3_axpy(mem->vr, dt / b->mass, f);
  }
}


void rg_mulNormalize(double out[4], const double a[4], const double b[4]) {
  double r[4];
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  double n = 1.0 / sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  out[0] = r[0] * n, out[1] = r[1] * n, out[2] = r[2] * n, out[3] = r[3] * n;
}


void rg_rotateRight(double out[4], const double q[4], const double psi[3]) {
  double s, c;
  double k = rg_halfAngle(psi, &s, &c);
  double dq[4] = {c, k * psi[0], k * psi[1], k * psi[2]};
  rg_mulNormalize(out, q, dq);
}


void rg_trialBegin(const rdModel* m, const rdData* d, rgView* v) {
  memcpy(v->q, d->s.q, 7 * (size_t)m->nnode * sizeof(double));
}


// x * 0 summed over n numbers: 0 if all are finite, NaN otherwise
static double zero_sum(const double* x, int n) {
  double z = 0;
  for (int i = 0; i < n; i++) {
    z += x[i] * 0.0;
  }
  return z;
}


int rg_commit(const rdModel* m, rdData* d, rgView* v, double t, int spatial) {
  for (int i = 0; i < v->nb; i++) {
    const rgScratch* sc = &v->sc[i];
    double z = zero_sum(sc->q, 4) + zero_sum(sc->tau, 3) + zero_sum(sc->f, 3) +
               zero_sum(sc->xr, 3) + zero_sum(sc->vr, 3) + zero_sum(sc->ar, 3) +
               zero_sum(sc->W, 3) + zero_sum(sc->A, 3);
    if (spatial) {
      z += zero_sum(sc->w, 3) + zero_sum(sc->al, 3);
    }
    int ok = z == 0;
    if (!ok) {
      const rgBody* b = &v->body[i];
      return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                      "method '%s': non-finite state of body '%s' (node '%s') at t = %.17g",
                      v->method, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t);
    }
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    const rgScratch* sc = &v->sc[i];
    rgMem* mem = &v->mem[i];
    v3_copy(mem->tau, sc->tau);
    v3_copy(mem->f, sc->f);
    v3_copy(mem->xr, sc->xr);
    v3_copy(mem->vr, sc->vr);
    v3_copy(mem->ar, sc->ar);
    if (spatial) {
      v3_copy(mem->w, sc->w);
      v3_copy(mem->al, sc->al);
    }
    rg_writeNode(b, mem, &d->s, sc->q, sc->W, sc->A);
  }
  return RD_OK;
}


void rg_rotateLeft(double out[4], const double q[4], const double psi[3]) {
  double s, c;
  double k = rg_halfAngle(psi, &s, &c);
  double dq[4] = {c, k * psi[0], k * psi[1], k * psi[2]};
  rg_mulNormalize(out, dq, q);
}


void rg_expRotate(double out[3], const double psi[3], const double a[3]) {
  double R[9], r[3];
  rdu_expSO3(R, psi);
  m3_mulv(r, R, a);
  v3_copy(out, r);
}


int rg_initialize(const rdModel* m, rdData* d) {
  rgView v;
  rg_view(m, d, &v);
  rdState* s = &d->s;
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
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
  int st = rg_loads(m, d, &v, s->t, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
    double q[4], W[3], A[3];
    memcpy(q, s->q + 7 * b->node + 3, sizeof(q));
    v3_copy(W, s->v + 6 * b->node + 3);
    rg_eulerAccel(b, q, W, mem->tau, A);
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
