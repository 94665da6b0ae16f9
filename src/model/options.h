// SPDX-License-Identifier: MIT
// Solver and output options, and the one key -> setter table behind deck, --set and API.
#ifndef RD_OPTIONS_H
#define RD_OPTIONS_H

#include "rodrigues/context.h"

// linear-solver backends (option solver.linear_solver)
typedef enum rdLinSolKind_ {
  RD_LINSOL_AUTO = 0,
  RD_LINSOL_KLU,
  RD_LINSOL_UMFPACK,
  RD_LINSOL_CHOLMOD,
  RD_LINSOL_DENSE
} rdLinSolKind;

// generalized-alpha constraint formulations (option solver.formulation)
typedef enum rdGaFormulation_ {
  RD_GA_INDEX3 = 0,  // position constraints only (Bruls-Cardona-Arnold 2012)
  RD_GA_STABILIZED   // stabilized index 2: position and velocity constraints (GGL)
} rdGaFormulation;

// the accelerations generalized-alpha starts from (option solver.initial_acceleration)
typedef enum rdGaInitialAcc_ {
  RD_GA_START_CONSISTENT = 0,  // solved from the equations of motion and the constraints
  RD_GA_START_ZERO             // zero node accelerations and multipliers (a start from rest)
} rdGaInitialAcc;

// frame of the generalized-alpha rotation update (option solver.rotation_frame)
typedef enum rdGaFrame_ {
  RD_GA_SPATIAL = 0,  // R = exp(psi) R_n, spatial angular velocities (default)
  RD_GA_BODY          // R = R_n exp(psi), body angular velocities (before issue 14)
} rdGaFrame;

// when full Newton stops (option solver.newton_test)
typedef enum rdNewtonTest_ {
  RD_NEWTON_ESTIMATE = 0,  // on the error estimated to remain in the iterate (default)
  RD_NEWTON_INCREMENT      // on the last correction alone
} rdNewtonTest;

// what to do with redundant constraint equations (option solver.redundant_constraints)
typedef enum rdRedundantMode_ {
  RD_REDUNDANT_REMOVE = 0,  // drop them, hold their multipliers at zero, report them
  RD_REDUNDANT_ERROR        // fail at initialization, naming them
} rdRedundantMode;

// options shared by every stepper live first; method-specific ones follow
typedef struct rdOptions_ {
  int method;                 // rdMethod
  double start_time;          // s
  double time_step;           // s, > 0 (adaptive: the first step and the output interval's unit)
  double final_time;          // s, >= start_time
  int max_step_cuts;          // times a step may be halved after a recoverable failure
  int adaptive;               // step size from the local error estimate (docs/generalized_alpha.md)
  double tolerance;           // error the local estimates of a run may add up to (m, rad)
  double max_step;            // adaptive: largest step (s); 0: no limit
  int output_every;           // steps between history rows
  int output_netcdf;          // also write history.nc (CLI)
  int output_netcdf_deflate;  // history.nc: deflate level 0..9 (0: none), shuffle when > 0
  int output_vtk;             // also write results.pvd and vtk/*.vtu (CLI)
  // newton (implicit steppers, static)
  int max_iter;          // Newton iterations per step
  double atol;           // Arnold-Hante absolute tolerance
  double rtol;           // Arnold-Hante relative tolerance
  int linear_solver;     // rdLinSolKind
  int modified_newton;   // keep the factorization while convergence is fast
  int newton_test;       // rdNewtonTest: when full Newton stops (generalized-alpha)
  int redundant;         // rdRedundantMode (generalized-alpha and static)
  double redundant_tol;  // relative pivot of the rank-revealing QR below which an equation is
                         // dependent
  // generalized-alpha
  double rho_inf;      // spectral radius at infinity, [0, 1]
  int formulation;     // rdGaFormulation
  int initial_acc;     // rdGaInitialAcc
  int rotation_frame;  // rdGaFrame
  // static
  int load_steps;  // initial number of load increments
  // rigid-body steppers: inner Newton solves for the incremental rotation / acceleration
  double rigid_tol;    // relative tolerance (solver.rigid_tolerance)
  int rigid_max_iter;  // iteration limit
  int threads;         // threads of the beam assembly (OpenMP builds): 0 = OpenMP's default
} rdOptions;

// fill with defaults
void rd_defaultOptions(rdOptions* opt);

// the current key of `key`: itself, or for a renamed key its new name, with a warning (once per
// context) prefixed by `where` ("FILE:LINE:COL", may be NULL)
const char* rd_optionKey(rdContext* ctx, const char* key, const char* where);

// renamed key i: its old and current names (either may be NULL); returns the count
int rd_optionDeprecated(int i, const char** old, const char** key);

// set option `key` (a renamed key too) from text; raises RD_ERR_ARG with a clear message on
// failure
int rd_optionSet(rdContext* ctx, rdOptions* opt, const char* key, const char* value);

// write option `key` as text into buf[0..size) (snprintf's truncation); the length of the whole
// text, or RD_ERR_ARG (not raised) for an unknown key or a NULL buffer with size > 0
int rd_optionGet(const rdOptions* opt, const char* key, char* buf, int size);

// rd_optionGet for the API (rd_getOption, rds_getOption; `fn` names it in messages): a renamed
// key read too; RD_OK, or RD_ERR_ARG raised for an unknown key, no buffer, or a buffer too
// short for the value (then buf gets "")
int rd_optionGetText(rdContext* ctx, const rdOptions* opt, const char* fn, const char* key,
                     char* buf, int size);

// numeric value of `key`, NaN if unknown or not numeric
double rd_optionReal(const rdOptions* opt, const char* key);

// index of option `key` in the table (the order of rd_optionList; option origins in the spec are
// stored by it), -1 if none
int rd_optionIndex(const char* key);

// name of value `value` of the enumerated option `key` ("klu" for solver.linear_solver = 1);
// NULL if the key is unknown or not an enumeration, or the value out of range
const char* rd_optionValueName(const char* key, int value);

#endif  // RD_OPTIONS_H
