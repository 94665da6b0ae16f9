// SPDX-License-Identifier: MIT
// Applied loads at the nodes: gravity on bodies and masses, nodal dead and follower loads, and
// the sums of host load callbacks (elements/host_load.c), loads held by the host and torque
// laws (elements/torque_law.c).
#include "elements/loads.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// rd_evalLoads, with gravity or without
static int eval_loads(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                      double* f, int gravity) {
  memset(f, 0, 6 * (size_t)m->nnode * sizeof(double));
  d->stats.load_evaluations++;
  // gravity times the body-load factor (static: the load factor of the analysis)
  double g[3];
  v3_scale(g, m->gravity, rd_bodyLoadFactor(m, t));
  int has_g = gravity && (g[0] != 0 || g[1] != 0 || g[2] != 0);
  // gravity: force m g at the centre of mass
  const unsigned char* skip = d->load_skip;
  for (int e = 0; has_g && e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type == RD_ELEM_RIGID_BODY) {
      if (skip && skip[def->u.body.node]) {
        continue;
      }
      const rdRigidBodyDef* b = &def->u.body;
      double* fn = f + 6 * b->node;
      double w[3], rc[3], mom[3];
      v3_scale(w, g, b->mass);
      v3_add(fn, fn, w);
      rdu_quatRotate(rc, q + 7 * b->node + 3, b->com);
      v3_cross(mom, rc, w);
      v3_add(fn + 3, fn + 3, mom);
    } else if (def->type == RD_ELEM_POINT_MASS && !(skip && skip[def->u.mass.node])) {
      v3_axpy(f + 6 * def->u.mass.node, def->u.mass.mass, g);
    }
  }
  // nodal loads
  for (int i = 0; i < m->nload; i++) {
    const rdLoadDef* l = &m->load[i].def;
    if (skip && skip[l->node]) {
      continue;
    }
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
    if (rd_loadSkipped(d, m->callback[i].nodes, m->callback[i].nnode)) {
      continue;
    }
    int st = rd_hostLoads(m, d, i, t, q, v, f);
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
    if (skip && skip[m->torque[i].def.node]) {
      continue;
    }
    int st = rd_torqueLawEval(m, i, t, q, v, torque);
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


int rd_evalLoadsNoGravity(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                          double* f) {
  return eval_loads(m, d, t, q, v, f, 0);
}
