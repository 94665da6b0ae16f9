// SPDX-License-Identifier: MIT
// Beam reference lines (src/model/geometry.c): the builders behind rdu_beamLine*, which also say
// which argument is at fault, so that the deck can point at its key.
#ifndef RD_GEOMETRY_H
#define RD_GEOMETRY_H

#include "rodrigues/geometry.h"

// why a line could not be built
typedef struct rdLineFault_ {
  int arg;         // the argument at fault: straight 0 from, 1 to; arc 0 center, 1 start,
                   // 2 angle, 3 normal; spline the key point (-1: the count or the array)
  char text[256];  // the message, as rdu_beamLine* raise it
} rdLineFault;

// build a line; RD_OK, or RD_ERR_ARG with *fault filled (the line is then not built)
int rd_lineStraight(rdBeamLine* L, const double from[3], const double to[3], rdLineFault* fault);
int rd_lineArc(rdBeamLine* L, const double center[3], const double start[3], double angle,
               const double normal[3], rdLineFault* fault);
int rd_lineSpline(rdBeamLine* L, int npoint, const double* points, rdLineFault* fault);

#endif  // RD_GEOMETRY_H
