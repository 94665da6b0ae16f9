// SPDX-License-Identifier: MIT
// Applied loads: gravity on bodies and masses, nodal dead and follower loads, torque laws.
#include <math.h>
#include <string.h>

#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "rodrigues/liegroup.h"
#include "src/math/vec3.h"

// spatial torque of the coulomb potential with soft wall (Krysl & Endres 2005, §3.6):
// (-(a + R33)^-2 + c (a + R33)^-11) (-R23, R13, 0)
static void coulomb_wall(double torque[3], const double R[9], double a, double c) {
  double s = a + R[8];
  double k = -1 / (s * s) + c * pow(s, -11);
  torque[0] = -k * R[5];
  torque[1] = k * R[2];
  torque[2] = 0;
}


static int torque_law(const rdModel* m, const rdTorqueLaw* tl, double t, const double* q,
                      double torque[3]) {
  double R[9];
  rdu_quatToMat(R, q + 7 * tl->def.node + 3);
  switch (tl->def.type) {
    case RD_TORQUE_COULOMB_WALL:
      coulomb_wall(torque, R, tl->def.param[0], tl->def.param[1]);
      return RD_OK;
    case RD_TORQUE_EXPRESSION: {
      double vars[10] = {t, R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]};
      for (int k = 0; k < 3; k++) {
        torque[k] = rd_exprEval(&tl->expr[k], vars);
      }
      return RD_OK;
    }
    case RD_TORQUE_CALLBACK: {
      int st = tl->def.callback(t, R, torque, tl->def.user);
      if (st > 0) {
        return RD_ERROR(m->ctx, RD_RECOVER_CALLBACK,
                        "torque law '%s' asked for a smaller step at t = %.17g", tl->def.name, t);
      }
      if (st < 0) {
        return RD_ERROR(m->ctx, RD_ERR_CALLBACK,
                        "torque law '%s' callback failed at t = %.17g (status %d)", tl->def.name,
                        t, st);
      }
      return RD_OK;
    }
    default:
      return RD_ERROR(m->ctx, RD_ERR_MODEL, "corrupt torque law '%s'", tl->def.name);
  }
}


// one host load callback: gather the node states (velocities global), call, scatter the loads
static int host_loads(const rdModel* m, rdData* d, const rdLoadCallbackDef* c, double t,
                      const double* q, const double* v, double* f) {
  int n = c->nnode;
  double* pose = d->cbuf;
  double* vel = pose + 7 * n;
  double* load = vel + 6 * n;
  for (int k = 0; k < n; k++) {
    int node = c->nodes[k];
    memcpy(pose + 7 * k, q + 7 * node, 7 * sizeof(double));
    v3_copy(vel + 6 * k, v + 6 * node);
    rdu_quatRotate(vel + 6 * k + 3, q + 7 * node + 3, v + 6 * node + 3);
  }
  memset(load, 0, 6 * (size_t)n * sizeof(double));
  int st = c->callback(t, n, c->nodes, pose, vel, load, c->user);
  if (st > 0) {
    return RD_ERROR(m->ctx, RD_RECOVER_CALLBACK, "load callback '%s' asked for a smaller step at "
                    "t = %.17g", c->name, t);
  }
  if (st < 0) {
    return RD_ERROR(m->ctx, RD_ERR_CALLBACK, "load callback '%s' failed at t = %.17g (status %d)",
                    c->name, t, st);
  }
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < 6; j++) {
      if (!isfinite(load[6 * k + j])) {
        return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE,
                        "load callback '%s' returned a non-finite load on node '%s' at t = %.17g",
                        c->name, m->node_name[c->nodes[k]], t);
      }
      f[6 * c->nodes[k] + j] += load[6 * k + j];
    }
  }
  return RD_OK;
}


// rd_evalLoads, with gravity or without
static int eval_loads(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                      double* f, int gravity) {
  memset(f, 0, 6 * (size_t)m->nnode * sizeof(double));
  d->stats.load_evaluations++;
  const double* g = m->gravity;
  int has_g = gravity && (g[0] != 0 || g[1] != 0 || g[2] != 0);
  // gravity: force m g at the centre of mass
  for (int e = 0; has_g && e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type == RD_ELEM_RIGID_BODY) {
      const rdRigidBodyDef* b = &def->u.body;
      double* fn = f + 6 * b->node;
      double w[3], rc[3], mom[3];
      v3_scale(w, g, b->mass);
      v3_add(fn, fn, w);
      rdu_quatRotate(rc, q + 7 * b->node + 3, b->com);
      v3_cross(mom, rc, w);
      v3_add(fn + 3, fn + 3, mom);
    } else if (def->type == RD_ELEM_POINT_MASS) {
      v3_axpy(f + 6 * def->u.mass.node, def->u.mass.mass, g);
    }
  }
  // nodal loads
  for (int i = 0; i < m->nload; i++) {
    const rdLoadDef* l = &m->load[i].def;
    double s;
    int st = rd_timeFnEval(m, l->timefn, t, &s);
    if (st != RD_OK) {
      return st;
    }
    double val[3];
    if (l->frame == RD_FRAME_BODY) {
      rdu_quatRotate(val, q + 7 * l->node + 3, l->value);
    } else {
      v3_copy(val, l->value);
    }
    v3_axpy(f + 6 * l->node + (l->kind == RD_LOAD_MOMENT ? 3 : 0), s, val);
  }
  // host callbacks: states of the node set in, force and moment per node out
  for (int i = 0; i < m->ncallback; i++) {
    int st = host_loads(m, d, &m->callback[i], t, q, v, f);
    if (st != RD_OK) {
      return st;
    }
  }
  // loads held by the host (rd_setNodeLoad)
  for (int k = 0; d->hostload_set && k < 6 * m->nnode; k++) {
    f[k] += d->hostload[k];
  }
  // torque laws
  for (int i = 0; i < m->ntorque; i++) {
    double torque[3];
    int st = torque_law(m, &m->torque[i], t, q, torque);
    if (st != RD_OK) {
      return st;
    }
    if (!isfinite(torque[0]) || !isfinite(torque[1]) || !isfinite(torque[2])) {
      return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE, "torque law '%s' is not finite at t = %.17g",
                      m->torque[i].def.name, t);
    }
    v3_add(f + 6 * m->torque[i].def.node + 3, f + 6 * m->torque[i].def.node + 3, torque);
  }
  return RD_OK;
}


int rd_evalLoads(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                 double* f) {
  return eval_loads(m, d, t, q, v, f, 1);
}


int rd_evalLoadsNoGravity(const rdModel* m, rdData* d, double t, const double* q,
                          const double* v, double* f) {
  return eval_loads(m, d, t, q, v, f, 0);
}


double rd_torqueLawPotential(const rdModel* m, const double* q) {
  double V = 0;
  for (int i = 0; i < m->ntorque; i++) {
    const rdTorqueLawDef* d = &m->torque[i].def;
    if (d->type == RD_TORQUE_COULOMB_WALL) {
      // V(R33) with dV/dR33 = -(a + R33)^-2 + c (a + R33)^-11
      double R[9];
      rdu_quatToMat(R, q + 7 * d->node + 3);
      double s = d->param[0] + R[8];
      V += 1 / s - d->param[1] / 10 * pow(s, -10);
    }
  }
  return V;
}
