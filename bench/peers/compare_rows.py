#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two tables of output rows (BeamDyn's .out, or whitespace/tab-separated rows) at common times.

usage: compare_rows.py A B [--columns NAME,...] [--until T] [--every DT] [--digits]

Files may be xz-compressed (NAME.xz). Rows are matched by their first column (time, rounded to 1e-9). Channel names come from a
header line starting with 'Time' when the file has one; a file without one (the shared
*_tight.out rows) takes the names of the other. Prints, per channel: the largest |A - B|, the
largest |B| and their ratio; with --digits also how many values are equal as printed. Only channels in both files.
--every DT keeps the times that are multiples of DT (e.g. 0.25 to compare at every 0.25 s).
"""
import argparse
import lzma
import sys


def read(path):
    names, rows = None, {}
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        for line in f:
            parts = line.replace(",", " ").split()
            if not parts:
                continue
            if parts[0] in ("Time", "time"):
                names = parts
                continue
            try:
                vals = [float(x) for x in parts]
            except ValueError:
                continue
            rows[round(vals[0], 9)] = (vals, parts)
    return names, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--columns")
    ap.add_argument("--until", type=float)
    ap.add_argument("--every", type=float)
    ap.add_argument("--digits", action="store_true")
    o = ap.parse_args()
    na, ra = read(o.a)
    nb, rb = read(o.b)
    names = na or nb
    if names is None:
        names = ["Time"] + [f"c{i}" for i in range(1, len(next(iter(ra.values()))[0]))]
    na, nb = na or names, nb or names
    times = sorted(set(ra) & set(rb))
    if o.until is not None:
        times = [t for t in times if t <= o.until + 1e-9]
    if o.every:
        times = [t for t in times if abs(t / o.every - round(t / o.every)) < 1e-6]
    if not times:
        sys.exit("compare_rows: no common times")
    want = o.columns.split(",") if o.columns else [c for c in na[1:] if c in nb]
    missing = [c for c in want if c not in na or c not in nb]
    if missing:
        sys.exit(f"compare_rows: channel {missing[0]} is not in both files")
    print(f"{len(times)} common times, {times[0]:g} ... {times[-1]:g}")
    print(f"{'channel':10s} {'max|A-B|':>12s} {'max|B|':>12s} {'ratio':>10s} {'at t':>10s}" +
          ("  equal" if o.digits else ""))
    for name in want:
        c, e = na.index(name), nb.index(name)
        d, tmax = max((abs(ra[t][0][c] - rb[t][0][e]), t) for t in times)
        m = max(abs(rb[t][0][e]) for t in times)
        line = f"{name:10s} {d:12.4e} {m:12.4e} {d / m if m else 0:10.3e} {tmax:10.4f}"
        if o.digits:
            eq = sum(1 for t in times if ra[t][1][c] == rb[t][1][e] or ra[t][0][c] == rb[t][0][e])
            line += f"  {eq}/{len(times)}"
        print(line)


if __name__ == "__main__":
    main()
