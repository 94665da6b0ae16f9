// SPDX-License-Identifier: MIT
// VTK time series for ParaView: one XML UnstructuredGrid (.vtu, ASCII) per output time and a
// .pvd index of them.
#ifndef RODRIGUES_OUTPUT_VTK_H
#define RODRIGUES_OUTPUT_VTK_H

#include "rodrigues/export.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdVtk_ rdVtk;

// Start a VTK series in the existing directory `dir`: frames go to DIR/vtk/results_NNNNNN.vtu
// (DIR/vtk is created if missing), the index to DIR/results.pvd, which is written as a hidden
// partial file and appears only at rd_closeVtk(commit != 0). Every frame holds all model nodes
// as points; each beam element is a VTK_POLY_LINE through its nodes, every other node a
// VTK_VERTEX. A model with rigid bodies or joints also gets DIR/vtk/mechanism_NNNNNN.vtu per
// frame (part 1 of the index): each rigid body as its equivalent box (the uniform box of its
// mass and inertia: half extents sqrt(3 (J_j + J_k - J_i) / (2 m)) along the principal axes,
// centred at the centre of mass; a VTK_HEXAHEDRON) and its body frame (three VTK_LINE from the
// node along the body axes, 1.5 times the largest half extent long), each joint as a
// VTK_POLY_LINE from its first node through the joint point as carried by each node to its
// second node or ground point (fixed and prescribed joints: a VTK_VERTEX at the node; rigid and
// rotation control: a VTK_LINE between the nodes); cell data kind (0 box, 1 body axis, 2
// joint), axis (0..2 for a body axis, else -1), index (element or joint index). Point data of
// the results frames:
// displacement (from the initial position), rotation_vector and orientation (quaternion w,x,y,z;
// body to global), velocity and angular_velocity (global), section_force and section_moment (beam
// section frame; the quadrature-point values of rd_getBeamSectionForces interpolated linearly in
// the element coordinate to the nodes, extrapolated at the element ends and averaged where elements
// share a node; zero at nodes of no beam). All memory is allocated here. Returns RD_OK, RD_ERR_IO
// or RD_ERR_NOMEM.
RD_API int rd_createVtk(const rdModel* model, const char* dir, rdVtk** vtk);

// Write one frame for the current state (its own files, renamed into place when complete) and
// add it to the index. No allocation. Returns RD_OK, RD_ERR_IO or a kernel status.
RD_API int rd_writeVtk(rdVtk* vtk, const rdModel* model, const rdData* data);

// Close; commit != 0 renames the index into place (the frames are already there), commit == 0
// removes the index and every frame written (and DIR/vtk if rd_createVtk made it). Sets *vtk
// to NULL; accepts NULL. Returns RD_OK or RD_ERR_IO.
RD_API int rd_closeVtk(rdVtk** vtk, int commit);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_OUTPUT_VTK_H
