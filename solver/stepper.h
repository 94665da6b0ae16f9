// SPDX-License-Identifier: MIT
// The time-stepper interface shared by every method (rigid-body steppers, generalized-alpha,
// static). One ops table per method; rd_step / rd_advance dispatch through it.
#ifndef RD_STEPPER_H
#define RD_STEPPER_H

#include <stddef.h>

#include "src/model/data_impl.h"

typedef struct rdStepper_ {
  int method;  // rdMethod
  // 1: step() changes nothing in d->s unless it returns RD_OK, and checks that every number it
  // writes is finite (else a recoverable RD_RECOVER_NONFINITE, state untouched); rd_step then
  // neither saves the state before a step nor scans it after. 0: rd_step saves the state
  // before every attempt, restores it on failure and checks the whole state after success.
  int atomic;
  // the method's model-time preparation, called by rd_compile once the model is complete (the
  // implicit methods: joint loops, beam colours, iteration-matrix pattern, linear solver); RD_OK
  // or an error; may be NULL
  int (*prepare)(rdModel* m);
  // free what prepare made; called by rd_destroyModel, also for a model whose prepare failed or
  // never ran; may be NULL
  void (*unprepare)(rdModel* m);
  // RD_OK if the method can integrate the model; otherwise raise RD_ERR_UNSUPPORTED saying why
  int (*check)(const rdModel* m);
  // bytes of stepper memory kept in the state (copied, saved, restored); may be NULL (0)
  size_t (*memory_size)(const rdModel* m);
  // bytes of scratch workspace; may be NULL (0)
  size_t (*work_size)(const rdModel* m);
  // consistent initial accelerations and multipliers at d->s.t (state already at the model's
  // initial conditions)
  int (*initialize)(const rdModel* m, rdData* d);
  // advance the state from d->s.t by h (d->s.t is updated by the caller, not here). Returns
  // RD_OK, > 0 recoverable (the caller restores the state and cuts the step) or < 0 fatal;
  // any non-zero status is raised with a message naming the step and the cause.
  int (*step)(const rdModel* m, rdData* d, double h);
  // optional split of step() for co-simulation (rd_stepBegin / rd_stepEnd): predict leaves the
  // predicted state in d->s (and whatever correct needs in d->work); correct finishes the step
  // like step() (d->s.t untouched). step(h) must equal predict(h) then correct(h), bit for bit.
  int (*predict)(const rdModel* m, rdData* d, double h);
  int (*correct)(const rdModel* m, rdData* d, double h);
  // create the objects of one data that are not plain memory (e.g. a sparse factorization) in
  // d->solver; called once by rd_createData after the state is set up; may be NULL
  int (*attach)(const rdModel* m, rdData* d);
  // free what attach created; called by rd_destroyData; may be NULL
  void (*release)(const rdModel* m, rdData* d);
  // history outside the state that an exact restart needs (e.g. the values the pivot order of
  // a refactorization came from): its size in bytes, and save / load; all may be NULL
  size_t (*history_size)(const rdModel* m, const rdData* d);
  void (*history_save)(const rdModel* m, const rdData* d, void* buf);
  int (*history_load)(const rdModel* m, rdData* d, const void* buf);
} rdStepper;

// history hooks for steppers whose d->solver is an rdLinSol (static):
// the factorization history of the linear solver (KLU's pivot order)
size_t rd_solverHistorySize(const rdModel* m, const rdData* d);
void rd_solverHistorySave(const rdModel* m, const rdData* d, void* buf);
int rd_solverHistoryLoad(const rdModel* m, rdData* d, const void* buf);

// the stepper of a method, or NULL if this build has none
const rdStepper* rd_stepperFor(int method);

// the stepper of a model: mixed stepping (solver/mixed.c) if it has rigid subsystems, else that
// of its method
const rdStepper* rd_modelStepper(const rdModel* m);

// order of a method's global error: 2, 1 (liemid_e1, liemid_e2), 0 (static)
int rd_stepperOrder(int method);

// 1 if the method's step() sets d->step_error to an estimate of its own local error
// (generalized_alpha); else adaptive steps estimate it by step doubling (rigid steppers, whose
// step() leaves a cheaper monitor there for fixed-step runs)
int rd_stepperEstimates(int method);

#endif  // RD_STEPPER_H
