#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Work-precision of adaptive against fixed steps: error against CPU time, with gnuplot.

usage: work_precision.py BUILD OUT [--rounds N] [--case NAME] [--figure PATH]

Runs BUILD/rodrigues on a case (default spinup, input/beam/spinup.yaml to t = 15) at a ladder
of fixed steps h and of adaptive tolerances, N interleaved rounds (default 3), and measures
each run's CPU time (user + system of the child, getrusage) and takes the median. The error is
the distance of a node's position (or the angle of its attitude) from a reference, the
Richardson extrapolation of two fine fixed steps run with Newton at atol 1e-14, rtol 1e-12
(B + (B - A) / 3, second order), at the final time and as the largest over the
output rows (every 0.1 s, the adaptive runs' rows interpolated on the group). The reference's
own error is stated as its distance from the Richardson extrapolation of the next coarser pair.
Writes OUT/work_precision.dat (kind, h or tolerance, steps, rejected, CPU median s, error at
the end, largest error over the rows) and OUT/work_precision.gp, and draws the figure (default
docs/figures/work_precision_CASE.svg) if gnuplot is found.
"""
import csv
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys

# the cases: deck, node compared (position or attitude), final time, output interval, the
# fixed steps, the tolerances, the first adaptive step, the two reference steps and the coarser
# pair checking them, options of every timed run (sets)
CASES = {
    "spinup": {
        "deck": "input/beam/spinup.yaml",
        "node": "beam_6",
        "final_time": 15.0,
        "dt_out": 0.1,
        "steps": [0.04, 0.02, 0.01, 0.005, 0.0025, 0.00125, 6.25e-4],
        "tolerances": [1e-2, 1e-3, 1e-4, 1e-5, 1e-6],
        "first_step": 0.01,
        "reference": [3.125e-4, 1.5625e-4],
        "check": [6.25e-4, 3.125e-4],
        "quantity": "position",
        "title": "spin-up of a flexible beam (input/beam/spinup.yaml), tip position",
    },
    "intermediate_axis": {
        "deck": "bench/decks/intermediate_axis.yaml",
        "node": "body",
        "final_time": 10.0,
        "dt_out": 0.1,
        "steps": [0.004, 0.002, 0.001, 5e-4, 2.5e-4, 1.25e-4],
        "tolerances": [1e-2, 1e-3, 1e-4, 1e-5, 1e-6],
        "first_step": 0.01,
        "reference": [3.125e-5, 1.5625e-5],
        "check": [6.25e-5, 3.125e-5],
        "quantity": "attitude",
        # an error made in the steady spin grows about 1/0.001 times by the next flip: at the
        # default rtol = 1e-6 the two Richardson extrapolations differ by 1.8e-3 rad
        "sets": ["solver.atol=1e-14", "solver.rtol=1e-12"],
        "title": "free body flipping about its intermediate axis (bench/decks/"
                 "intermediate_axis.yaml)",
    },
    "struck_mount": {
        "deck": "bench/decks/struck_mount.yaml",
        "node": "body",
        "final_time": 20.0,
        "dt_out": 0.1,
        "steps": [0.004, 0.002, 0.001, 5e-4, 2.5e-4, 1.25e-4],
        "tolerances": [1e-2, 1e-3, 1e-4, 1e-5, 1e-6],
        "first_step": 0.001,
        "reference": [1.5625e-5, 7.8125e-6],
        "check": [3.125e-5, 1.5625e-5],
        "quantity": "position",
        "sets": ["solver.atol=1e-12", "solver.rtol=1e-10"],
        "title": "rigid body on elastic mounts struck by a hammer (bench/decks/"
                 "struck_mount.yaml)",
    },
}


# the reference runs' Newton tolerances: far below the time error of the finest step (at the
# default rtol = 1e-6 Newton's error stops the fine steps converging on the flipping body)
REFERENCE_NEWTON = ["solver.atol=1e-14", "solver.rtol=1e-12"]


def run(build, deck, out, sets):
    """Run the CLI into out; returns (CPU seconds of the child, out)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [os.path.join(build, "rodrigues"), "run", deck, "-o", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"work_precision: {' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, out


def read_rows(out, node, quantity):
    """{t: the node's position (x, y, z) or attitude quaternion (w, x, y, z)}"""
    cols = ["x", "y", "z"] if quantity == "position" else ["qw", "qx", "qy", "qz"]
    rows = {}
    with open(os.path.join(out, "history.csv")) as f:
        for r in csv.DictReader(f):
            rows[round(float(r["time"]), 6)] = tuple(float(r[f"{node}.{c}"]) for c in cols)
    return rows


def read_stats(out):
    import json
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)["statistics"]
    return s["steps"], s.get("error_rejections", 0) + s.get("rejected_steps", 0)


def richardson(a, b):
    """B + (B - A) / 3 row by row; quaternions (4 values) on the same sign, normalized"""
    out = {}
    for t in b:
        if t not in a:
            continue
        pa, pb = a[t], b[t]
        if len(pb) == 4 and sum(x * y for x, y in zip(pa, pb)) < 0:
            pa = tuple(-x for x in pa)
        r = tuple(y + (y - x) / 3 for x, y in zip(pa, pb))
        if len(r) == 4:
            n = sum(x * x for x in r) ** 0.5
            r = tuple(x / n for x in r)
        out[t] = r
    return out


def distance(p, q):
    """|p - q| for positions; for quaternions the angle of the rotation between them (rad)"""
    if len(p) == 3:
        return sum((x - y) ** 2 for x, y in zip(p, q)) ** 0.5
    # conj(p) q: its vector part's norm and its scalar part give the half angle
    w = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]
    v = (p[0] * q[1] - q[0] * p[1] - (p[2] * q[3] - p[3] * q[2]),
         p[0] * q[2] - q[0] * p[2] - (p[3] * q[1] - p[1] * q[3]),
         p[0] * q[3] - q[0] * p[3] - (p[1] * q[2] - p[2] * q[1]))
    return 2 * math.atan2(sum(x * x for x in v) ** 0.5, abs(w))


def errors(rows, ref, t_end):
    common = [t for t in rows if t in ref]
    if round(t_end, 6) not in common:
        sys.exit("work_precision: the final time is not among the rows")
    return distance(rows[round(t_end, 6)], ref[round(t_end, 6)]), \
        max(distance(rows[t], ref[t]) for t in common)


def fixed_sets(c, h):
    every = max(1, round(c["dt_out"] / h))
    return [f"solver.time_step={h!r}", f"output.every={every}",
            f"solver.final_time={c['final_time']!r}"] + c.get("sets", [])


def adaptive_sets(c, tol):
    every = max(1, round(c["dt_out"] / c["first_step"]))
    return [f"solver.time_step={c['first_step']!r}", f"output.every={every}",
            f"solver.final_time={c['final_time']!r}", "solver.adaptive=true",
            f"solver.tolerance={tol!r}"] + c.get("sets", [])


def main():
    args = sys.argv[1:]
    opts = {"--rounds": "3", "--case": "spinup", "--figure": None}
    pos = []
    while args:
        a = args.pop(0)
        if a in opts and args:
            opts[a] = args.pop(0)
        elif a.startswith("-"):
            sys.exit(__doc__.splitlines()[2].strip())
        else:
            pos.append(a)
    if len(pos) != 2 or opts["--case"] not in CASES:
        sys.exit(__doc__.splitlines()[2].strip())
    build, out = pos
    name, c = opts["--case"], CASES[opts["--case"]]
    rounds = int(opts["--rounds"])
    figure = opts["--figure"] or f"docs/figures/work_precision_{name}.svg"
    os.makedirs(out, exist_ok=True)
    scratch = os.path.join(out, "runs")

    # the reference and its check (once, not timed)
    fine = {}
    for h in sorted(set(c["reference"] + c["check"])):
        d = os.path.join(scratch, f"ref_{h!r}")
        run(build, c["deck"], d, fixed_sets(c, h) + REFERENCE_NEWTON)
        fine[h] = read_rows(d, c["node"], c["quantity"])
    ref = richardson(fine[c["reference"][0]], fine[c["reference"][1]])
    chk = richardson(fine[c["check"][0]], fine[c["check"][1]])
    ref_end, ref_max = errors(chk, ref, c["final_time"])

    # the ladders, interleaved rounds
    configs = [("fixed", h, fixed_sets(c, h)) for h in c["steps"]] + \
        [("adaptive", tol, adaptive_sets(c, tol)) for tol in c["tolerances"]]
    cpu = {i: [] for i in range(len(configs))}
    result = {}
    for r in range(rounds):
        for i, (kind, p, sets) in enumerate(configs):
            d = os.path.join(scratch, f"{kind}_{p!r}")
            t, _ = run(build, c["deck"], d, sets)
            cpu[i].append(t)
            if r == 0:
                rows = read_rows(d, c["node"], c["quantity"])
                result[i] = errors(rows, ref, c["final_time"]) + read_stats(d)
            print(f"round {r + 1}: {kind} {p:g}: {t:.3f} s", file=sys.stderr, flush=True)

    dat = os.path.join(out, "work_precision.dat")
    with open(dat, "w") as f:
        f.write(f"# {c['title']}\n# reference: Richardson of h = {c['reference']}; its distance "
                f"from the Richardson of h = {c['check']}: {ref_end:.3e} at the end, "
                f"{ref_max:.3e} over the rows\n# load average at the end: "
                f"{os.getloadavg()[0]:.2f}; CPU time median of {rounds} interleaved rounds\n"
                "# kind step_or_tolerance steps rejected cpu_s error_end error_max\n")
        for i, (kind, p, _) in enumerate(configs):
            e_end, e_max, steps, rej = result[i]
            f.write(f"{kind} {p:.6g} {steps} {rej} {statistics.median(cpu[i]):.4f} "
                    f"{e_end:.4e} {e_max:.4e}\n")
    print(open(dat).read(), end="")

    ylabel = ("position error of " if c["quantity"] == "position" else "attitude error (rad) of ") \
        + c["node"] + (" (m)" if c["quantity"] == "position" else "")
    gp = os.path.join(out, "work_precision.gp")
    with open(gp, "w") as f:
        f.write(f"""set logscale xy
set format x "%g"
set format y "%.0e"
set xlabel "CPU time (s), median of {rounds} interleaved rounds"
set ylabel "{ylabel}" noenhanced
set key right top
set grid
set title "{c['title']}" noenhanced
set terminal svg size 900,600 dynamic
set output "{figure}"
plot "< grep '^fixed' {dat}" u 5:6 w lp lw 2 pt 7 t "fixed step, error at the end", \\
     "< grep '^fixed' {dat}" u 5:7 w lp lw 1 pt 6 dt 2 t "fixed step, largest over the rows", \\
     "< grep '^adaptive' {dat}" u 5:6 w lp lw 2 pt 5 t "adaptive, error at the end", \\
     "< grep '^adaptive' {dat}" u 5:7 w lp lw 1 pt 4 dt 2 t "adaptive, largest over the rows", \\
     "< grep '^fixed' {dat}" u 5:6:(sprintf("h=%g", $2)) w labels offset 0,-1 font ",9" notitle, \\
     "< grep '^adaptive' {dat}" u 5:6:(sprintf("tol=%g", $2)) w labels offset 0,1 font ",9" notitle
""")
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", gp], check=True)
        print(f"wrote {dat}, {figure}", file=sys.stderr)
    else:
        print(f"wrote {dat} (no gnuplot: {gp} not drawn)", file=sys.stderr)


if __name__ == "__main__":
    main()
