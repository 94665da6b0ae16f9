#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Richardson extrapolation of two tables of output rows at steps h and h/2 (second order).

usage: richardson_rows.py A B OUT     (A at step h, B at h/2; files may be NAME.xz)

Writes OUT with B + (B - A) / 3 for every channel at the times both files have (rows matched by
their first column, rounded to 1e-9), with the header line of A ('Time ...'). The extrapolation
of bench/peers/data/nrel5mw_rotating/rot_richardson_0.000125_6.25e-5.out.xz (this program on
BeamDyn's two rows reproduces it to 3e-9 of each channel's maximum) and of ours in
docs/verification.md (rows of bench/beamdyn_rows).
"""
import sys

# the same BeamDyn-style tables as compare_rows: names, {time: (values, fields)}
from compare_rows import read


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.splitlines()[2].strip())
    na, ra = read(sys.argv[1])
    nb, rb = read(sys.argv[2])
    if (na or nb) is None or (na and nb and na != nb):
        sys.exit("richardson_rows: the two files need the same header line 'Time ...'")
    with open(sys.argv[3], "w") as out:
        out.write(" ".join(na or nb) + "\n")
        for t in sorted(set(ra) & set(rb)):
            a, b = ra[t][0], rb[t][0]
            out.write(" ".join([f"{t:.6f}"] + [f"{b[i] + (b[i] - a[i]) / 3:.9e}"
                                                for i in range(1, len(b))]) + "\n")


if __name__ == "__main__":
    main()
