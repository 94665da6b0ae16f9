// SPDX-License-Identifier: MIT
// Beam section forces at quadrature points, for outputs and hosts.
#include <string.h>

#include "solver/assemble.h"
#include "elements/beam.h"
#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "rodrigues/query.h"

int rd_getBeamSectionForces(const rdModel* m, rdData* d, int b, int* nq, double* x, double* F) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getBeamSectionForces: data of another model");
  }
  if (b < 0 || b >= m->nbeam || !nq) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getBeamSectionForces: beam %d out of range (%d "
                    "beams) or NULL count", b, m->nbeam);
  }
  const rdModelBeam* mb = &m->beam[b];
  *nq = rd_beamQuadPoints(mb->kernel);
  if (!x && !F) {
    return RD_OK;
  }
  // residual-only evaluation in the data's beam scratch (same layout as the assembly's)
  double *r, *S, *T, *work;
  rd_assembleBeamScratch(m, d, 0, mb->def.nnode, &r, &S, &T, &work);
  int st = rd_beamEvalWork(mb->kernel, work, d->s.q, d->s.v, d->s.vd, NULL, r, NULL, NULL, NULL);
  if (st != RD_OK) {
    return RD_ERROR(m->ctx, st, "beam '%s': section forces: %s", mb->def.name, rd_lastError(m->ctx));
  }
  for (int g = 0; g < *nq; g++) {
    double xg[3], Fg[6];
    rd_beamQuadForcesWork(mb->kernel, work, g, xg, Fg);
    if (x) {
      memcpy(x + 3 * g, xg, sizeof(xg));
    }
    if (F) {
      memcpy(F + 6 * g, Fg, sizeof(Fg));
    }
  }
  return RD_OK;
}
