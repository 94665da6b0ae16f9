// SPDX-License-Identifier: MIT
// What the implicit steppers (generalized-alpha, static) share: the model-time preparation
// (joint loops, beam colours, iteration-matrix pattern, linear-solver choice) and its release.
#ifndef RD_IMPLICIT_H
#define RD_IMPLICIT_H

#include "src/model/model_impl.h"

// rdStepper.prepare of the implicit methods: the closed loops of the joint graph
// (rd_jointLoops), the beam colour groups (rd_beamColor), the iteration-matrix pattern with its
// scatter maps (m->pattern) and the linear solver (m->linsol, `auto` resolved). RD_OK or
// RD_ERR_NOMEM.
int rd_implicitPrepare(rdModel* m);

// rdStepper.unprepare of the implicit methods: free what rd_implicitPrepare made (accepts a
// model it did not finish)
void rd_implicitUnprepare(rdModel* m);

#endif  // RD_IMPLICIT_H
