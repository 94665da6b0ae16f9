// SPDX-License-Identifier: MIT
// NMS: explicit Newmark in the spatial frame, Krysl & Endres 2005 §2.5 (equivalent to NMB).
#include <string.h>

#include "core.h"
#include "rigid.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

// R_n = exp(h w_{n-1} + h^2/2 a_{n-1}) R_{n-1};  i_n a_n - t_n + w_n x i_n w_n = 0 with
// i_n = R_n J R_n^T and w_n = w_{n-1} + h/2 (a_{n-1} + a_n), solved for a_n by Newton. The
// spatial w, a live in the stepper memory; the state keeps the body-frame W = R^T w, A = R^T a.
static int nms_step(const rdModel* m, rdData* d, double h) {
  rgView v;
  rg_view(m, d, &v);
  rdState* s = &d->s;
  double t1 = s->t + h;
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    const double* q = s->q + 7 * b->node + 3;
    double psi[3], vel[3];
    v3_scale(psi, mem->w, h);
    v3_axpy(psi, 0.5 * h * h, mem->al);
    rg_rotateLeft(sc->q, q, psi);
    v3_copy(vel, mem->vr);
    v3_axpy(vel, 0.5 * h, mem->ar);
    rg_translate(b, mem, h, vel);
    rg_placeNode(b, s->q, sc->q, mem->xr);
  }
  int st = rg_loads(m, d, &v, t1, s->q, 1);
  if (st != RD_OK) {
    return st;
  }
  int iters = 0;
  for (int i = 0; i < v.nb; i++) {
    const rgBody* b = &v.body[i];
    rgMem* mem = &v.mem[i];
    rgScratch* sc = &v.sc[i];
    double R[9], RJ[9], Js[9], wp[3], a[3], W[3], A[3];
    rdu_quatToMat(R, sc->q);
    m3_mul(RJ, R, b->J);
    m3_mult(Js, RJ, R);
    v3_copy(wp, mem->w);
    v3_axpy(wp, 0.5 * h, mem->al);
    v3_copy(a, mem->al);
    st = rg_solveAccel(m, &v, i, t1, Js, mem->tau, wp, h, a, &iters);
    if (st != RD_OK) {
      d->stats.newton_iterations += iters;
      return st;
    }
    v3_copy(mem->w, wp);
    v3_axpy(mem->w, 0.5 * h, a);
    v3_copy(mem->al, a);
    m3_tmulv(W, R, mem->w);
    m3_tmulv(A, R, mem->al);
    if (!b->pinned) {
      v3_axpy(mem->vr, 0.5 * h, mem->ar);
      v3_scale(mem->ar, mem->f, 1 / b->mass);
      v3_axpy(mem->vr, 0.5 * h, mem->ar);
    }
    rg_writeNode(b, mem, s, sc->q, W, A);
  }
  rg_countIterations(d, iters);
  return RD_OK;
}


const rdStepper rd_stepper_nms = {
    .method = RD_METHOD_NMS,
    .check = rg_check,
    .memory_size = rg_memorySize,
    .work_size = rg_workSize,
    .initialize = rg_initialize,
    .step = nms_step,
};
