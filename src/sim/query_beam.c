// SPDX-License-Identifier: MIT
// Beam section forces at quadrature points, for outputs and hosts.
#include <string.h>

#include "src/sim/query_beam.h"

#include "elements/beam.h"
#include "rodrigues/query.h"
#include "solver/assemble.h"
#include "src/core/core.h"

size_t rd_beamSectionWork(const rdModel* m, int nbeam, int* maxq, int* nq) {
  size_t work = 0;
  int most = 0, all = 0;
  for (int b = 0; b < nbeam && b < m->nbeam; b++) {
    const rdBeam* k = m->beam[b].kernel;
    size_t need = 6 * (size_t)m->beam[b].def.nnode + rd_beamWorkSize(k);
    work = need > work ? need : work;
    most = rd_beamQuadPoints(k) > most ? rd_beamQuadPoints(k) : most;
    all += rd_beamQuadPoints(k);
  }
  if (maxq) {
    *maxq = most;
  }
  if (nq) {
    *nq = all;
  }
  return work;
}


int rd_beamSectionForcesIn(const rdModel* m, const rdData* d, int b, double* r, double* work,
                           double* x, double* F) {
  const rdBeam* k = m->beam[b].kernel;
  int st = rd_beamEvalWork(k, work, d->s.q, d->s.v, d->s.vd, NULL, r, NULL, NULL, NULL);
  if (st != RD_OK) {
    return st;
  }
  int nq = rd_beamQuadPoints(k);
  for (int g = 0; g < nq; g++) {
    double xg[3], Fg[6];
    rd_beamQuadForcesWork(k, work, g, xg, Fg);
    if (x) {
      memcpy(x + 3 * g, xg, sizeof(xg));
    }
    if (F) {
      memcpy(F + 6 * g, Fg, sizeof(Fg));
    }
  }
  return RD_OK;
}


void rd_beamQuadInterp(const rdBeam* b, double xi, int* g0, double* t) {
  int nq = rd_beamQuadPoints(b);
  if (nq == 1) {
    *g0 = 0;
    *t = 0;
    return;
  }
  int g = 0;
  while (g < nq - 2 && rd_beamQuadXi(b, g + 1) < xi) {
    g++;
  }
  double a = rd_beamQuadXi(b, g), c = rd_beamQuadXi(b, g + 1);
  *g0 = g;
  *t = (xi - a) / (c - a);
}


int rd_beamSectionLoadIn(const rdModel* m, const rdData* d, int b, double s, double* r,
                         double* work, double F[6]) {
  const rdBeam* k = m->beam[b].kernel;
  int st = rd_beamEvalWork(k, work, d->s.q, d->s.v, d->s.vd, NULL, r, NULL, NULL, NULL);
  if (st != RD_OK) {
    return st;
  }
  int g;
  double t, x[3], F0[6], F1[6];
  rd_beamQuadInterp(k, 2 * s - 1, &g, &t);
  rd_beamQuadForcesWork(k, work, g, x, F0);
  if (rd_beamQuadPoints(k) == 1) {
    memcpy(F, F0, sizeof(F0));
    return RD_OK;
  }
  rd_beamQuadForcesWork(k, work, g + 1, x, F1);
  for (int j = 0; j < 6; j++) {
    F[j] = (1 - t) * F0[j] + t * F1[j];
  }
  return RD_OK;
}


int rd_getBeamSectionLoad(const rdModel* m, rdData* d, int b, double s, double F[6]) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getBeamSectionLoad: data of another model");
  }
  if (b < 0 || b >= m->nbeam || !F || !(s >= 0 && s <= 1)) {
    return RD_ERROR(m->ctx, RD_ERR_ARG,
                    "rd_getBeamSectionLoad: beam %d out of range (%d beams), s = %g outside "
                    "[0, 1] or NULL output",
                    b, m->nbeam, s);
  }
  const rdModelBeam* mb = &m->beam[b];
  double *r, *S, *T, *work;
  rd_assembleBeamScratch(m, d, 0, mb->def.nnode, &r, &S, &T, &work);
  int st = rd_beamSectionLoadIn(m, d, b, s, r, work, F);
  if (st != RD_OK) {
    return RD_ERROR(m->ctx, st, "beam '%s': section loads: %s", mb->def.name, rd_lastError(m->ctx));
  }
  return RD_OK;
}


int rd_getBeamSectionForces(const rdModel* m, rdData* d, int b, int* nq, double* x, double* F) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getBeamSectionForces: data of another model");
  }
  if (b < 0 || b >= m->nbeam || !nq) {
    return RD_ERROR(m->ctx, RD_ERR_ARG,
                    "rd_getBeamSectionForces: beam %d out of range (%d "
                    "beams) or NULL count",
                    b, m->nbeam);
  }
  const rdModelBeam* mb = &m->beam[b];
  *nq = rd_beamQuadPoints(mb->kernel);
  if (!x && !F) {
    return RD_OK;
  }
  // residual-only evaluation in the data's beam scratch (same layout as the assembly's)
  double *r, *S, *T, *work;
  rd_assembleBeamScratch(m, d, 0, mb->def.nnode, &r, &S, &T, &work);
  int st = rd_beamSectionForcesIn(m, d, b, r, work, x, F);
  if (st != RD_OK) {
    return RD_ERROR(m->ctx, st, "beam '%s': section forces: %s", mb->def.name,
                    rd_lastError(m->ctx));
  }
  return RD_OK;
}
