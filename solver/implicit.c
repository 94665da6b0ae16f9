// SPDX-License-Identifier: MIT
// Shared pieces of the implicit steppers (generalized-alpha, static).
#include "solver/implicit.h"

#include "solver/assemble.h"
#include "solver/linsol.h"
#include "solver/pattern.h"
#include "solver/redundant.h"

int rd_implicitPrepare(rdModel* m) {
  int st = rd_jointLoops(m);
  st = st < 0 ? st : rd_beamColor(m);
  st = st < 0 ? st : rd_patternBuild(m);
  if (st >= 0) {
    st = m->linsol = rd_linsolChoose(m, m->opt.linear_solver);
  }
  return st;
}


void rd_implicitUnprepare(rdModel* m) {
  rd_free(m->ctx, m->beam_order);
  rd_free(m->ctx, m->beam_color);
  m->beam_order = NULL;
  m->beam_color = NULL;
  rd_patternDestroy(m);
}
