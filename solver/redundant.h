// SPDX-License-Identifier: MIT
// Redundant constraint equations: the closed loops of the joint graph (compile), a rank-revealing
// QR of the loop equations at the initial configuration (rd_initialize), and the removal of the
// dependent equations from the residual and the iteration matrix (every assembly).
#ifndef RD_REDUNDANT_H
#define RD_REDUNDANT_H

#include "src/model/data_impl.h"

// a loop component is checked only if its dense Jacobian (DOFs x equations) has at most this
// many entries (32 MiB of doubles); larger ones are counted in rdStats.unchecked_constraints
#define RD_REDUNDANT_DENSE_MAX ((size_t)1 << 22)

// the removed equations of a component are chosen again at every step only up to this size
// (about 90 x 90: a dense QR of some 10^6 flops); larger components keep the initial choice
#define RD_REDUNDANT_TRACK_MAX ((size_t)1 << 13)

// a removed equation violated by more than this (times the loop's arm length, m; or rad) at a
// consistent configuration is in conflict with the kept ones: rd_redundantTrack refuses it
#define RD_REDUNDANT_CONFLICT 1e-6

// compile: the bridges of the joint graph (vertices: the nodes and the ground; edges: the
// joints) and the 2-edge-connected components of the rest. Sets rdJoint.loop and m->nloop,
// m->loop_rows. Only joints with loop > 0 can have redundant equations. RD_OK or RD_ERR_NOMEM.
int rd_redundantLoops(rdModel* m);

// bytes of stepper memory for the removal mask (one per constraint row; 0 without loops).
// The mask is part of the state: copied, restored after a cut step and checkpointed.
size_t rd_redundantMemorySize(const rdModel* m);

// per-data workspace d->redundant (the components and a dense matrix for the largest one), so
// that tracking in the time loop does not allocate; NULL without loops. RD_OK or RD_ERR_NOMEM.
int rd_redundantAttach(const rdModel* m, rdData* d);

// free d->redundant (accepts NULL)
void rd_redundantRelease(const rdModel* m, rdData* d);

// detect the dependent equations of every loop component at the state of d (time d->s.t):
// marks them in the mask (solver.redundant_constraints = remove) and sets
// d->stats.redundant_constraints and unchecked_constraints, or raises RD_ERR_MODEL naming them
// (= error). Allocates its workspace for the duration of the call. RD_OK or an error status.
int rd_redundantDetect(const rdModel* m, rdData* d);

// at the start of a step (state of d: a consistent configuration): choose again the removed
// equations of every component that has some, so that the kept ones stay well conditioned
// along the motion (the dependency of a loop changes with the configuration). An equation
// stays removed until keeping it is better by a factor of about 10 (RD_REDUNDANT_KEEP).
// Also checks that the removed equations still hold (RD_REDUNDANT_CONFLICT): RD_ERR_MODEL
// naming the joint if one does not. *changed = 1 if the mask changed. No allocation. RD_OK or
// an error status.
int rd_redundantTrack(const rdModel* m, rdData* d, int* changed);

// 1 if constraint row k (0-based, within the multipliers) is removed
int rd_redundantRemoved(const rdModel* m, const rdData* d, int k);

// hold the multipliers of the removed rows at zero: their residual rows (r, ndof + ncon, and
// gamma, ncon; either may be NULL) become 0 and, if Ax is not NULL, their rows and columns of
// the iteration matrix (pattern values) become the identity's. No-op without removed rows.
void rd_redundantMask(const rdModel* m, const rdData* d, double* r, double* gamma, double* Ax);

// the same for a square CSC matrix over the multipliers only (the stabilized formulation's
// correction matrix; Ap, Ai: its pattern) and a right-hand side rhs (ncon, may be NULL)
void rd_redundantMaskCon(const rdModel* m, const rdData* d, const int* Ap, const int* Ai,
                         double* Ax, double* rhs);

#endif  // RD_REDUNDANT_H
