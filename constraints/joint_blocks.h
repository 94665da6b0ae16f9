// SPDX-License-Identifier: MIT
// Building blocks of joint equations: point coincidence, dot product, distance along an axis.
// Each fills its rows of phi, B, gamma and adds lambda * (second derivative) to K.
#ifndef RD_JOINT_BLOCKS_H
#define RD_JOINT_BLOCKS_H

#include "constraints/constraint.h"

// one side of a joint: a node, or the ground (possibly moving, for prescribed motion)
typedef struct rdSide_ {
  int off;       // local DOF offset, -1 for the ground
  int rot;       // 1 if the side has rotation DOFs
  double x[3];   // position (global)
  double R[9];   // rotation body->global (I for point nodes)
  double v[3];   // velocity (global)
  double W[3];   // angular velocity (body)
  double a[3];   // known acceleration (ground only, 0 for nodes)
  double al[3];  // known angular acceleration (body; ground only)
  double x0[3];  // reference position
  double R0[9];  // reference rotation
} rdSide;

// set up ev's layout and the two sides of joint j (node[1] may be the ground: at rest at the
// origin with identity rotation); zero every output of ev
void rd_jointSides(const rdModel* m, const rdJoint* j, const double* q, const double* v,
                   rdJointEval* ev, rdSide* A, rdSide* B);

// R0^T g: a global reference vector in the side's body frame
void rd_sideVec(double out[3], const rdSide* s, const double g[3]);

// R0^T (p - x0): a global reference point as an arm in the side's body frame
void rd_sideArm(double out[3], const rdSide* s, const double p[3]);

// unit vectors u1, u2 completing the unit axis n to a right-handed basis
void rd_perpBasis(double u1[3], double u2[3], const double n[3]);

// 3 rows: (x_A + R_A rA) - (x_B + R_B rB); lam: the 3 multipliers or NULL
void rd_rowPoint(rdJointEval* ev, int row, const rdSide* A, const double rA[3], const rdSide* B,
                 const double rB[3], const double* lam);

// 1 row: (R_A a)·(R_B b) - c; a may move in A's frame (ad, add: its rates, or NULL)
void rd_rowDot(rdJointEval* ev, int row, const rdSide* A, const double a[3], const double ad[3],
               const double add[3], const rdSide* B, const double b[3], double c, double lam);

// 1 row: ((x_B + R_B rB) - (x_A + R_A rA))·(R_A nA) - c
void rd_rowDist(rdJointEval* ev, int row, const rdSide* A, const double rA[3], const double nA[3],
                const rdSide* B, const double rB[3], double c, double lam);

// 3 rows from `row`: the reference frames of A and B stay aligned,
// (R_A R0_A^T e_k)·(R_B R0_B^T e_{k+1}) = 0 for the axes e_k (k = 0, 1, 2); lam: all the joint's
// multipliers (row + k is read) or NULL
void rd_rowAlign(rdJointEval* ev, int row, const rdSide* A, const rdSide* B, const double* lam);

// joints that hold node 0 to a frame of the ground (fixed, prescribed): node 1 leaves the
// layout of ev whatever node[1] says, and B becomes the ground at rest at the origin with
// identity rotation, for the caller to place
void rd_sideGround(rdJointEval* ev, rdSide* B);

// node 0 held to the ground frame B: rows 0..2 its position x_A = x_B, rows 3..5 (a rotating
// node) its frame aligned with B's (rd_rowAlign); lam: the multipliers or NULL
void rd_rowHold(rdJointEval* ev, const rdSide* A, const rdSide* B, const double* lam);

// value and first two derivatives of time function k at t (k == RD_NO_TIMEFN: 0)
int rd_timeFnDerivs(const rdModel* m, int k, double t, double f[3]);

// per joint type (one file each); fill ev (layout already set by the caller)
int rd_jointFixed(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                  const double* lam, rdJointEval* ev);
int rd_jointRigid(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                  const double* lam, rdJointEval* ev);
int rd_jointSpherical(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev);
int rd_jointRevolute(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                     const double* lam, rdJointEval* ev);
int rd_jointUniversal(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev);
int rd_jointPrismatic(const rdModel* m, const rdJoint* j, double t, const double* q,
                      const double* v, const double* lam, rdJointEval* ev);
int rd_jointCylindrical(const rdModel* m, const rdJoint* j, double t, const double* q,
                        const double* v, const double* lam, rdJointEval* ev);
int rd_jointPlanar(const rdModel* m, const rdJoint* j, double t, const double* q, const double* v,
                   const double* lam, rdJointEval* ev);
// prescribed motion; frame: the ground frame kept by the data (rd_jointEvalKept) or NULL
int rd_jointPrescribed(const rdModel* m, const rdJoint* j, double t, const double* q,
                       const double* v, const double* lam, struct rdMotionFrame_* frame,
                       rdJointEval* ev);
int rd_jointRotationControl(const rdModel* m, const rdJoint* j, double t, const double* q,
                            const double* v, const double* lam, rdJointEval* ev);

// multiplier `row` of lam (0 if lam is NULL)
static inline double rd_lam(const double* lam, int row) {
  return lam ? lam[row] : 0;
}

#endif  // RD_JOINT_BLOCKS_H
