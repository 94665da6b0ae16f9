// SPDX-License-Identifier: MIT
// Private layout of rdData: the state that changes, and all workspace (allocated once).
#ifndef RD_DATA_IMPL_H
#define RD_DATA_IMPL_H

#include "model_impl.h"
#include "rodrigues/simulate.h"

// the state proper: copied by rd_copyData, saved and restored around a cut step
typedef struct rdState_ {
  double t;          // time
  double* q;         // nnode x 7: position (global), quaternion (w,x,y,z) body -> global
  double* v;         // nnode x 6: velocity (global), angular velocity (BODY frame)
  double* vd;        // nnode x 6: acceleration (global), angular acceleration (BODY frame)
  double* a;         // nnode x 6: generalized-alpha auxiliary acceleration, same layout
  double* lambda;    // nconstraint: Lagrange multipliers
  void* memory;      // stepper memory that must survive between steps (stepper-defined)
} rdState;

struct rdData_ {
  uint32_t magic;
  const rdModel* model;
  rdContext* ctx;
  int initialized;
  rdState s;         // current state
  rdState saved;     // state at the start of the current (sub)step, for step cutting
  size_t memory_size;   // bytes of stepper memory (in s.memory and saved.memory)
  double* force;     // nnode x 6 scratch: applied force and moment (global) per node
  double* cbuf;      // callback_maxnode x 19 scratch: pose, velocity, load of a callback's nodes
  void* work;        // stepper scratch, not part of the state
  size_t work_size;
  rdStats stats;
  void* solver;      // stepper-owned objects of this data (a factorization); see rdStepper.attach
  void* block;       // the single allocation behind every array above
};

// copy the arrays of one state into another of the same model
void rd_stateCopy(const rdModel* m, const rdData* d, rdState* dst, const rdState* src);

// applied loads at time t for configuration q (nnode x 7) and velocities v (nnode x 6):
// f (nnode x 6) receives force (global) and moment (global) at each node, from gravity on
// bodies and masses, nodal loads and torque laws. Counts one load evaluation.
int rd_evalLoads(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                 double* f);

// potential energy of the torque laws that derive from a potential (coulomb wall)
double rd_torqueLawPotential(const rdModel* m, const double* q);

#endif  // RD_DATA_IMPL_H
