#!/usr/bin/env python3
"""Count how many of BeamDyn's printed digits rodrigues reproduces on the NREL 5-MW r-test rows.

Reads the output of `build/tests/test_beamdyn DECK T_END` (its compare mode, which prints our
value and BeamDyn's 9-digit value of every channel at every row of the Az90 file) on stdin,
and the Az00 file (the same rows printed with 4 significant digits) from the data folder:

    build/tests/test_beamdyn input/beam/nrel5mw_gravity_az00.yaml 30.01 \
        | python3 tools/beamdyn_digits.py tests/data/nrel5mw_blade

A value "matches to the printed digits" when ours, rounded to the same number of significant
digits, prints the same. Prints the 4-digit tally with every miss (and how many units of the
last printed digit it is off), and per channel the fewest significant digits that agree with
the 9-digit rows.
"""
import math
import re
import sys

NAMES = ["F_x", "F_y", "F_z", "M_x", "M_y", "M_z", "u_x", "u_y", "u_z", "c_x", "c_y", "c_z"]


def read_compare(stream):
    rows, t = {}, None
    for line in stream:
        m = re.match(r"t = ([\d.]+)", line)
        if m:
            t = round(float(m.group(1)), 2)
            rows[t] = {}
            continue
        m = re.match(r"\s+(\S+)\s+(\S+)\s+BeamDyn\s+(\S+)", line)
        if m and t is not None:
            rows[t][m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return rows


def read_az00(folder):
    ref = {}
    with open(folder + "/bd_5MW_dynamic_gravity_Az00.ref") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            v = [float(x) for x in line.split()]
            # time, root force and moment, node-1 loads (skipped), tip displacement and rotation
            ref[round(v[0], 2)] = v[1:7] + v[13:19]
    return ref


def same_digits(ours, printed, sig):
    return float(f"{ours:.{sig - 1}e}") == float(f"{printed:.{sig - 1}e}")


def agreeing_digits(ours, printed):
    for sig in range(1, 10):
        if not same_digits(ours, printed, sig):
            return sig - 1
    return 9


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = read_compare(sys.stdin)
    if not rows:
        sys.exit("beamdyn_digits: no rows on stdin (run test_beamdyn in its compare mode)")
    az00 = read_az00(sys.argv[1])
    total, misses = 0, []
    for t in sorted(rows):
        if t not in az00:
            continue
        for i, name in enumerate(NAMES):
            ours, printed = rows[t][name][0], az00[t][i]
            total += 1
            if not same_digits(ours, printed, 4):
                unit = 10.0 ** (math.floor(math.log10(abs(printed))) - 3)
                misses.append((t, name, ours, printed, abs(ours - printed) / unit))
    print(f"Az00 rows (4 significant digits): {total - len(misses)} of {total} values match")
    for t, name, ours, printed, units in misses:
        print(f"  t = {t:5.2f} {name}: ours {ours:+.6e}, printed {printed:+.3e} "
              f"({units:.2f} units of the last digit)")
    print(f"Az90 rows (9 significant digits), {len(rows)} rows: fewest agreeing digits per channel")
    for name in NAMES:
        worst = min(agreeing_digits(*rows[t][name]) for t in rows)
        first = agreeing_digits(*rows[min(rows)][name])
        print(f"  {name}: {worst} (first row: {first})")


if __name__ == "__main__":
    main()
