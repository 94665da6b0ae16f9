// SPDX-License-Identifier: MIT
// Assembly of the residual and the iteration matrix over elements, loads and joints.
#ifndef RD_ASSEMBLE_H
#define RD_ASSEMBLE_H

#include "src/model/data_impl.h"

// coefficients of the matrix [cM M + cC C + cK (K + K^Phi) T, B^T; B T, 0]
typedef struct rdAsmCoef_ {
  double cM, cC, cK;
  const double* psi;      // nnode x 3 rotation vectors of the tangent operators (NULL: T = I)
  const double* spatial;  // NULL: the body form above. Else the spatial form, nnode x
                          // RD_ASM_SPATIAL from rd_assembleSpatialMaps (psi is then not read):
                          // the derivatives with respect to spatial increments in body
                          // components, R -> R exp(T^T dx), the rates moving as spatial ones
                          // (omega = R W fixed when R moves): the rotation columns take
                          // cK (K + C skew(W) + M skew(dW/dt)) T^T + cC C + cM M
                          // (docs/generalized_alpha.md)
} rdAsmCoef;

#define RD_ASM_SPATIAL 15  // doubles per node of rdAsmCoef.spatial: T^T, W, dW/dt

// the per-node data of the spatial form into map (nnode x RD_ASM_SPATIAL; point nodes' entries
// are not used) at the state (q, v, vd: body rates as rd_assemble takes them, vd may be NULL)
// with the spatial rotation vectors psi of the update R = exp(psi) R_n (NULL: T = I): T^T of
// the body components R^T psi, W and dW/dt
void rd_assembleSpatialMaps(const rdModel* m, const double* q, const double* v, const double* vd,
                            const double* psi, double* map);

// extras of the stabilized index-2 formulation (rd_assembleEx)
typedef struct rdAsmStab_ {
  int vel;  // 1: the constraint rows of r are B v + phi_t and those of the matrix
            // B + cZ Z T, with Z = d(B v)/dq at fixed v
  double cZ;
  double* phi;  // if not NULL: receives phi (nconstraint)
  double* BT;   // if not NULL: receives B T of every joint (RD_ASM_BSTRIDE doubles each,
                // nrow x n row-major, local DOFs as in rdJointEval)
} rdAsmStab;

#define RD_ASM_BSTRIDE 72  // RD_JOINT_MAXROW * RD_JOINT_MAXDOF

// At time t and state (q, v, vd, lam): residual r (ndof + nconstraint) =
// [M vd + g - f + B^T lam + joint forces; phi] (rotation rows in the body frame); if gamma is
// not NULL, the constraint accelerations at zero vd (nconstraint); if Ax is not NULL, the
// values (pattern nnz) of the matrix above. Uses d->force as scratch. Returns RD_OK or a status.
int rd_assemble(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                const double* vd, const double* lam, const rdAsmCoef* c, double* r, double* gamma,
                double* Ax);

// rd_assemble with the stabilized extras x (NULL: index 3, as rd_assemble)
int rd_assembleEx(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                  const double* vd, const double* lam, const rdAsmCoef* c, const rdAsmStab* x,
                  double* r, double* gamma, double* Ax);

// scatter the 6n x 6n row-major matrix S (6 per node of nodes; point nodes use their first 3)
// into the node-node blocks of Ax
void rd_assembleScatter6(const rdModel* m, double* Ax, const double* S, int n, const int* nodes);

// beam elements (solver/assemble_beam.c): add their residual to r and, if Ax is not NULL,
// their iteration matrix to Ax, colour group by colour group, each group on up to
// min(d->nbeamslot, solver.threads) OpenMP threads; bitwise the same for any number of threads.
// RD_OK or a status (a degenerate element: RD_RECOVER_NEWTON naming the beam).
int rd_assembleBeams(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                     const double* vd, const rdAsmCoef* c, double* r, double* Ax);

// at rd_compile: colour the beams (greedy, no two beams of one colour share a node) into
// m->nbeamcolor groups, m->beam_order / m->beam_color. RD_OK or RD_ERR_NOMEM.
int rd_assembleBeamColors(rdModel* m);

// workspace slots (assembly threads) a data of this model needs: 1 without OpenMP or with fewer
// than 2 beams, else solver.threads (0: omp_get_max_threads())
int rd_assembleBeamSlots(const rdModel* m);

// the beam scratch of workspace slot `slot` (one per thread) for an element of n nodes, carved
// from d->beamwork (m->beam_work doubles per slot): residual r (6n), iteration matrix S
// (6n x 6n), tangent operators T (n x 9), then the kernel's workspace
void rd_assembleBeamScratch(const rdModel* m, rdData* d, int slot, int n, double** r, double** S,
                            double** T, double** work);

// name of unknown k (DOF or multiplier) for messages: "node 'x' rotation y" or
// "joint 'j' equation 2"
void rd_unknownName(const rdModel* m, int k, char* buf, int size);

// the deck position ("FILE:LINE:COL", "" if none) of the node or joint of unknown k, for
// run-time errors that must point into the deck
const char* rd_unknownOrigin(const rdModel* m, int k);

#endif  // RD_ASSEMBLE_H
