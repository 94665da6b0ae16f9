// SPDX-License-Identifier: MIT
// Host coupling conventions (elements/coupling.c), shared by host load callbacks
// (elements/host_load.c) and user elements (elements/user_element.c).
#ifndef RD_COUPLING_H
#define RD_COUPLING_H

#include <stddef.h>

#include "src/model/data_impl.h"

// the states of nodes[0..n-1] as a host sees them: pose (n x 7), velocity and angular velocity
// (n x 6, global) and, if vd is not NULL, acceleration and angular acceleration (n x 6, global:
// dw/dt = R dW/dt)
void rd_hostGather(int n, const int* nodes, const double* q, const double* v, const double* vd,
                   double* pose, double* vel, double* acc);

// convert the host's matrices of one node set (6n x 6n, row-major) from global to library
// increments. Columns of rigid node l: dtheta = R dTheta, w = R W with dw/dTheta = -R W~ at
// fixed W, dw/dt = R dW/dt with d(dw/dt)/dTheta = -R (dW/dt)~. Rows of rigid node k: moment rows
// times R^T. K, C, M may be NULL (then left out); C and M are read for K's rotation columns
// before they are converted.
void rd_hostToLibrary(const rdModel* m, int n, const int* nodes, const double* q, const double* v,
                      const double* vd, double* K, double* C, double* M);

// the 6n x 6n matrices of a callback (n = m->jac_maxnode; four of them) in d->cbuf, after the
// node states and loads (25 doubles per node of the largest callback or user element)
double* rd_hostMatrices(const rdModel* m, rdData* d);

// 1 if the n values are all finite
int rd_hostFinite(const double* x, size_t n);

// status of a host callback: RD_OK, or the error raised for it ("WHAT 'NAME' asked for a
// smaller step at t = ..." for st > 0, "WHAT 'NAME' failed at t = ... (status st)" for st < 0)
int rd_hostStatus(const rdModel* m, int st, const char* what, const char* name, double t);

#endif  // RD_COUPLING_H
