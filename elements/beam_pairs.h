// SPDX-License-Identifier: MIT
// The node-pair accumulation of the beam element's iteration matrix (elements/beam_pairs.c),
// private to the element (elements/beam.c).
#ifndef RD_BEAM_PAIRS_H
#define RD_BEAM_PAIRS_H

// doubles per node pair in the accumulator: 7 rows (3 force, 4 quaternion) x 16 columns (the
// phi_j blocks of elements/beam_section.h: JT, JG1, JG2, JG3)
enum { PAIR_ROWS = 7, PAIR_COLS = 16, PAIR_SIZE = PAIR_ROWS * PAIR_COLS };

// acc (n x n x PAIR_SIZE, pair (i, j) at (i n + j) PAIR_SIZE), for the first nrow rows (6 with
// interpolated virtual rotations, whose 7th is zero and left unwritten; 7 otherwise):
//   acc_ij = sum_g phi_j [phi_i Ja_x,p + phi_i' Ja_x',p'] (phi_j columns)
//          + sum_g phi_j' [phi_i Ja_x,p + phi_i' Ja_x',p'] (phi_j' columns, added to JT .. JG2)
// over the nq points g of phi, dphi (nq x n: the basis and its derivative) and Ja (nq x JROWS x
// JCOLS, rd_beamSectionEval's, weights included); ab: nq x PAIR_ROWS x JCOLS doubles of
// scratch. A generic and an AVX2 + FMA version (src/math/simd.h).
void rd_beamPairs(int n, int nq, int nrow, const double* phi, const double* dphi, const double* Ja,
                  double* ab, double* acc);

// The quadrature data of many points on nv = 2n - 1 points: the products of two basis functions
// (or their derivatives d/dxi) are polynomials of degree 2n - 2 at most, equal to their
// interpolation L_m on nv points xi_m, so sum_g f(xi_g) X_g = sum_m f(xi_m) Y_m with
// Y_m = sum_g L_m(xi_g) X_g, exactly. With arc-length derivatives phi' = (d phi/dxi) / J the
// rows a' and the columns phi_j' take a factor 1 / J: cL (nv x nq x 3) holds L_m(xi_g) J_g^-t,
// t = 0, 1, 2. Y (nv x JROWS x JCOLS) is then summed by rd_beamPairs with the basis and its
// xi-derivative at xi_m. A generic and an AVX2 + FMA version (src/math/simd.h).
void rd_beamPairsCompress(int nq, int nv, int nrow, const double* cL, const double* Ja, double* Y);

// S (6n x 6n row-major, every block written) from the accumulators of rd_beamPairs (their first
// nrow rows): the block (i, j) takes the translation columns JT as they are and the rotation
// columns sum_m acc[:, JG1 + 4 m ..] W_jm (W: n x 3 x 12, three 4x3 row-major maps per node),
// then keeps the force rows and maps the quaternion rows with Er_i^T (Er: the 4x3 row-major map
// of node i at Er + i er_stride). A generic and an AVX2 + FMA version (src/math/simd.h).
void rd_beamPairsFinish(int n, int nrow, const double* acc, const double* W, const double* Er,
                        int er_stride, double* S);

#endif  // RD_BEAM_PAIRS_H
