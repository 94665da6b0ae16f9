// SPDX-License-Identifier: MIT
// What the implicit steppers (generalized-alpha, static) share: the model-time preparation
// (joint loops, beam colours, iteration-matrix pattern, linear-solver choice), the per-data
// linear solver and redundant-constraint workspace, the scratch arrays both carve, the
// configuration update and the bookkeeping of a factorization.
#ifndef RD_IMPLICIT_H
#define RD_IMPLICIT_H

#include "solver/linsol.h"
#include "src/model/data_impl.h"

// rdStepper.prepare of the implicit methods: the closed loops of the joint graph
// (rd_redundantLoops), the beam colour groups (rd_assembleBeamColors), the iteration-matrix
// pattern with its scatter maps (m->pattern) and the linear solver (m->linsol, `auto`
// resolved). RD_OK or RD_ERR_NOMEM.
int rd_implicitPrepare(rdModel* m);

// rdStepper.unprepare of the implicit methods: free what rd_implicitPrepare made (accepts a
// model it did not finish)
void rd_implicitUnprepare(rdModel* m);

// the data's linear solver for the model's pattern in *ls (none for an empty pattern) and the
// redundant-constraint workspace (rd_redundantAttach): the shared part of the attach hooks.
// RD_OK or an error; what was made is freed by rd_implicitRelease.
int rd_implicitAttach(const rdModel* m, rdData* d, rdLinSol** ls);

// free what rd_implicitAttach made (ls may be NULL)
void rd_implicitRelease(const rdModel* m, rdData* d, rdLinSol** ls);

// the scratch arrays both implicit steppers carve first out of d->work
typedef struct rdImplicitWork_ {
  double* r;    // ndof + nconstraint: residual
  double* sol;  // ndof + nconstraint: right-hand side, then solution
  double* Ax;   // the iteration matrix (values of the pattern)
  double* dq;   // nnode x 6: the update q = q_n o exp(h dq) (generalized-alpha: dq of
                // Algorithm 1; static: h = 1, the increment of the load step)
  double* psi;  // nnode x 3: the rotation part of the update, for the tangent operators
  double* qn;   // nnode x 7: the configuration q_n the update starts from
} rdImplicitWork;

// carve w from c (c->base NULL: only count)
void rd_implicitCarve(rdCarve* c, const rdModel* m, rdImplicitWork* w);

// q = q_n o exp(h dq + cor): x_n + h dq_t + cor_t, R_n exp(h dq_r + cor_r), and
// psi = h dq_r + cor_r (cor: a correction in node layout, or NULL)
void rd_implicitUpdate(const rdModel* m, const double* qn, const double* dq, const double* cor,
                       double h, double* q, double* psi);

// rd_implicitUpdate in either frame: spatial 1 turns by exp(psi) R_n instead of R_n exp(psi)
void rd_implicitUpdateFrame(const rdModel* m, const double* qn, const double* dq, const double* cor,
                            double h, int spatial, double* q, double* psi);

// factor Ax into ls for data d: counts the factorization and, after a success, records its
// rcond in d->stats.min_rcond; ls belongs to d afterwards (ls->owner) unless it was singular.
// The status of rd_linsolFactor (> 0: singular).
int rd_implicitFactor(rdData* d, rdLinSol* ls, const double* Ax);

// The scale of the constraint blocks of a Newton matrix on the model's pattern (values Ax): the
// mean |diagonal| of the node block. K can be 1e11 (steel beams) while B is O(1); unscaled,
// [K B^T; B 0] is then singular to working precision (the twisted cantilever of
// docs/benchmarks.md B4 failed). The system solved is [K sB^T; sB 0] [dx; dl/s] = [-r; -s phi].
// 1 if the diagonal is empty or not finite.
double rd_implicitConstraintScale(const rdModel* m, const double* Ax);

// multiply the B and B^T blocks of the pattern values Ax by s
void rd_implicitScaleConstraints(const rdModel* m, double* Ax, double s);

// add the scaled error e of unknown k to the sum of squares of the error norm, remembering the
// unknown with the largest (*worst, for the message when Newton does not converge)
static inline void rd_implicitNormAdd(double e, int k, double* sum, double* big, int* worst) {
  *sum += e * e;
  if (e * e > *big) {
    *big = e * e;
    *worst = k;
  }
}

#endif  // RD_IMPLICIT_H
