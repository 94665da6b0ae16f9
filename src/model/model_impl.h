// SPDX-License-Identifier: MIT
// Private layout of the compiled model (immutable after rd_compile).
#ifndef RD_MODEL_IMPL_H
#define RD_MODEL_IMPL_H

#include <stdatomic.h>

#include "rodrigues/model.h"
#include "src/core/expr.h"
#include "src/core/names.h"
#include "src/model/options.h"
#include "src/model/spec_impl.h"

// a compiled time function
typedef struct rdTimeFn_ {
  int type;      // rdTimeFnType
  double value;  // CONSTANT
  int npoint;    // STEPS, LINEAR
  double* t;     // npoint
  double* y;     // npoint
  rdExpr* expr;  // EXPRESSION (heap, does not move)
  rdTimeFnCallback callback;
  void* user;
} rdTimeFn;

// a compiled element (Box2D style: type + definition; derived data per type below)
typedef struct rdElement_ {
  rdElemDef def;       // copy, name owned by the model
  const char* origin;  // "FILE:LINE:COL" or ""
} rdElement;

// a compiled joint
typedef struct rdJoint_ {
  rdJointDef def;  // copy, name owned by the model
  const char* origin;
  int row;   // first Lagrange multiplier
  int nrow;  // number of constraint equations
  int loop;  // 1 + closed-loop component of the joint graph holding the joint;
             // 0: a bridge, whose equations are never redundant (redundant.c)
} rdJoint;

typedef struct rdLoad_ {
  rdLoadDef def;
  const char* origin;
} rdLoad;

typedef struct rdTorqueLaw_ {
  rdTorqueLawDef def;
  const char* origin;
  rdExpr* expr;  // EXPRESSION: 3 formulas (heap)
} rdTorqueLaw;

// a compiled beam element: the definition (name, nodes owned by the model; the section arrays
// are not kept) and the kernel object, only read after rd_compile (workspace is in the data)
typedef struct rdModelBeam_ {
  rdBeamDef def;
  const char* origin;
  struct rdBeam_* kernel;  // elements/beam.h
} rdModelBeam;

// a compiled rigid subsystem of mixed stepping (checked by src/sim/compile.c, stepped by
// solver/mixed.c)
typedef struct rdSubsystem_ {
  char* name;
  const char* origin;
  int method;     // rdMethod, a rigid-body method
  int substeps;   // sub-steps per generalized-alpha step, >= 1
  int predictor;  // rdSubsystemPredictor
  int nbody;
  int* node;    // nbody: the bodies' nodes, in the order given
  int* pivot;   // nbody: the spherical joint that pins the body, -1 if it is free
  int* anchor;  // nbody: the flexible node the pivot moves with; RD_GROUND: a fixed pivot (or none)
} rdSubsystem;

struct rdModel_ {
  uint32_t magic;
  rdContext* ctx;
  atomic_int children;  // data and writers made from the model and not yet destroyed (the
                        // one mutable field: counted by rd_createData and the writers)
  rdOptions opt;
  double gravity[3];

  // nodes
  int nnode;
  char** node_name;          // nnode
  rdNameIndex node_index;    // node_name -> node
  const char** node_origin;  // nnode
  int* node_kind;            // nnode: rdNodeKind
  int* node_dof;             // nnode: first velocity-level DOF
  double* node_q0;           // nnode x 7: initial position and quaternion (w,x,y,z)
  double* node_v0;           // nnode x 6: initial velocity (global) and angular velocity (body)
  int ndof;                  // 6 per rigid node, 3 per point node

  int nelem;
  rdElement* elem;  // nelem
  int nbody;        // rigid bodies among the elements

  int njoint;
  rdJoint* joint;   // njoint
  int nconstraint;  // multipliers
  int nloop;        // closed-loop components of the joint graph (rdJoint.loop)
  int loop_rows;    // constraint equations of the joints on loops

  int nload;
  rdLoad* load;  // nload
  int ntorque;
  rdTorqueLaw* torque;  // ntorque
  int ntimefn;
  rdTimeFn* timefn;    // ntimefn
  char** timefn_name;  // ntimefn

  int ncallback;
  rdLoadCallbackDef* callback;  // ncallback (name and nodes owned by the model)
  int callback_maxnode;         // largest node set of a callback (sizes the data's scratch)

  int nuser;
  rdUserElementDef* user;  // nuser user elements (name and nodes owned by the model)
  int user_maxnode;        // largest node set of a user element
  int jac_maxnode;         // largest node set with 6n x 6n matrices (Jacobian callbacks, users)

  int nbeam;
  rdModelBeam* beam;  // nbeam beam elements
  size_t beam_work;   // doubles of one slot of rdData.beamwork (rd_assembleBeamScratch: r,
                      // S, T and the kernel workspace of the largest beam element)
  int nbeamcolor;     // colour groups of beams that share no node (solver/assemble_beam.c)
  int* beam_order;    // nbeam: beam indices by colour, then index
  int* beam_color;    // nbeamcolor + 1: start of each group in beam_order

  int nout;
  int* out_node;  // nout
  int nout_reaction;
  int* out_reaction;  // nout_reaction joint indices (history.csv reaction columns)
  int nout_section;
  int* out_section_beam;  // nout_section beam indices (history.csv section load columns)
  double* out_section_s;  // nout_section span fractions of the element

  int nsub;
  rdSubsystem* sub;  // nsub rigid subsystems (mixed stepping)
  int* node_sub;     // nnode: the subsystem of each node, -1 for the rest (the flexible part)

  struct rdPattern_* pattern;  // iteration-matrix pattern, scatter maps (solver/pattern.c)
  int linsol;                  // its linear-solver backend, `auto` resolved (rd_linsolChoose)
};

// 1 if m is a live model
int rd_modelValid(const rdModel* m);

// 1 if an uninterrupted run (rd_advance, fixed or adaptive steps) writes a history row at time
// t: start_time + k output.every time_step (to 1e-9 of a step), and final_time and after. A
// run stopped between two rows (a signal) writes its last row off this grid
int rd_isOutputTime(const rdModel* m, double t);

// free the model's names, arrays, time functions and formulas, then m itself; the beam kernels
// and the pattern, built by the layers above, must be released first (rd_destroyModel does both)
void rd_modelFree(rdModel* m);

// value of time function k at t (k == RD_NO_TIMEFN: 1); status of a callback, or
// RD_RECOVER_NONFINITE for a non-finite value
int rd_timeFnEval(const rdModel* m, int k, double t, double* value);

// factor of the body loads (gravity, and distributed beam loads without a time function of
// their own) at time t: 1, except for the static method, whose load factor grows linearly from
// 0 at solver.start_time to 1 at solver.final_time (then stays 1; 1 if they coincide)
double rd_bodyLoadFactor(const rdModel* m, double t);

#endif  // RD_MODEL_IMPL_H
