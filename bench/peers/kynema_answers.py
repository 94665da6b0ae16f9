#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whether rodrigues and Kynema give the same answers: the composite cantilever's tip over time
from the same start, and the heavy top's error at t = 2 with the cost at equal accuracy.

usage: kynema_answers.py composite --rodrigues RD --probe COMPOSITE_PROBE [--keep DIR]
       kynema_answers.py heavytop --rodrigues RD --probe HEAVY_TOP_PROBE
                                  [--kynema-us US --rodrigues-us US] [--keep DIR]

Both need small probe programs of ours linked to Kynema's library (built outside this
repository with the peers, bench/peers/README.md, "Probes"): Kynema's regression tests only
say passed or failed.

composite: the model of VerificationTest.Dynamic_ClampedCompositeBeamBending (one 5-node
element, 5-point Gauss, dt 0.005, rho_inf 0, 150 along z from the first step, Kynema's tolerances)
with our deck's mass entry (0.40972e-2), from rest; rodrigues runs
input/beam/composite_dynamic.yaml with solver.initial_acceleration=zero (the same start) and
virtual_rotation: interpolated (Kynema's weak form, as BeamDyn's), to t = 1. Prints the largest
difference of the tip displacement over every step, divided by the largest |u| of Kynema's.

heavytop: HeavyTopTest's model (rho_inf 0.9, consistent start) to t = 2: Kynema at dt 2e-4 with
the verification test's tolerances (atol 1e-7, rtol 1e-6), rodrigues at dt 2e-4, 1e-4, 5e-5
(its defaults), both against the Richardson extrapolation of rodrigues at 2.5e-5 and 1.25e-5
(largest component of the centre of mass's displacement error). The step rodrigues needs for
Kynema's error is interpolated log-log; with the CPU per step of both (run_kynema.sh's medians,
heavytop_long: dt 2e-4) the ratio of CPU per simulated second at equal accuracy follows
(rodrigues' CPU per step taken as at dt 2e-4; its Newton iterations per step do not grow at the
smaller step).
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit(f"kynema_answers.py: {' '.join(cmd)} failed:\n{p.stdout[-2000:]}")
    return p.stdout


def history(path):
    rows = list(csv.reader(open(path)))
    return rows[0], rows[1:]


def rodrigues_run(rd, deck, out, sets):
    cmd = [rd, "run", os.path.join(ROOT, deck), "-o", out]
    for s in sets:
        cmd += ["--set", s]
    run(cmd)
    return history(os.path.join(out, "history.csv"))


def composite(a, work):
    out = run([a.probe, "0.005", "1", "0.40972e-2", "0.005"], cwd=work)
    ky = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and not line.startswith("#"):
            ky[round(float(p[0]), 9)] = [float(x) for x in p[1:]]
    head, rows = rodrigues_run(a.rodrigues, "input/beam/composite_dynamic.yaml",
                               os.path.join(work, "composite"),
                               ["solver.initial_acceleration=zero", "output.every=1",
                                "elements.beam.virtual_rotation=interpolated"])
    col = {k: i for i, k in enumerate(head)}
    x0 = [float(rows[0][col["beam_4." + c]]) for c in "xyz"]
    big = max(max(abs(c) for c in u) for u in ky.values())
    worst, at = 0.0, 0.0
    for r in rows:
        t = round(float(r[col["time"]]), 9)
        if t not in ky:
            continue
        u = [float(r[col["beam_4." + c]]) - x0[i] for i, c in enumerate("xyz")]
        d = max(abs(p - q) for p, q in zip(u, ky[t]))
        if d > worst:
            worst, at = d, t
    last = max(ky)
    print(f"composite, same start (rest), every step to t = 1: largest tip difference "
          f"{worst:.3e} m at t = {at:g}, {worst / big:.2e} of the largest |u| ({big:.4f} m); "
          f"tip u_z at t = 1: Kynema {ky[last][2]:.9f}, rodrigues "
          f"{float(rows[-1][col['beam_4.z']]) - x0[2]:.9f}")


def heavytop(a, work):
    out = run([a.probe, "2e-4", "2", "0.9", "consistent", "1e-7", "1e-6"], cwd=work)
    q = next(line.split()[1:4] for line in out.splitlines() if line.startswith("q "))
    uk = [float(x) for x in q]

    def rd(dt):
        head, rows = rodrigues_run(a.rodrigues, "input/heavy_top.yaml",
                                   os.path.join(work, f"ht_{dt}"),
                                   [f"solver.time_step={dt}", "output.every=1000000000"])
        v = dict(zip(head, rows[-1]))
        return [float(v["top.x"]), float(v["top.y"]) - 1, float(v["top.z"])]

    steps = [2e-4, 1e-4, 5e-5]
    u = {dt: rd(dt) for dt in steps + [2.5e-5, 1.25e-5]}
    ref = [f + (f - c) / 3 for f, c in zip(u[1.25e-5], u[2.5e-5])]

    def err(v):
        return max(abs(p - r) for p, r in zip(v, ref))

    ek = err(uk)
    print("heavy top at t = 2 (rho_inf 0.9, consistent start), error = largest component of the "
          "centre of mass's displacement error against rodrigues' Richardson extrapolation "
          f"(2.5e-5, 1.25e-5): {ref[0]:.10f} {ref[1]:.10f} {ref[2]:.10f}")
    print(f"  Kynema     dt 2e-4:  error {ek:.3e}")
    er = {}
    for dt in steps:
        er[dt] = err(u[dt])
        print(f"  rodrigues  dt {dt:g}:  error {er[dt]:.3e}")
    # the step with Kynema's error: log-log between the bracketing runs (or the nearest two)
    pts = sorted(steps)
    lo, hi = pts[0], pts[1]
    for x, y in zip(pts, pts[1:]):
        if er[x] <= ek <= er[y]:
            lo, hi = x, y
    if ek > er[pts[-1]]:
        lo, hi = pts[-2], pts[-1]
    p = math.log(er[hi] / er[lo]) / math.log(hi / lo)
    dt_eq = lo * (ek / er[lo]) ** (1 / p)
    print(f"  rodrigues reaches Kynema's error at dt {dt_eq:.3e} (observed order {p:.2f}): "
          f"{2e-4 / dt_eq:.2f} times Kynema's steps")
    if a.kynema_us and a.rodrigues_us:
        ratio = (a.kynema_us / 2e-4) / (a.rodrigues_us / dt_eq)
        print(f"  CPU per simulated second at equal accuracy: Kynema {a.kynema_us / 2e-4 * 1e-6:.4f} s, "
              f"rodrigues {a.rodrigues_us / dt_eq * 1e-6:.4f} s; Kynema / rodrigues {ratio:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case", choices=["composite", "heavytop"])
    ap.add_argument("--rodrigues", default=os.path.join(ROOT, "build", "rodrigues"))
    ap.add_argument("--probe", required=True)
    ap.add_argument("--kynema-us", type=float, default=0)
    ap.add_argument("--rodrigues-us", type=float, default=0)
    ap.add_argument("--keep")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        (composite if a.case == "composite" else heavytop)(a, work)


if __name__ == "__main__":
    main()
