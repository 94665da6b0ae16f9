// SPDX-License-Identifier: MIT
// Element interface: residual and tangent matrices of one element in its local DOFs.
#ifndef RD_ELEMENT_H
#define RD_ELEMENT_H

#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/model_impl.h"

#define RD_ELEM_MAXDOF 12

// an element evaluated at a state. Local DOFs are the element's nodes in order (ground ends
// left out), 6 per rigid node (translation global, rotation body) and 3 per point node.
// Residual convention: r = inertial forces - internal forces (applied loads are elsewhere).
typedef struct rdElemEval_ {
  int nnode;                                  // nodes with DOFs (1 or 2)
  int node[2];                                // node indices
  int off[2];                                 // local offset of each node's DOFs
  int n;                                      // local DOFs
  double r[RD_ELEM_MAXDOF];                   // residual contribution
  double M[RD_ELEM_MAXDOF * RD_ELEM_MAXDOF];  // d r / d vd, row-major n x n
  double C[RD_ELEM_MAXDOF * RD_ELEM_MAXDOF];  // d r / d v
  double K[RD_ELEM_MAXDOF * RD_ELEM_MAXDOF];  // d r / d q: x + dx, R exp(dtheta) (body)
} rdElemEval;

// nodes (ground excluded) that element e couples; returns their number
int rd_elemNodes(const rdModel* m, int e, int node[2]);

// evaluate element e at q (nnode x 7), v, vd (nnode x 6); matrices only if jac != 0
int rd_elemEval(const rdModel* m, int e, const double* q, const double* v, const double* vd,
                int jac, rdElemEval* ev);

// per type (one file each)
void rd_rigidBodyEval(const rdModel* m, const rdRigidBodyDef* b, const double* q, const double* v,
                      const double* vd, int jac, rdElemEval* ev);
void rd_pointMassEval(const rdModel* m, const rdPointMassDef* p, const double* vd, int jac,
                      rdElemEval* ev);
void rd_springEval(const rdModel* m, const rdSpringDef* s, const double* q, const double* v,
                   int jac, rdElemEval* ev);

void rd_bushingEval(const rdModel* m, const rdBushingDef* b, const double* q, const double* v,
                    int jac, rdElemEval* ev);

// potential energy d^T K d / 2 of a bushing at q
double rd_bushingEnergy(const rdModel* m, const rdBushingDef* b, const double* q);

// local layout helper: set nnode, node, off, n and zero r, M, C, K
void rd_elemLayout(const rdModel* m, rdElemEval* ev, int n0, int n1);

#endif  // RD_ELEMENT_H
