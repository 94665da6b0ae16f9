// SPDX-License-Identifier: MIT
// Lie-group utilities: SO(3) exp/log, quaternions, the tangent operator T(psi) and its
// derivatives, and poses of R^3 x SO(3).
//
// Conventions (all functions):
//   - 3x3 matrices are row-major double[9]: A[3*i + j] is row i, column j.
//   - skew(v) is the cross-product matrix, skew(v) w = v x w:
//       [   0  -v2   v1 ]
//       [  v2    0  -v0 ]
//       [ -v1   v0    0 ]
//   - A rotation matrix R maps body components to global components: v_global = R v_body.
//   - Quaternions are scalar-first q = (w, x, y, z) with the Hamilton product; a unit q
//     represents the same body->global rotation as R = rdu_quatToMat(q), and q and -q are
//     the same rotation.
//   - A rotation vector psi (Cartesian rotation vector) gives R = exp(skew(psi)); its angle
//     is |psi| and its axis psi/|psi|. Functions returning a rotation vector return the one
//     with |psi| in [0, pi].
//   - Poses of R^3 x SO(3) are double[7] p = (x, y, z, qw, qx, qy, qz): the position in the
//     global frame followed by the body->global unit quaternion.
//   - Outputs come first. Every function reads all of its inputs before it writes an output,
//     so an output may alias an input. No function allocates, keeps state or reports errors;
//     the caller owns all arrays.
//
// The tangent operator (Geradin & Cardona 2001; Bruls, Cardona & Arnold 2012), phi = |psi|:
//   T(psi) = I + (cos(phi) - 1)/phi^2 skew(psi) + (1 - sin(phi)/phi)/phi^2 skew(psi)^2
// relates an increment of the rotation vector to the rotation increment it produces:
//   exp(psi + dpsi) = exp(psi) exp(skew(T(psi) dpsi))     + O(|dpsi|^2)   (right / body)
//   exp(psi + dpsi) = exp(skew(T(psi)^T dpsi)) exp(psi)   + O(|dpsi|^2)   (left / spatial)
// So T is the right-trivialized differential of exp (the "right Jacobian" J_r) and T^T the
// left-trivialized one (the "left Jacobian" J_l = exp(psi) T = T^T); the virtual rotation in
// the global frame is delta_theta = T(psi)^T delta_psi. T(-psi) = T(psi)^T, T(psi) psi = psi,
// det T = 2 (1 - cos(phi)) / phi^2: T is smooth for every psi but singular at phi = 2 pi k,
// k >= 1. Its inverse
//   T^-1(psi) = I + skew(psi)/2 + (1 - (phi/2) cot(phi/2))/phi^2 skew(psi)^2
// is therefore valid for phi < 2 pi; its norm grows like 2 pi/(2 pi - phi) and its derivatives
// like 1/(2 pi - phi)^2 as phi -> 2 pi, and at 2 pi the results are huge or non-finite.
// All functions are exact at psi = 0 and keep full relative accuracy near it (series expansions
// replace the cancelling closed forms).
#ifndef RODRIGUES_LIEGROUP_H
#define RODRIGUES_LIEGROUP_H

#include "rodrigues/export.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// skew-symmetric matrices

// Cross-product matrix: S = skew(v), so that S w = v x w.
//   S[9]  out  row-major 3x3 skew-symmetric matrix
//   v[3]  in   vector
RD_API void rdu_skew(double S[9], const double v[3]);

// Inverse of rdu_skew: the axial vector of the skew-symmetric part of S,
// v = (S[7] - S[5], S[2] - S[6], S[3] - S[1]) / 2. For a skew-symmetric S,
// rdu_skew(S', v) gives S' = S; a symmetric part of S is ignored.
//   v[3]  out  axial vector
//   S[9]  in   row-major 3x3 matrix
RD_API void rdu_unskew(double v[3], const double S[9]);

// ---------------------------------------------------------------------------------------------
// SO(3) exponential and logarithm

// Exponential map (Rodrigues' formula): R = exp(skew(psi))
//   = I + sin(phi)/phi skew(psi) + (1 - cos(phi))/phi^2 skew(psi)^2, phi = |psi|.
// Valid for any psi (exact at 0, full relative accuracy for tiny |psi|; |psi| >= 2 pi wraps).
//   R[9]    out  rotation matrix (body->global), orthonormal with det 1 to rounding
//   psi[3]  in   rotation vector
RD_API void rdu_expSO3(double R[9], const double psi[3]);

// Logarithm map: the rotation vector psi with exp(skew(psi)) = R and |psi| in [0, pi].
// Goes through the quaternion (rdu_matToQuat, Shepperd's method), so it is accurate to
// rounding for every angle, including near 0 and near pi. At an angle of exactly pi both psi
// and -psi are valid; which one is returned depends on rounding. R should be a rotation matrix;
// small deviations from orthonormality are tolerated (the quaternion is renormalized).
//   psi[3]  out  rotation vector, |psi| <= pi
//   R[9]    in   rotation matrix (body->global)
RD_API void rdu_logSO3(double psi[3], const double R[9]);

// ---------------------------------------------------------------------------------------------
// quaternions (w, x, y, z), Hamilton product

// Quaternion product out = a * b. For unit quaternions, rdu_quatToMat(out) =
// rdu_quatToMat(a) * rdu_quatToMat(b): apply b first, then a. Not renormalized.
//   out[4]  out  product
//   a[4]    in   left factor
//   b[4]    in   right factor
RD_API void rdu_quatMul(double out[4], const double a[4], const double b[4]);

// Conjugate out = (w, -x, -y, -z); the inverse rotation of a unit quaternion.
//   out[4]  out  conjugate
//   q[4]    in   quaternion
RD_API void rdu_quatConj(double out[4], const double q[4]);

// Normalize out = q / |q|. A zero quaternion gives the identity (1, 0, 0, 0). The sign is kept.
// Returns |q| (0 for the zero quaternion).
//   out[4]  out  unit quaternion
//   q[4]    in   quaternion
RD_API double rdu_quatNormalize(double out[4], const double q[4]);

// Rotate a vector: out = R(q) v = q * (0, v) * conj(q), i.e. body components to global ones.
// q must be a unit quaternion (not renormalized here).
//   out[3]  out  rotated vector
//   q[4]    in   unit quaternion (body->global)
//   v[3]    in   vector
RD_API void rdu_quatRotate(double out[3], const double q[4], const double v[3]);

// Inverse rotation: out = R(q)^T v = conj(q) * (0, v) * q, i.e. global components to body ones.
// q must be a unit quaternion.
//   out[3]  out  rotated vector
//   q[4]    in   unit quaternion (body->global)
//   v[3]    in   vector
RD_API void rdu_quatRotateInv(double out[3], const double q[4], const double v[3]);

// Rotation matrix of a quaternion. A non-unit q gives the exact rotation matrix of q/|q|
// (the formula is scaled by 2/|q|^2); the zero quaternion gives the identity.
//   R[9]  out  rotation matrix (body->global)
//   q[4]  in   quaternion
RD_API void rdu_quatToMat(double R[9], const double q[4]);

// Quaternion of a rotation matrix (Shepperd's method: the best-conditioned of the four
// square-root branches). The result is normalized and has w >= 0. R should be a rotation
// matrix; small deviations from orthonormality are tolerated.
//   q[4]  out  unit quaternion with w >= 0
//   R[9]  in   rotation matrix (body->global)
RD_API void rdu_matToQuat(double q[4], const double R[9]);

// Rotation vector of a quaternion (quaternion logarithm times 2): psi = 2 atan2(|v|, w) v / |v|
// with (w, v) first replaced by its negative if w < 0, so |psi| is in [0, pi]. Independent of
// the scale of q (need not be unit); the zero quaternion gives psi = 0.
//   psi[3]  out  rotation vector, |psi| <= pi
//   q[4]    in   quaternion
RD_API void rdu_quatToRotvec(double psi[3], const double q[4]);

// Quaternion of a rotation vector (quaternion exponential of psi/2):
// q = (cos(phi/2), sin(phi/2)/phi psi), phi = |psi|. For |psi| > pi the result has w < 0
// (it is not flipped, so the map is continuous in psi). Exact at psi = 0.
//   q[4]    out  unit quaternion
//   psi[3]  in   rotation vector
RD_API void rdu_rotvecToQuat(double q[4], const double psi[3]);

// Distance of two attitudes: |R(a) - R(b)|_2 = 2 sin(theta/2), theta in [0, pi] the angle of
// the relative rotation R(a)^T R(b) (so also |R(a) - R(b)|_F / sqrt(2)), computed in closed form
// as 2 |vector part of conj(a) * b|; the same for a, -a and for b, -b. Accurate to a few units
// of rounding, absolute (no loss for small theta). In [0, 2].
//   a[4]  in   unit quaternion
//   b[4]  in   unit quaternion
RD_API double rdu_quatDistance(const double a[4], const double b[4]);

// ---------------------------------------------------------------------------------------------
// tangent operator and differentials of exp (see the top of this file)

// Tangent operator T(psi) (right-trivialized differential of exp, J_r):
// exp(psi + dpsi) = exp(psi) exp(skew(T dpsi)) to first order. Valid for every psi;
// singular (det 0) at |psi| = 2 pi k, k >= 1.
//   T[9]    out  row-major 3x3
//   psi[3]  in   rotation vector
RD_API void rdu_tangentSO3(double T[9], const double psi[3]);

// Inverse tangent operator T^-1(psi) in closed form
// (I + skew(psi)/2 + (1 - (phi/2) cot(phi/2))/phi^2 skew(psi)^2). Valid for |psi| < 2 pi;
// unbounded as |psi| -> 2 pi (|T^-1| grows like 2 pi/(2 pi - |psi|)).
//   Tinv[9]  out  row-major 3x3
//   psi[3]   in   rotation vector, |psi| < 2 pi
RD_API void rdu_tangentInvSO3(double Tinv[9], const double psi[3]);

// Left-trivialized differential of exp, dexp(psi) = T(psi)^T (J_l):
// exp(psi + dpsi) = exp(skew(dexp(psi) dpsi)) exp(psi) to first order, i.e. it maps a rotation
// vector increment to the spatial (global-frame) rotation increment, delta_theta = dexp dpsi.
// Valid for every psi; singular at |psi| = 2 pi k.
//   J[9]    out  row-major 3x3, equal to T(psi)^T
//   psi[3]  in   rotation vector
RD_API void rdu_dexpSO3(double J[9], const double psi[3]);

// Inverse of rdu_dexpSO3: dexpinv(psi) = T(psi)^-T, mapping a spatial rotation increment to the
// rotation vector increment, dpsi = dexpinv delta_theta. Valid for |psi| < 2 pi (see
// rdu_tangentInvSO3).
//   Jinv[9]  out  row-major 3x3, equal to T(psi)^-T
//   psi[3]   in   rotation vector, |psi| < 2 pi
RD_API void rdu_dexpinvSO3(double Jinv[9], const double psi[3]);

// ---------------------------------------------------------------------------------------------
// derivatives of the tangent operator, for consistent iteration matrices
//
// Each returns the 3x3 Jacobian D = d/dpsi [M(psi) a] for a fixed vector a, i.e.
// D[3*i + j] = d (M(psi) a)_i / d psi_j, so that M(psi + dpsi) a = M(psi) a + D dpsi + O(dpsi^2).
// Closed forms with series near psi = 0 (exact there).

// D = d/dpsi [T(psi) a]. Valid for every psi.
//   D[9]    out  row-major 3x3 Jacobian
//   psi[3]  in   rotation vector
//   a[3]    in   fixed vector
RD_API void rdu_dTangentSO3(double D[9], const double psi[3], const double a[3]);

// D = d/dpsi [T(psi)^T a] (the derivative of dexp(psi) a). Valid for every psi.
//   D[9]    out  row-major 3x3 Jacobian
//   psi[3]  in   rotation vector
//   a[3]    in   fixed vector
RD_API void rdu_dTangentTransSO3(double D[9], const double psi[3], const double a[3]);

// D = d/dpsi [T^-1(psi) a]. Valid for |psi| < 2 pi; unbounded as |psi| -> 2 pi.
//   D[9]    out  row-major 3x3 Jacobian
//   psi[3]  in   rotation vector, |psi| < 2 pi
//   a[3]    in   fixed vector
RD_API void rdu_dTangentInvSO3(double D[9], const double psi[3], const double a[3]);

// D = d/dpsi [T^-T(psi) a] (the derivative of dexpinv(psi) a). Valid for |psi| < 2 pi.
//   D[9]    out  row-major 3x3 Jacobian
//   psi[3]  in   rotation vector, |psi| < 2 pi
//   a[3]    in   fixed vector
RD_API void rdu_dTangentInvTransSO3(double D[9], const double psi[3], const double a[3]);

// ---------------------------------------------------------------------------------------------
// poses of R^3 x SO(3): p = (x, y, z, qw, qx, qy, qz)
//
// The group is the direct product: translations add and rotations compose; an increment
// du = (u, psi) in R^6 holds a global-frame translation u = du[0..2] and a rotation vector
// psi = du[3..5]. Functions that produce a quaternion renormalize it (so repeated updates do
// not drift) but keep its sign (w may be negative).

// Identity pose (0, 0, 0, 1, 0, 0, 0).
//   p[7]  out  pose
RD_API void rdu_poseIdentity(double p[7]);

// Composition out = a o b: position xa + R(qa) xb, orientation qa * qb (the frame b expressed
// in a, placed in the world by a).
//   out[7]  out  composed pose
//   a[7]    in   outer pose
//   b[7]    in   inner pose
RD_API void rdu_poseCompose(double out[7], const double a[7], const double b[7]);

// Inverse pose: position -R(q)^T x, orientation conj(q). rdu_poseCompose of p and its inverse
// (either order) is the identity.
//   out[7]  out  inverse pose
//   p[7]    in   pose (unit quaternion)
RD_API void rdu_poseInverse(double out[7], const double p[7]);

// Transform a point from the body frame to the global frame: out = x + R(q) v.
//   out[3]  out  global point
//   p[7]    in   pose (unit quaternion)
//   v[3]    in   point in body components
RD_API void rdu_poseTransformPoint(double out[3], const double p[7], const double v[3]);

// Right (body) increment: position x + u, orientation q * exp(psi), i.e. R' = R exp(skew(psi))
// with psi in body components. Its rotation vector differential is T(psi) (rdu_tangentSO3).
//   out[7]  out  updated pose
//   p[7]    in   pose
//   du[6]   in   increment (u global, psi body)
RD_API void rdu_poseExpIncrementRight(double out[7], const double p[7], const double du[6]);

// Left (spatial) increment: position x + u, orientation exp(psi) * q, i.e. R' = exp(skew(psi)) R
// with psi in global components. This is the update q^{n+1} = exp(h dq) o q^n of the
// Lie-group generalized-alpha method; its rotation vector differential is T(psi)^T
// (rdu_dexpSO3).
//   out[7]  out  updated pose
//   p[7]    in   pose
//   du[6]   in   increment (u global, psi global)
RD_API void rdu_poseExpIncrementLeft(double out[7], const double p[7], const double du[6]);

// Inverse of rdu_poseExpIncrementRight: du with p1 = rdu_poseExpIncrementRight(p0, du),
// u = x1 - x0 and psi = log(conj(q0) * q1), |psi| <= pi.
//   du[6]  out  increment (u global, psi body)
//   p0[7]  in   start pose
//   p1[7]  in   end pose
RD_API void rdu_poseLogIncrementRight(double du[6], const double p0[7], const double p1[7]);

// Inverse of rdu_poseExpIncrementLeft: du with p1 = rdu_poseExpIncrementLeft(p0, du),
// u = x1 - x0 and psi = log(q1 * conj(q0)), |psi| <= pi.
//   du[6]  out  increment (u global, psi global)
//   p0[7]  in   start pose
//   p1[7]  in   end pose
RD_API void rdu_poseLogIncrementLeft(double du[6], const double p0[7], const double p1[7]);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_LIEGROUP_H
