// SPDX-License-Identifier: MIT
// The mechanism part of the VTK series (src/io/vtk_mechanism.c): rigid bodies as their
// equivalent boxes and body frames, joints as lines between their points, one .vtu per frame.
#ifndef RD_VTK_MECHANISM_H
#define RD_VTK_MECHANISM_H

#include <stdio.h>

#include "src/model/data_impl.h"

typedef struct rdVtkMechanism_ rdVtkMechanism;

// the geometry of m's rigid bodies and joints that does not change (boxes in the body frame,
// joint points on their nodes); *out NULL (and RD_OK) when the model has neither. Returns
// RD_OK, RD_ERR_NOMEM or RD_ERR_LIBRARY (LAPACK).
int rd_vtkMechanismCreate(const rdModel* m, rdVtkMechanism** out);

void rd_vtkMechanismDestroy(rdContext* ctx, rdVtkMechanism** mech);

// write the mechanism at the current state as an ASCII XML UnstructuredGrid to f
void rd_vtkMechanismWrite(FILE* f, const rdVtkMechanism* mech, const rdModel* m, const rdData* d);

#endif  // RD_VTK_MECHANISM_H
