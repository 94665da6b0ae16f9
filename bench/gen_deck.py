#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write large decks for the setup and size benchmarks (bench/setup_scaling.sh,
docs/performance.md "Setup and large models").

  bench/gen_deck.py chain N  [-o FILE]   N unit rods on revolutes about y, hanging along -z,
                                         turning at 0.5 rad/s (tests/support/chain.c as a deck)
  bench/gen_deck.py lattice N [-o FILE]  about N point masses in a cube of n^3 (n = round(N^(1/3))),
                                         springs on the cell edges and face diagonals, ground
                                         springs under the bottom layer (tests/support/lattice.c)
  bench/gen_deck.py beam N [-o FILE]     a straight cantilever of E = ceil((N/6 - 1)/4) elements
                                         of 5 nodes (about N DOFs), section B3, tip force

Common options: --steps K (final_time = K time steps; default 3), --solver NAME
(solver.linear_solver), --modified (solver.modified_newton: true). Every object is written out
(no YAML aliases), so the deck's size is the model's.
"""
import argparse
import math
import sys


def header(out, title, dt, steps, args, extra=""):
    out.write(f"title: \"{title}\"\n")
    out.write("gravity: [0, 0, -9.81]\n")
    out.write("solver:\n  method: generalized_alpha\n  rho_inf: 0.9\n")
    out.write(f"  time_step: {dt!r}\n  final_time: {dt * steps!r}\n")
    if args.solver:
        out.write(f"  linear_solver: {args.solver}\n")
    if args.modified:
        out.write("  modified_newton: true\n")
    out.write(extra)
    out.write("output:\n  every: 1000000\n")


def chain(out, n, args):
    header(out, f"revolute chain of {n} bodies", 1e-3, args.steps, args)
    w = 0.5
    out.write("nodes:\n")
    for i in range(n):
        s = i + 0.5
        out.write(f"  - {{name: n{i}, position: [0, 0, {-s!r}], velocity: [{-w * s!r}, 0, 0], "
                  f"angular_velocity: [0, {w}, 0]}}\n")
    out.write("elements:\n")
    for i in range(n):
        out.write(f"  - {{name: b{i}, type: rigid_body, node: n{i}, mass: 1, "
                  "inertia: [0.0833333333333333, 0.0833333333333333, 1.0e-3]}\n")
    out.write("joints:\n")
    for i in range(n):
        other = f"n{i - 1}" if i else "ground"
        out.write(f"  - {{name: j{i}, type: revolute, nodes: [n{i}, {other}], "
                  f"point: [0, 0, {-i}], axis: [0, 1, 0]}}\n")


def lattice(out, n_target, args):
    n = max(2, round(n_target ** (1.0 / 3.0)))
    header(out, f"mass-spring lattice {n}^3", 1e-2, args.steps, args)

    def node(i, j, k):
        return i + n * (j + n * k)

    out.write("nodes:\n")
    for k in range(n):
        for j in range(n):
            for i in range(n):
                out.write(f"  - {{name: p{node(i, j, k)}, kind: point, position: [{i}, {j}, {k}]}}\n")
    out.write("elements:\n")
    for c in range(n ** 3):
        out.write(f"  - {{name: m{c}, type: point_mass, node: p{c}, mass: 1}}\n")

    def spring(a, b):
        out.write(f"  - {{name: s{a}_{b}, type: spring, nodes: [p{a}, p{b}], "
                  "stiffness: [1000, 0, 10000]}\n")

    for k in range(n):
        for j in range(n):
            for i in range(n):
                a = node(i, j, k)
                if i + 1 < n:
                    spring(a, node(i + 1, j, k))
                if j + 1 < n:
                    spring(a, node(i, j + 1, k))
                if k + 1 < n:
                    spring(a, node(i, j, k + 1))
                if i + 1 < n and j + 1 < n:
                    spring(a, node(i + 1, j + 1, k))
                if j + 1 < n and k + 1 < n:
                    spring(a, node(i, j + 1, k + 1))
                if i + 1 < n and k + 1 < n:
                    spring(a, node(i + 1, j, k + 1))
    for j in range(n):
        for i in range(n):
            a = node(i, j, 0)
            out.write(f"  - {{name: g{a}, type: spring, node: p{a}, "
                      f"anchor: [{i}, {j}, -1], stiffness: [10000, 0, 0]}}\n")


# Gauss-Lobatto-Legendre points of the 5-node element on [-1, 1]
GLL5 = [-1.0, -math.sqrt(3.0 / 7.0), 0.0, math.sqrt(3.0 / 7.0), 1.0]


def beam(out, ndof, args):
    ne = max(1, math.ceil((ndof / 6 - 1) / 4))
    nn = 4 * ne + 1
    length = 10.0
    header(out, f"cantilever of {ne} five-node elements ({6 * nn} DOFs)", 0.005, args.steps, args)
    h = length / ne
    out.write("nodes:\n")
    for e in range(ne):
        for a in range(5 if e == 0 else 4):
            a0 = a if e == 0 else a + 1
            x = h * e + h * (GLL5[a0] + 1) / 2
            out.write(f"  - {{name: x{4 * e + a0}, position: [{x!r}, 0, 0]}}\n")
    out.write("time_functions:\n  - {name: ramp, type: expression, "
              "expression: \"(1 - cos(20*t))/2\"}\n")
    out.write("elements:\n")
    section = ("    sections:\n"
               "      - s: 0\n"
               "        stiffness: [[1368.17e3, 0, 0, 0, 0, 0], [0, 88.56e3, 0, 0, 0, 0],\n"
               "                    [0, 0, 38.78e3, 0, 0, 0], [0, 0, 0, 16.96e3, 17.61e3, -0.351e3],\n"
               "                    [0, 0, 0, 17.61e3, 59.12e3, -0.370e3],\n"
               "                    [0, 0, 0, -0.351e3, -0.370e3, 141.47e3]]\n"
               "        mass: [8.538e-2, 8.538e-2, 8.538e-2, 1.4433e-2, 0.40972e-2, 1.0336e-2]\n")
    for e in range(ne):
        names = ", ".join(f"x{4 * e + a}" for a in range(5))
        out.write(f"  - name: e{e}\n    type: beam\n    nodes: [{names}]\n"
                  f"    span: [{e / ne!r}, {(e + 1) / ne!r}]\n" + section)
    out.write("joints:\n  - {name: root, type: fixed, node: x0}\n")
    out.write(f"loads:\n  - {{name: tip, type: force, node: x{nn - 1}, value: [0, 0, 150], "
              "function: ramp}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("kind", choices=["chain", "lattice", "beam"])
    p.add_argument("size", type=int, help="bodies (chain), point masses (lattice), DOFs (beam)")
    p.add_argument("-o", "--output", help="deck file (default: standard output)")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--solver", help="solver.linear_solver")
    p.add_argument("--modified", action="store_true")
    args = p.parse_args()
    out = open(args.output, "w") if args.output else sys.stdout
    {"chain": chain, "lattice": lattice, "beam": beam}[args.kind](out, args.size, args)
    if args.output:
        out.close()


if __name__ == "__main__":
    main()
