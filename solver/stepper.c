// SPDX-License-Identifier: MIT
// Registry of time steppers by method.
#include "solver/stepper.h"

#include "rodrigues/model.h"
#include "solver/genalpha.h"
#include "solver/linsol.h"
#include "solver/mixed.h"
#include "solver/rigid/rigid.h"
#include "solver/static.h"

const rdStepper* rd_stepperFor(int method) {
  switch (method) {
    case RD_METHOD_GENERALIZED_ALPHA:
      return &rd_stepperGeneralizedAlpha;
    case RD_METHOD_STATIC:
      return &rd_stepperStatic;
    case RD_METHOD_NMB:
      return &rd_stepperNmb;
    case RD_METHOD_NMS:
      return &rd_stepperNms;
    case RD_METHOD_LIEMID_E1:
      return &rd_stepperLiemidE1;
    case RD_METHOD_LIEMID_E2:
      return &rd_stepperLiemidE2;
    case RD_METHOD_LIEMID_EA:
      return &rd_stepperLiemidEa;
    case RD_METHOD_LIEMID_I:
      return &rd_stepperLiemidI;
    case RD_METHOD_SW:
      return &rd_stepperSw;
    case RD_METHOD_HSTAGM:
      return &rd_stepperHstagm;
    case RD_METHOD_AKW:
      return &rd_stepperAkw;
    default:
      return NULL;
  }
}


const rdStepper* rd_modelStepper(const rdModel* m) {
  return m->nsub > 0 ? &rd_stepperMixed : rd_stepperFor(m->opt.method);
}


int rd_stepperOrder(int method) {
  switch (method) {
    case RD_METHOD_STATIC:
      return 0;
    case RD_METHOD_LIEMID_E1:
    case RD_METHOD_LIEMID_E2:
      return 1;
    default:
      return 2;
  }
}


int rd_stepperEstimates(int method) {
  return method == RD_METHOD_GENERALIZED_ALPHA;
}


size_t rd_solverHistorySize(const rdModel* m, const rdData* d) {
  (void)m;
  return sizeof(double) * rd_linsolHistorySize(d->solver);
}


void rd_solverHistorySave(const rdModel* m, const rdData* d, void* buf) {
  (void)m;
  rd_linsolSaveHistory(d->solver, buf);
}


int rd_solverHistoryLoad(const rdModel* m, rdData* d, const void* buf) {
  (void)m;
  return d->solver ? rd_linsolLoadHistory(d->solver, buf) : RD_OK;
}
