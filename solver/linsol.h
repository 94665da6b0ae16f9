// SPDX-License-Identifier: MIT
// Sparse linear solvers behind one small ops table: analyse once, factor or refactor, solve.
#ifndef RD_LINSOL_H
#define RD_LINSOL_H

#include "rodrigues/model.h"
#include "src/core/core.h"

typedef struct rdLinSol_ rdLinSol;

// backend operations; `self` is the rdLinSol
typedef struct rdLinSolOps_ {
  const char* name;
  // symbolic analysis of the pattern (once)
  int (*analyze)(rdLinSol* s);
  // numeric factorization of values Ax (refactor if a previous one exists, falling back to a
  // full factorization when the pivots have gone bad); fills s->rcond and s->singular_col
  int (*factor)(rdLinSol* s, const double* Ax);
  // solve in place with the last factorization
  int (*solve)(rdLinSol* s, double* b);
  void (*destroy)(rdLinSol* s);
} rdLinSolOps;

struct rdLinSol_ {
  const rdLinSolOps* ops;
  rdContext* ctx;
  int kind;  // rdLinSolKind
  int n;
  const int* Ap;  // CSC pattern (borrowed, outlives the solver)
  const int* Ai;
  double rcond;             // reciprocal condition estimate of the last factorization
  int singular_col;         // column of a zero pivot (-1 if none)
  int factored;             // a usable factorization exists
  const void* owner;        // who the factorization belongs to (modified Newton)
  long nfactor;             // full factorizations
  long nrefactor;           // refactorizations
  long nrefactor_rejected;  // refactorizations whose solve was inaccurate (KLU: factored again)
  // the values of the last full factorization: a refactorization reuses its pivot order, so
  // it is part of the history a checkpoint must carry for an exact restart (KLU only; NULL
  // for backends that factor from scratch every time)
  double* pivot_values;  // Ap[n] values
  int has_pivots;        // pivot_values holds a factorization's values
  const rdModel* model;  // optional (set by the stepper): names unknowns in messages
  void* impl;            // backend data
};

// Create and analyse a solver of kind `kind` (RD_LINSOL_*; AUTO = KLU) for the n x n CSC
// pattern (Ap, Ai). CHOLMOD needs a structurally symmetric pattern and, at every
// factorization, a numerically symmetric matrix (RD_ERR_UNSUPPORTED otherwise); a matrix that is
// not positive definite is RD_RECOVER_SINGULAR with singular_col at the failing pivot.
// RD_ERR_NOMEM, RD_ERR_LIBRARY.
int rd_linsolCreate(rdContext* ctx, int kind, int n, const int* Ap, const int* Ai, rdLinSol** out);

// Factor values Ax (nnz). RD_OK, RD_RECOVER_SINGULAR (s->singular_col says where; not raised),
// RD_ERR_LIBRARY / RD_ERR_NOMEM (raised).
int rd_linsolFactor(rdLinSol* s, const double* Ax);

// Solve A x = b in place. RD_OK or RD_ERR_STATE (no factorization). KLU checks the residual of
// the first solve after a refactorization and, if it is not at round-off, factors afresh (a
// singular matrix then gives RD_RECOVER_SINGULAR); the values passed to rd_linsolFactor must
// still be in place for that solve.
int rd_linsolSolve(rdLinSol* s, double* b);

// Size in doubles of the factorization history (see pivot_values); 0 if the backend has none.
size_t rd_linsolHistorySize(const rdLinSol* s);

// Copy the history into buf (rd_linsolHistorySize doubles).
void rd_linsolSaveHistory(const rdLinSol* s, double* buf);

// Rebuild the factorization a history describes (a full factorization of the saved values), so
// that later refactorizations pivot exactly as in the run that saved it. RD_OK or a status.
int rd_linsolLoadHistory(rdLinSol* s, const double* buf);

// Destroy and set *s to NULL; accepts NULL.
void rd_linsolDestroy(rdLinSol** s);

// backends
extern const rdLinSolOps rd_linsolKlu;
extern const rdLinSolOps rd_linsolUmfpack;
extern const rdLinSolOps rd_linsolDense;
extern const rdLinSolOps rd_linsolCholmod;

// RD_OK if model m has a matrix pattern (RD_ERR_STATE otherwise) and backend `kind` can factor
// its iteration matrices (RD_ERR_UNSUPPORTED with the reason otherwise; CHOLMOD: no
// constraints, no rotational nodes). `who` (the stepper) starts the message.
int rd_linsolCheckModel(const rdModel* m, int kind, const char* who);

// The backend for model m: `kind` itself unless RD_LINSOL_AUTO, which is dense for models of at
// most RD_LINSOL_DENSE_OWN_MAX unknowns, CHOLMOD for models
// whose matrix is certainly symmetric (no joints, rotations, dampers or host Jacobians) with at
// least RD_LINSOL_CHOLMOD_MIN_DOF unknowns; else UMFPACK when AMD estimates at least
// RD_LINSOL_UMFPACK_MIN_WORK multiply-subtract pairs of LU per unknown (a mesh-like matrix);
// else KLU (measured: bench/ga_lattice, bench/ga_chain, docs/performance.md). Returns the kind,
// or RD_ERR_NOMEM. rd_compile stores the result in the model (rdModelInfo.linear_solver).
int rd_linsolChoose(const rdModel* m, int kind);

// AUTO picks CHOLMOD from this many unknowns on (bench/ga_lattice, three runs: 0.75-1.55x
// KLU's time per step at 192 unknowns, 0.61-0.74x at 375, 0.25-0.43x at 1536)
#define RD_LINSOL_CHOLMOD_MIN_DOF 300

// AUTO picks UMFPACK over KLU from this much LU work per unknown (AMD's estimate). Measured
// (bench/ga_lattice --damping 5): revolute chains 120-131 at every length, beam decks
// 360-2500; 3-D lattices 3109 at 375 unknowns (UMFPACK 1.24x KLU's time), 6304 at 648 (0.86x),
// 22617 at 1536 (0.40x)
#define RD_LINSOL_UMFPACK_MIN_WORK 5e3

// the dense backend factors with its own LU up to this many unknowns, with LAPACK above; AUTO
// picks it up to this size. Instructions per step against KLU's (callgrind, docs/performance.md,
// "Backends on small models"): heavy top (9 unknowns) 0.84, double pendulum (22) 0.71, slider
// crank (35) 0.63, composite cantilever B3 (36) 0.71, NREL 5-MW blade (42) 0.93, Bricard (60) 0.80
#define RD_LINSOL_DENSE_OWN_MAX 64

// smallest acceptable reciprocal condition estimate before a full refactorization
#define RD_LINSOL_RCOND_MIN 1e-14

// pivot ratio above which a factorization is accepted without a condition estimate
#define RD_LINSOL_PIVOT_RATIO_OK 1e-8

#endif  // RD_LINSOL_H
