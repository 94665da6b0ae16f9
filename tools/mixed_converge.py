#!/usr/bin/env python3
"""Convergence of mixed stepping to a fine monolithic generalized-alpha run (docs/mixed.md).

usage: tools/mixed_converge.py BUILD DECK --dt H1,H2,... [--ref H] [--set KEY=VALUE]...

Runs DECK (with its subsystems) at macro steps H1, H2, ... and, with subsystems=[], the
monolithic reference at step H (default: the smallest macro step / 64), all to the deck's
final time, and compares the final state of every node (summary.json): the largest position
error, attitude error |R - R_ref|_2 = 2 sin(theta/2) and velocity error (linear and body
angular), with the observed orders between consecutive steps, log(e_i/e_i+1)/log(H_i/H_i+1).
With --split it also runs the monolithic model at each H and prints the same errors of the mixed
run against it: the error of the partition alone (the coupling's), without generalized-alpha's.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


def run(exe, deck, sets, out):
    cmd = [exe, "run", deck, "-o", out]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def errors(a, b):
    ex = eq = ev = 0.0
    for name, s in a["nodes"].items():
        r = b["nodes"][name]
        ex = max(ex, max(abs(s[k] - r[k]) for k in ("x", "y", "z")))
        dot = abs(sum(s[k] * r[k] for k in ("qw", "qx", "qy", "qz")))
        eq = max(eq, 2 * math.sqrt(max(0.0, 1 - min(1.0, dot) ** 2)))
        ev = max(ev, max(abs(s[k] - r[k]) for k in ("vx", "vy", "vz", "Wx", "Wy", "Wz")))
    return ex, eq, ev


def orders(prev, e, hs, i):
    if not prev:
        return ""
    r = math.log(hs[i - 1] / hs[i])
    return " ".join("%7.2f" % (math.log(p / q) / r) if p > 0 and q > 0 else "%7s" % "-"
                    for p, q in zip(prev, e))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build")
    p.add_argument("deck")
    p.add_argument("--dt", required=True)
    p.add_argument("--ref", type=float)
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--split", action="store_true")
    a = p.parse_args()
    exe = os.path.join(a.build, "rodrigues")
    hs = [float(x) for x in a.dt.split(",")]
    href = a.ref or min(hs) / 64
    with tempfile.TemporaryDirectory() as tmp:
        ref = run(exe, a.deck, a.set + ["subsystems=[]", "solver.time_step=%.17g" % href],
                  os.path.join(tmp, "ref"))
        print("%s: reference monolithic generalized-alpha, h = %g, t = %g" %
              (a.deck, href, ref["time"]))
        print("%12s %11s %11s %11s %7s %7s %7s" %
              ("H", "position", "attitude", "velocity", "order", "", ""))
        prev = prevs = None
        split = []
        for i, h in enumerate(hs):
            s = run(exe, a.deck, a.set + ["solver.time_step=%.17g" % h],
                    os.path.join(tmp, "run%d" % i))
            e = errors(s, ref)
            print("%12g %11.3e %11.3e %11.3e %s" % (h, *e, orders(prev, e, hs, i)))
            prev = e
            if a.split:
                m = run(exe, a.deck, a.set + ["subsystems=[]", "solver.time_step=%.17g" % h],
                        os.path.join(tmp, "mono%d" % i))
                es = errors(s, m)
                split.append("%12g %11.3e %11.3e %11.3e %s" % (h, *es, orders(prevs, es, hs, i)))
                prevs = es
        if split:
            print("mixed against monolithic generalized-alpha at the same step:")
            print("\n".join(split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
