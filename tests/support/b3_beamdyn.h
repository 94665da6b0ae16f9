// SPDX-License-Identifier: MIT
// BeamDyn's tip u_z for docs/benchmarks.md B3, dynamic case (one 5-node element, h = 0.005,
// rho_inf = 0, tip force 150 along z from t = 0) at t = 0.05, 0.10, ..., 1.00: the reference of
// tests/test_beam_verify.c and tests/test_beam_robust.c.
#ifndef RD_TEST_B3_BEAMDYN_H
#define RD_TEST_B3_BEAMDYN_H

static const double B3_BEAMDYN[20] = {
    7.6836577300452E-01, 2.0534850126406, 2.2052968852838, 1.1064712884566, 1.5758876087082E-01,
    5.5309538849698E-01, 1.8159069869944, 2.2654942795857, 1.3113534620467, 2.7880849115281E-01,
    4.4070037636959E-01, 1.5982497943061, 2.2970328612154, 1.5343329056122, 3.4515990609276E-01,
    2.7817188933310E-01, 1.3946588334800, 2.2886913889084, 1.8093410364286, 5.4135602327642E-01};

#endif  // RD_TEST_B3_BEAMDYN_H
