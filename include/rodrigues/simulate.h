// SPDX-License-Identifier: MIT
// The simulation state (rdData) and stepping: create data from a model, initialize, step,
// advance, query. One model may drive many rdData (ensembles, rollback, threads).
#ifndef RODRIGUES_SIMULATE_H
#define RODRIGUES_SIMULATE_H

#include "rodrigues/export.h"
#include "rodrigues/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdData_ rdData;

// Counters kept in the data; read them with rd_getStats.
typedef struct rdStats_ {
  long steps;                  // accepted steps
  long rejected_steps;         // steps cut and retried
  long newton_iterations;      // all Newton iterations (implicit steppers, rigid Newton solves)
  long factorizations;         // numeric factorizations
  long load_evaluations;       // evaluations of the applied loads / torques
  int last_newton_iterations;  // Newton iterations of the last accepted step
  double min_rcond;            // smallest reciprocal condition estimate seen (1 if none)
  double min_step;             // smallest step size used
  double wall_time;            // seconds spent inside rd_step / rd_advance
  int redundant_constraints;   // constraint equations found redundant by rd_initialize (removed:
                               // solver.redundant_constraints = remove; rd_getRedundantConstraints)
  int unchecked_constraints;   // equations on loops too large for the dense check (not checked)
  int max_newton_iterations;   // most Newton iterations of one accepted step
  double error_estimate;       // sum of the local error estimates of the accepted steps (m, rad):
                               // an estimate of the global error (docs/generalized_alpha.md)
  double max_local_error;      // largest local error estimate of an accepted step
  long error_rejections;       // steps rejected because the estimate was too large (adaptive)
  double max_step;             // largest step size used
  long substep_iterations;     // inner iterations of the rigid subsystems' sub-steps (mixed
                               // stepping, solver.subsystems): not in newton_iterations
} rdStats;

#define RD_STEPCUT_LOG 16      // rejected steps whose details a data keeps (the first ones)
#define RD_STEPCUT_REASON 320  // bytes of a rejection's reason, with the terminating 0

// One rejected step attempt: rd_step (and rd_advance) restored the state, halved the step and
// tried again; rd_stepEnd returned the status to the host instead.
typedef struct rdStepCut_ {
  double t;                        // start of the failed attempt
  double h;                        // its step size
  int status;                      // the recoverable status (RD_RECOVER_NEWTON, ...)
  char reason[RD_STEPCUT_REASON];  // the library's message: what failed and where (the node
                                   // or joint equation with the largest Newton correction,
                                   // the beam, the singular column), truncated
} rdStepCut;

// Create the state for `model`, set to the model's initial conditions, with all the workspace
// the model's method needs (nothing is allocated after this). Returns RD_OK, RD_ERR_ARG,
// RD_ERR_HANDLE, RD_ERR_NOMEM or RD_ERR_UNSUPPORTED (the method cannot handle the model; the
// message says why).
RD_API int rd_createData(const rdModel* model, rdData** data);

// Destroy the data and set *data to NULL. Accepts NULL. A stale copy of the handle is then
// refused (RD_ERR_HANDLE), and destroying it again does nothing (docs/api.md "Handles").
RD_API void rd_destroyData(rdData** data);

// Copy the complete state (time, configuration, velocities, accelerations, multipliers,
// integrator memory, statistics, loads held by rd_setNodeLoad) of `src` into `dst`; both made
// from the same model. Returns RD_OK, RD_ERR_ARG, RD_ERR_HANDLE or RD_ERR_STATE (src is inside
// a step, between rd_stepBegin and rd_stepEnd; dst may be, and leaves its step).
RD_API int rd_copyData(rdData* dst, const rdData* src);

// Reset the data to the model's initial conditions (not initialized). Returns RD_OK.
RD_API int rd_resetData(const rdModel* model, rdData* data);

// Initialize: compute consistent initial accelerations and multipliers at the start time.
// Must be called once before stepping (again after rd_resetData). Returns RD_OK or an error.
RD_API int rd_initialize(const rdModel* model, rdData* data);

// Advance by one step of size h > 0 (the model's solver.time_step if h == 0). Implicit steppers
// cut the step and retry internally on a recoverable failure (solver.max_step_cuts) and still
// end at t + h. With solver.adaptive the interval to t + h is covered by steps chosen from the
// local error estimate. Returns RD_OK, a negative error, or a positive status if recovery failed.
RD_API int rd_step(const rdModel* model, rdData* data, double h);

// ---------------------------------------------------------------------------------------------
// co-simulation: one step split into predictor -> host -> corrector

// Begin a step of size h (> 0; 0: the model's solver.time_step): save the state at t, run the
// predictor and enter the "in step" state. rd_getNodeState then reports the PREDICTED states at
// t + h (rd_time still gives t); the host may compute its loads from them and hold them with
// rd_setNodeLoad, or update what its time-function callbacks read (prescribed motions), before
// rd_stepEnd. Only generalized_alpha and static support the split (static predicts the current
// state); other methods give RD_ERR_UNSUPPORTED. RD_ERR_STATE before rd_initialize or when a
// step is already begun. rd_step, rd_advance, rd_initialize, rd_copyData from this data and
// checkpoints are refused (RD_ERR_STATE) until rd_stepEnd.
RD_API int rd_stepBegin(const rdModel* model, rdData* data, double h);

// End the step begun by rd_stepBegin: the corrector (Newton) and acceptance. RD_OK: the data is
// at t + h. Otherwise the data is restored to the state at t (there is no step cutting across
// the host boundary) and the status is returned: > 0 recoverable (redo with a smaller h, e.g.
// two halves, each a stepBegin/stepEnd pair), < 0 fatal. Either way the step is over.
// RD_ERR_STATE without a matching rd_stepBegin. Without host intervention, rd_stepBegin then
// rd_stepEnd gives bit for bit the results of rd_step (which in addition cuts failed steps).
// The host chooses h: solver.adaptive does not apply here (the step's error estimate is added to
// rdStats.error_estimate, to guide the host).
RD_API int rd_stepEnd(const rdModel* model, rdData* data);

// Hold a load on node `node`: force and moment about the node, both global (NULL: zero). It is
// added to the applied loads at every evaluation, stays constant during a step and is KEPT
// until changed by another call (set zero to remove it); it works with every method and also
// outside rd_stepBegin/rd_stepEnd. rd_copyData copies the held loads, rd_resetData clears them,
// checkpoints store them (rd_readCheckpoint restores them).
// Returns RD_OK, RD_ERR_ARG (node out of range, non-finite value) or RD_ERR_HANDLE.
RD_API int rd_setNodeLoad(const rdModel* model, rdData* data, int node, const double force[3],
                          const double moment[3]);

// Observer called by rd_advance after every `every`-th step and after the last one.
// Returns 0 to continue, non-zero to stop (rd_advance then returns RD_OK with time < tend).
typedef int (*rdObserver)(const rdModel* model, const rdData* data, void* user);

// Called by rd_advance after every accepted step (after the observer, if both are due), between
// steps, never inside one: return 0 to go on, non-zero to stop (rd_advance then returns RD_OK
// with the data at the end of that step, time < tend). For stop requests (the flag a signal
// handler sets: checked at every step, so a run stops within one step), progress and periodic
// checkpoints. It must not step or change the data; reading it (rd_getNodeState,
// rd_writeCheckpoint, rd_writeHistory, ...) is fine.
typedef int (*rdStepCallback)(const rdModel* model, const rdData* data, void* user);

// Set the step callback of `data` (fn NULL removes it); rd_copyData and rd_resetData leave it
// as it is. Returns RD_OK or RD_ERR_HANDLE.
RD_API int rd_setStepCallback(rdData* data, rdStepCallback fn, void* user);

// Advance to time `tend` with the model's time step (the last step is shortened to land on
// tend), calling `observer` (may be NULL) every output.every steps and at tend, and the data's
// step callback (rd_setStepCallback) after every step. With solver.adaptive the steps follow the
// local error estimate and the observer sees the state interpolated at start_time + k
// output.every time_step (and at tend); a checkpoint of such an interpolated state is refused
// (RD_ERR_STATE).
RD_API int rd_advance(const rdModel* model, rdData* data, double tend, rdObserver observer,
                      void* user);

// Current time.
RD_API double rd_time(const rdData* data);

// Whether rd_initialize has been called (1) or not (0).
RD_API int rd_isInitialized(const rdData* data);

// State of node `i`. Any output may be NULL. x: position (global); q: orientation quaternion
// (w,x,y,z), body -> global; v: velocity (global); w: angular velocity in the global frame;
// W: angular velocity in the body frame. Point nodes report identity and zero rotation.
// Returns RD_OK or RD_ERR_ARG.
RD_API int rd_getNodeState(const rdModel* model, const rdData* data, int i, double x[3],
                           double q[4], double v[3], double w[3], double W[3]);

// Mechanical energies: kinetic, potential (gravity, springs, bushings, conservative torque
// laws, beam strain energy). Beams add 1/2 [u; omega]^T M [u; omega] (kinetic) and
// 1/2 [Gamma; kappa]^T K [Gamma; kappa] (plus 1/2 c Gamma_1 kappa_1^2 with the extension-twist
// term) plus their gravity potential, integrated with the
// element's quadrature (distributed beam loads have no potential). Returns RD_OK or an error.
RD_API int rd_getEnergy(const rdModel* model, const rdData* data, double* kinetic,
                        double* potential);

// Total linear and angular momentum (angular about the global origin, global frame) of the
// rigid bodies, point masses and beams (the section momenta, integrated with the element's
// quadrature). Either output may be NULL.
RD_API int rd_getMomentum(const rdModel* model, const rdData* data, double p[3], double L[3]);

// Angular momentum about node `i` of the rigid bodies attached to it, in the node's body frame:
// Pi = sum J_c W + c x m R^T v_c (J_c inertia about the centre of mass, c its offset, v_c its
// velocity). For a body pinned at its node this is J_pivot W; for a free body whose node is its
// centre of mass, J_c W -- the body angular momentum of Krysl's benchmarks.
// Returns RD_OK or RD_ERR_ARG.
RD_API int rd_getBodyMomentum(const rdModel* model, const rdData* data, int i, double Pi[3]);

// Copy the statistics. Returns RD_OK or RD_ERR_ARG.
RD_API int rd_getStats(const rdData* data, rdStats* stats);

// Rejected step i (0: the first) since rd_createData / rd_resetData, for
// i < rd_stepCutCount(data). Returns RD_OK, RD_ERR_HANDLE or RD_ERR_ARG (i out of range).
RD_API int rd_getStepCut(const rdData* data, int i, rdStepCut* cut);

// Rejected steps whose details the data keeps: min(rejections, RD_STEPCUT_LOG) since
// rd_createData / rd_resetData (rd_copyData copies them; checkpoints do not carry them, while
// rdStats.rejected_steps is restored). 0 for an invalid handle.
RD_API int rd_stepCutCount(const rdData* data);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_SIMULATE_H
