// SPDX-License-Identifier: MIT
// The pieces of one step that rd_step / rd_advance (simulate.c) and the adaptive steps
// (adaptive.c) share.
#ifndef RD_STEPPING_H
#define RD_STEPPING_H

#include "solver/stepper.h"
#include "src/model/data_impl.h"

// one attempt of a step of size h from the current state: the stepper's step, then (for a
// non-atomic stepper) the finiteness check. RD_OK, > 0 recoverable, < 0 fatal.
int rd_stepAttempt(const rdModel* m, rdData* d, const rdStepper* stp, double h);

// count an accepted (sub)step of size h: statistics, the error estimate of the step
// (d->step_error) and, for fixed steps, the warning when the estimates exceed solver.tolerance
void rd_stepAccepted(rdData* d, double h);

// count a rejected attempt from t of size h with recoverable status st (its details are kept
// while the log of rdData has room)
void rd_stepRejected(const rdModel* m, rdData* d, double t, double h, int st);

// seconds of a monotonic clock
double rd_stepClock(void);

// the adaptive steps (adaptive.c, solver.adaptive = true)

// advance to tend (> d->s.t) in steps chosen from the local error estimate, calling the
// observer (may be NULL) with the state interpolated at every output time (start_time + k
// output.every time_step) passed and at tend. RD_OK (also when the observer stops the run), or
// the failing status, raised.
int rd_adaptiveAdvance(const rdModel* m, rdData* d, double tend, rdObserver observer, void* user);

#endif  // RD_STEPPING_H
