// SPDX-License-Identifier: MIT
// Dormand-Prince 5(4) coefficients shared by the reference integrators of the tests: nodes c,
// stages a (row s: the weights of k_0 .. k_{s-1}; row 6 is the 5th-order solution, so stage 7
// is the new state), and e = b5 - b4 for the embedded error estimate h sum e_s k_s.
#ifndef RD_TEST_DOPRI_TABLEAU_H
#define RD_TEST_DOPRI_TABLEAU_H

static const double rd_dp_c[7] = {0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1, 1};
static const double rd_dp_a[7][6] = {
    {0},
    {0.2},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
static const double rd_dp_e[7] = {71.0 / 57600,      0,          -71.0 / 16695, 71.0 / 1920,
                                  -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

#endif  // RD_TEST_DOPRI_TABLEAU_H
