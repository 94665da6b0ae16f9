// SPDX-License-Identifier: MIT
// A null-space basis of the constraint Jacobian and the reduced matrices N^T A N
// (docs/modal.md): the identity on the degrees of freedom no constraint touches, an orthonormal
// basis from a rank-revealing QR on each group of constraints that share degrees of freedom.
#ifndef RD_NULLSPACE_H
#define RD_NULLSPACE_H

#include "solver/csc.h"

// largest group of coupled constrained degrees of freedom the dense QR takes (its Q is n x n)
#define RD_NULLSPACE_MAX_GROUP 4000

// N (n x nr, allocated here) with B N = 0 and N^T N = I for B (nc x n). Constraint equations
// (rows of B) are grouped by the degrees of freedom they share; on each group B^T, its columns
// scaled to unit norm, is factored with LAPACK dgeqp3 (QR with column pivoting), the equations
// whose pivot |R_kk| <= tol |R_11| are dependent (redundant), and the trailing columns of Q
// span the group's null space. The reduced coordinates follow the degrees of freedom in order
// (a group's columns where its first degree of freedom is). *rank receives the rank of B.
// RD_OK, RD_ERR_NOMEM, RD_ERR_UNSUPPORTED (a group larger than RD_NULLSPACE_MAX_GROUP),
// RD_ERR_LIBRARY.
int rd_nullSpace(rdContext* ctx, const rdCsc* B, double tol, rdCsc* N, int* rank);

// Ar = N^T A N (allocated here). RD_OK or RD_ERR_NOMEM.
int rd_nullSpaceReduce(rdContext* ctx, const rdCsc* N, const rdCsc* A, rdCsc* Ar);

#endif  // RD_NULLSPACE_H
