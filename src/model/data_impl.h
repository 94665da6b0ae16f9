// SPDX-License-Identifier: MIT
// Private layout of rdData: the state that changes, and all workspace (allocated once).
#ifndef RD_DATA_IMPL_H
#define RD_DATA_IMPL_H

#include "rodrigues/simulate.h"
#include "src/core/core.h"
#include "src/model/model_impl.h"

// the moving ground frame of a prescribed motion at time t (constraints/prescribed.c): position,
// velocity, acceleration (global), rotation, angular velocity and acceleration (body). A pure
// function of t, kept between the evaluations at the same t (t NAN: none)
typedef struct rdMotionFrame_ {
  double t;
  double x[3], v[3], a[3], R[9], W[3], al[3];
} rdMotionFrame;

// the state proper: copied by rd_copyData, saved and restored around a cut step
typedef struct rdState_ {
  double t;        // time
  double* q;       // nnode x 7: position (global), quaternion (w,x,y,z) body -> global
  double* v;       // nnode x 6: velocity (global), angular velocity (BODY frame)
  double* vd;      // nnode x 6: acceleration (global), angular acceleration (BODY frame)
  double* a;       // nnode x 6: generalized-alpha auxiliary acceleration, same layout
  double* lambda;  // nconstraint: Lagrange multipliers
  void* memory;    // stepper memory that must survive between steps (stepper-defined)
} rdState;

struct rdData_ {
  uint32_t magic;
  const rdModel* model;
  rdContext* ctx;
  int initialized;
  rdState s;              // current state
  rdState saved;          // state at the start of the current (sub)step, for step cutting
  size_t memory_size;     // bytes of stepper memory (in s.memory and saved.memory)
  double* force;          // nnode x 6 scratch: applied force and moment (global) per node
  double* cbuf;           // scratch of callbacks and user elements: pose, velocity, acceleration,
                          // load (25 per node), then four 6n x 6n matrices (n = jac_maxnode)
  double* beamwork;       // scratch of the beam evaluations: nbeamslot slots (one per assembly
                          // thread) of model beam_work doubles, see rd_assembleBeamScratch; per
                          // data, so models are shared by threads
  int nbeamslot;          // rd_assembleBeamSlots(model)
  double* beamscale;      // nbeam: time-function factor of each beam's distributed load
  rdMotionFrame* motion;  // one per prescribed joint whose motion is a pure function of t (no
                          // callbacks), for the assembly (rd_dataMotionFrame); NULL: none
  int* motion_slot;       // njoint: the joint's frame in motion, or -1
  double* hostload;       // nnode x 6: loads held by rd_setNodeLoad (force, moment; global)
  int hostload_set;       // 1 once rd_setNodeLoad was called (else hostload is not read)
  const unsigned char* load_skip;  // nnode or NULL: loads and user elements acting on nodes
                                   // marked 1 only are left out of rd_evalLoads and the
                                   // assembly (mixed stepping sets it around each part's step)
  int in_step;                     // 1 between rd_stepBegin and rd_stepEnd
  double step_h;                   // the step of rd_stepBegin, as rd_step takes it: (t + h) - t
  double step_tend;                // t + h
  double step_error;  // local error estimate of the last step (m, rad), set by the stepper
                      // (NAN: none; simulate.c estimates it by step doubling)
  // the step-size controller (solver.adaptive): the next step, and 1 after a rejection (the
  // step may not grow); saved in checkpoints
  double ctrl_h;
  int ctrl_rejected;
  // adaptive: the largest Newton correction a step may leave (m, rad), a fraction of the error
  // the step may make, so that Newton's error stays below the estimate (0: none). Set by the
  // controller before each attempt, read by generalized-alpha's convergence test
  double newton_cap;
  // full Newton's estimate stop (solver.newton_test, generalized-alpha): the rate last measured
  // from a third or later iteration, a floor of the rate the stop assumes, and the stops on the
  // estimate left before a step confirms it again; copied with the data, saved in checkpoints
  double newton_rate;
  int newton_trust;
  rdState interp;     // adaptive: a row at an output time between steps, or a step's half
  int interp_active;  // 1 while d->s is swapped with interp for the observer
  void* work;         // stepper scratch, not part of the state
  size_t work_size;
  rdStats stats;
  rdStepCut cut[RD_STEPCUT_LOG];  // the first rejected steps (rd_getStepCut)
  int ncut;
  void* solver;  // stepper-owned objects of this data (a factorization); see rdStepper.attach
  struct rdRedundant_* redundant;  // workspace of the redundant-constraint checks (implicit
                                   // steppers with closed loops; solver/redundant.c)
  rdStepCallback step_cb;          // rd_setStepCallback: called by rd_advance after each step
  void* step_user;
  void* block;  // the single allocation behind every array above
};

// 1 if d is a live data object
static inline int rd_dataValid(const rdData* d) {
  return d && d->magic == RD_MAGIC_DATA;
}

// copy the arrays of one state into another of the same model
void rd_stateCopy(const rdModel* m, const rdData* d, rdState* dst, const rdState* src);

// the frame kept for joint j, or NULL (d NULL, or no frame for j)
static inline rdMotionFrame* rd_dataMotionFrame(const rdData* d, int j) {
  return d && d->motion && d->motion_slot[j] >= 0 ? d->motion + d->motion_slot[j] : NULL;
}

#endif  // RD_DATA_IMPL_H
