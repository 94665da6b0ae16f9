// SPDX-License-Identifier: MIT
// Mechanical energy and momentum of the inertial elements.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "elements/element.h"
#include "elements/loads.h"
#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/data_impl.h"

// velocity of a body's centre of mass: v + R (W x c)
static void com_velocity(double vc[3], const double* q, const double* v, const double c[3]) {
  double wxc[3], r[3];
  v3_cross(wxc, v + 3, c);
  rdu_quatRotate(r, q + 3, wxc);
  v3_add(vc, v, r);
}


// position of a body's centre of mass: x + R c
static void com_position(double xc[3], const double* q, const double c[3]) {
  double r[3];
  rdu_quatRotate(r, q + 3, c);
  v3_add(xc, q, r);
}


// elastic energy of a spring: k1 e^2/2 + k2 e^3/3 + k3 e^4/4
static double spring_energy(const rdModel* m, const rdSpringDef* s, const double* q) {
  double xb[3], dx[3];
  if (s->node[1] == RD_GROUND) {
    v3_copy(xb, s->anchor);
  } else {
    v3_copy(xb, q + 7 * s->node[1]);
  }
  v3_sub(dx, xb, q + 7 * s->node[0]);
  double e = v3_norm(dx) - s->rest_length;
  (void)m;
  return e * e * (s->stiffness[0] / 2 + e * (s->stiffness[1] / 3 + e * s->stiffness[2] / 4));
}


// re-raise a kernel error with the beam's name (the message is copied first: it is overwritten)
static int beam_error(const rdModel* m, int e, int st, const char* fn) {
  char msg[RD_ERRLEN / 2];
  snprintf(msg, sizeof(msg), "%s", rd_lastError(m->ctx));
  return RD_ERROR(m->ctx, st, "%s: beam '%s': %s", fn, m->beam[e].def.name, msg);
}


int rd_getEnergy(const rdModel* m, const rdData* d, double* kinetic, double* potential) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  double ke = 0, pe = 0, g[3];
  v3_scale(g, m->gravity, rd_bodyLoadFactor(m, d->s.t));
  for (int e = 0; e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    switch (def->type) {
      case RD_ELEM_RIGID_BODY: {
        const rdRigidBodyDef* b = &def->u.body;
        const double* q = d->s.q + 7 * b->node;
        const double* v = d->s.v + 6 * b->node;
        double vc[3], xc[3], JW[3];
        com_velocity(vc, q, v, b->com);
        com_position(xc, q, b->com);
        m3_mulv(JW, b->inertia, v + 3);
        ke += 0.5 * b->mass * v3_dot(vc, vc) + 0.5 * v3_dot(v + 3, JW);
        pe -= b->mass * v3_dot(g, xc);
        break;
      }
      case RD_ELEM_POINT_MASS: {
        const rdPointMassDef* p = &def->u.mass;
        const double* v = d->s.v + 6 * p->node;
        ke += 0.5 * p->mass * v3_dot(v, v);
        pe -= p->mass * v3_dot(g, d->s.q + 7 * p->node);
        break;
      }
      case RD_ELEM_SPRING:
        pe += spring_energy(m, &def->u.spring, d->s.q);
        break;
      case RD_ELEM_BUSHING:
        pe += rd_bushingEnergy(m, &def->u.bushing, d->s.q);
        break;
      default:
        break;
    }
  }
  pe += rd_torqueLawPotential(m, d->s.q);
  // beams: strain and gravity potential, kinetic energy of the sections
  for (int e = 0; e < m->nbeam; e++) {
    double es, ek, eg;
    int st = rd_beamEnergy(m->beam[e].kernel, d->s.q, d->s.v, g, &es, &ek, &eg, NULL, NULL);
    if (st != RD_OK) {
      return beam_error(m, e, st, "rd_getEnergy");
    }
    ke += ek;
    pe += es + eg;
  }
  if (kinetic) {
    *kinetic = ke;
  }
  if (potential) {
    *potential = pe;
  }
  return RD_OK;
}


int rd_getMomentum(const rdModel* m, const rdData* d, double p[3], double L[3]) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  double pt[3] = {0, 0, 0}, Lt[3] = {0, 0, 0};
  for (int e = 0; e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type == RD_ELEM_RIGID_BODY) {
      const rdRigidBodyDef* b = &def->u.body;
      const double* q = d->s.q + 7 * b->node;
      const double* v = d->s.v + 6 * b->node;
      double vc[3], xc[3], JW[3], spin[3], lin[3], orb[3];
      com_velocity(vc, q, v, b->com);
      com_position(xc, q, b->com);
      m3_mulv(JW, b->inertia, v + 3);
      rdu_quatRotate(spin, q + 3, JW);
      v3_scale(lin, vc, b->mass);
      v3_cross(orb, xc, lin);
      v3_add(pt, pt, lin);
      v3_add(Lt, Lt, orb);
      v3_add(Lt, Lt, spin);
    } else if (def->type == RD_ELEM_POINT_MASS) {
      const rdPointMassDef* pm = &def->u.mass;
      double lin[3], orb[3];
      v3_scale(lin, d->s.v + 6 * pm->node, pm->mass);
      v3_cross(orb, d->s.q + 7 * pm->node, lin);
      v3_add(pt, pt, lin);
      v3_add(Lt, Lt, orb);
    }
  }
  for (int e = 0; e < m->nbeam; e++) {
    double pb[3], Lb[3];
    int st = rd_beamEnergy(m->beam[e].kernel, d->s.q, d->s.v, NULL, NULL, NULL, NULL, pb, Lb);
    if (st != RD_OK) {
      return beam_error(m, e, st, "rd_getMomentum");
    }
    v3_add(pt, pt, pb);
    v3_add(Lt, Lt, Lb);
  }
  if (p) {
    v3_copy(p, pt);
  }
  if (L) {
    v3_copy(L, Lt);
  }
  return RD_OK;
}


int rd_getBodyMomentum(const rdModel* m, const rdData* d, int i, double Pi[3]) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (i < 0 || i >= m->nnode || !Pi) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getBodyMomentum: bad node index %d or NULL output", i);
  }
  double sum[3] = {0, 0, 0};
  const double* q = d->s.q + 7 * i;
  const double* v = d->s.v + 6 * i;
  for (int e = 0; e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type != RD_ELEM_RIGID_BODY || def->u.body.node != i) {
      continue;
    }
    const rdRigidBodyDef* b = &def->u.body;
    double vc[3], vcb[3], JW[3], cx[3];
    com_velocity(vc, q, v, b->com);
    rdu_quatRotateInv(vcb, q + 3, vc);
    m3_mulv(JW, b->inertia, v + 3);
    v3_cross(cx, b->com, vcb);
    v3_add(sum, sum, JW);
    v3_axpy(sum, b->mass, cx);
  }
  v3_copy(Pi, sum);
  return RD_OK;
}
