#!/usr/bin/env python3
"""How far two deck snapshots (tools/snapshot_decks.sh) are apart, number by number.

For every case whose history.csv differs: the largest change of any column relative to that
column's scale, the column and the row. The scale of a column is the largest magnitude of the
vector it is a component of, over every row of both snapshots and every node (positions x, y,
z; quaternions; velocities; angular velocities; the three components of momentum, ...), so
that a component that stays at round-off zero is measured against its vector; the three
energies share a scale; a quantity whose scale stays below 1e-12 (an unloaded model's energy)
is at round-off zero and left out; the Newton
iterations and factorizations of both summary.json files when they differ; a changed row
count or header. Other files that differ are listed. The last line is the largest relative
change over all cases (or over the cases whose name contains --only's text).

  tools/snapshot_diff.py BEFORE AFTER [--only TEXT]
"""
import csv
import json
import os
import sys


def rows(path):
    with open(path) as f:
        r = list(csv.reader(f))
    return r[0], [[float(x) for x in row] for row in r[1:]]


def family(col):
    """the vector quantity a column is a component of: node.x -> 'x', momentum_y -> 'momentum'"""
    name = col.split(".", 1)[1] if "." in col else col
    for kind, comps in (("x", ("x", "y", "z")), ("q", ("qw", "qx", "qy", "qz")),
                        ("v", ("vx", "vy", "vz")), ("w", ("wx", "wy", "wz", "Wx", "Wy", "Wz"))):
        if name in comps:
            return kind
    if len(name) > 2 and name[-2] == "_" and name[-1] in "xyz":
        return name[:-2]
    if name.endswith("_energy"):
        return "energy"
    return col


def stats(path):
    try:
        s = json.load(open(path)).get("statistics", {})
    except (OSError, ValueError):
        return None
    return s.get("newton_iterations"), s.get("factorizations"), s.get("steps")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    if only:
        args.remove(only)
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    a, b = args
    worst = (0.0, "")
    for case in sorted(os.listdir(a)):
        if only not in case:
            continue
        da, db = os.path.join(a, case), os.path.join(b, case)
        if not os.path.isdir(db):
            print(f"{case}: only in {a}")
            continue
        for name in sorted(set(os.listdir(da)) | set(os.listdir(db))):
            fa, fb = os.path.join(da, name), os.path.join(db, name)
            same = (os.path.exists(fa) and os.path.exists(fb) and
                    open(fa, "rb").read() == open(fb, "rb").read())
            if same:
                continue
            if name != "history.csv" or not (os.path.exists(fa) and os.path.exists(fb)):
                if name == "summary.json":
                    sa, sb = stats(fa), stats(fb)
                    if sa != sb:
                        print(f"{case}: (newton, factorizations, steps) {sa} -> {sb}")
                    continue
                print(f"{case}: {name} differs")
                continue
            ha, ra = rows(fa)
            hb, rb = rows(fb)
            if ha != hb or len(ra) != len(rb):
                print(f"{case}: header or row count differs ({len(ra)} / {len(rb)} rows)")
                continue
            best = (0.0, "", 0)
            scales = {}
            for j, col in enumerate(ha):
                big = max(max(abs(r[j]) for r in ra), max(abs(r[j]) for r in rb))
                scales[family(col)] = max(scales.get(family(col), 0.0), big)
            for j, col in enumerate(ha):
                scale = scales[family(col)]
                if scale < 1e-12 or col in ("time", "newton_iterations"):
                    continue
                for i, (x, y) in enumerate(zip(ra, rb)):
                    d = abs(x[j] - y[j]) / scale
                    if d > best[0]:
                        best = (d, col, i + 1)
            print(f"{case}: largest change {best[0]:.2e} of the column's scale "
                  f"({best[1]}, row {best[2]} of {len(ra)})")
            if best[0] > worst[0]:
                worst = (best[0], case)
    print(f"largest relative change: {worst[0]:.2e} ({worst[1] or '-'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
