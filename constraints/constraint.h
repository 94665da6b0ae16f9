// SPDX-License-Identifier: MIT
// Constraint interface: value, Jacobian B and lambda-derivative K^Phi of one joint.
#ifndef RD_CONSTRAINT_H
#define RD_CONSTRAINT_H

#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/model_impl.h"

#define RD_JOINT_MAXROW 6
#define RD_JOINT_MAXDOF 12

// a joint evaluated at a state. Local DOFs as for elements: node[0], then node[1] unless it is
// the ground; 6 per rigid node (translation global, rotation body), 3 per point node.
typedef struct rdJointEval_ {
  int nnode;  // nodes with DOFs (1 or 2)
  int node[2];
  int off[2];                                   // local offset of each node's DOFs
  int n;                                        // local DOFs
  int nrow;                                     // constraint equations
  double phi[RD_JOINT_MAXROW];                  // constraint values
  double B[RD_JOINT_MAXROW * RD_JOINT_MAXDOF];  // d phi / d q (nrow x n, row-major)
  double gamma[RD_JOINT_MAXROW];  // d2 phi/dt2 at zero node accelerations (consistent init)
  double r[RD_JOINT_MAXDOF];      // joint forces in the residual (minus applied joint torque)
  double K[RD_JOINT_MAXDOF * RD_JOINT_MAXDOF];  // d(B^T lambda + r)/dq (K^Phi), n x n
} rdJointEval;

// nodes (ground excluded) that joint j couples; returns their number
int rd_jointNodes(const rdModel* m, int j, int node[2]);

// evaluate joint j at time t, state q (nnode x 7), v (nnode x 6) and its multipliers lam
// (nrow, may be NULL: zero). Returns RD_OK or the status of a time function.
int rd_jointEval(const rdModel* m, int j, double t, const double* q, const double* v,
                 const double* lam, rdJointEval* ev);

struct rdMotionFrame_;  // src/model/data_impl.h

// rd_jointEval with a prescribed motion's ground frame kept by the data (rd_dataMotionFrame;
// NULL: none): the frame kept for t is used, another one is computed and kept. The frame is a
// pure function of t, so the results are those of rd_jointEval to the bit
int rd_jointEvalKept(const rdModel* m, int j, double t, const double* q, const double* v,
                     const double* lam, struct rdMotionFrame_* frame, rdJointEval* ev);

#endif  // RD_CONSTRAINT_H
