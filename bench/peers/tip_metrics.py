#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tip displacement magnitude and tip rotation angle of BeamDyn rows, compared at common times.

usage: tip_metrics.py A B [--every DT] [--until T] [--from T0]   (A, B may be NAME.xz)

From BeamDyn's TipTDxr..zr (m) and TipRDxr..zr (Wiener-Milenkovic c = 4 tan(theta/4) n):
|u| and theta = 4 atan(|c| / 4). Prints the largest |A - B| of each (and of the twist
TipRDzr), the largest value of B and the ratio: issue 14's acceptance measure at --every 0.25.
"""
import argparse
import math

from compare_rows import read as read_rows


def read(path):
    """{time: (|u|, rotation angle, TipRDzr)} of the rows of a BeamDyn output table."""
    names, rows = read_rows(path)
    i = [names.index(c) for c in ("TipTDxr", "TipTDyr", "TipTDzr", "TipRDxr", "TipRDyr", "TipRDzr")]
    out = {}
    for t, (v, _) in rows.items():
        u = math.sqrt(sum(v[k] ** 2 for k in i[:3]))
        c = math.sqrt(sum(v[k] ** 2 for k in i[3:]))
        out[t] = (u, 4 * math.atan(c / 4), v[i[5]])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--every", type=float)
    ap.add_argument("--until", type=float)
    ap.add_argument("--from", dest="t0", type=float, default=0.0)
    o = ap.parse_args()
    a, b = read(o.a), read(o.b)
    times = sorted(t for t in set(a) & set(b) if t >= o.t0 - 1e-9 and
                   (o.until is None or t <= o.until + 1e-9))
    if o.every:
        times = [t for t in times if abs(t / o.every - round(t / o.every)) < 1e-6]
    print(f"# {len(times)} times {times[0]:g} ... {times[-1]:g}; |u| in m, angles in rad")
    print(f"{'quantity':8s} {'max|A-B|':>11s} {'at t':>8s} {'max|B|':>11s} {'ratio':>10s}")
    for k, name in enumerate(("|u|", "angle", "TipRDzr")):
        d, t = max((abs(a[t][k] - b[t][k]), t) for t in times)
        m = max(abs(b[t][k]) for t in times)
        print(f"{name:8s} {d:11.4e} {t:8.4g} {m:11.4e} {d / m:10.3e}")


if __name__ == "__main__":
    main()
