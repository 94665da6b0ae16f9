// SPDX-License-Identifier: MIT
// Inline quaternion kernels (w first) for the hot paths; the public rdu_quat* functions
// (src/math/liegroup.c) are these.
#ifndef RD_QUAT_H
#define RD_QUAT_H

// a . b, summed from 0 in index order (the loops it replaced: bit for bit the same)
static inline double q4_dot(const double a[4], const double b[4]) {
  double s = 0;
  for (int j = 0; j < 4; j++) {
    s += a[j] * b[j];
  }
  return s;
}


// out = a b (out may alias a or b)
static inline void q4_mul(double out[4], const double a[4], const double b[4]) {
  double r0 = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double r1 = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double r2 = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double r3 = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
}


// out = R(w, v) a for the unit quaternion (w, v) = (w, x, y, z): a + w t + v x t with
// t = 2 v x a (out may alias a)
static inline void q4_rotateParts(double out[3], double w, double x, double y, double z,
                                  const double a[3]) {
  double t0 = 2.0 * (y * a[2] - z * a[1]), t1 = 2.0 * (z * a[0] - x * a[2]),
         t2 = 2.0 * (x * a[1] - y * a[0]);
  double r0 = a[0] + w * t0 + y * t2 - z * t1;
  double r1 = a[1] + w * t1 + z * t0 - x * t2;
  double r2 = a[2] + w * t2 + x * t1 - y * t0;
  out[0] = r0, out[1] = r1, out[2] = r2;
}


// out = R(q) a and R(q)^T a for a unit quaternion q (out may alias a)
static inline void q4_rotate(double out[3], const double q[4], const double a[3]) {
  q4_rotateParts(out, q[0], q[1], q[2], q[3], a);
}


static inline void q4_rotateInv(double out[3], const double q[4], const double a[3]) {
  q4_rotateParts(out, q[0], -q[1], -q[2], -q[3], a);
}

#endif  // RD_QUAT_H
