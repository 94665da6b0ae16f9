#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write input/mixed/drill_string.yaml with its pipe meshed otherwise, for the mesh study of
docs/log/2026-11-26-drill.md: the pipe as NE elements of NP nodes (Gauss-Lobatto points of
each element, neighbours sharing their end nodes), the nodes named pipe_0 ... pipe_N-1 from the
top, the collar on the last one and the output on the first, middle and last; sections, damping
and everything else as in the deck.

  bench/drill_mesh.py NE NP [-o FILE] [--deck DECK] [--axial K]

--axial K gives the hole an axial stiffness K (N/m; the deck has none, the pipe hangs in
tension); K = 1e8 is the deck's earlier axial support at the bit's initial depth.
"""
import argparse
import math
import re
import sys


def gll(n):
    """The n Gauss-Lobatto-Legendre points on [-1, 1] (Newton on (1 - x^2) P'_{n-1})."""
    N = n - 1
    x = [-math.cos(math.pi * i / N) for i in range(n)]
    for _ in range(100):
        y = []
        for xi in x:
            P = [1.0, xi]
            for k in range(2, N + 1):
                P.append(((2 * k - 1) * xi * P[k - 1] - (k - 1) * P[k - 2]) / k)
            y.append(xi - (xi * P[N] - P[N - 1]) / (n * P[N]))
        x = y
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ne", type=int)
    ap.add_argument("np", type=int)
    ap.add_argument("-o", default="-")
    ap.add_argument("--deck", default="input/mixed/drill_string.yaml")
    ap.add_argument("--axial", type=float, default=0.0)
    a = ap.parse_args()
    txt = open(a.deck).read()
    nn = a.ne * (a.np - 1) + 1
    depth = 1000.0
    # the deck's nodes and elements of the pipe, replaced
    txt = re.sub(r"  - \{name: pipe_\d+,.*\}\n", "", txt)
    m = re.search(r"  - name: pipe_e0\n.*?(?=  - name: bha)", txt, re.S)
    sec = re.search(r"    sections: &pipe\n.*?(?=    damping)", m.group(0), re.S).group(0)
    damp = re.search(r"    damping: &pipe_damping .*\n", m.group(0)).group(0)
    g = gll(a.np)
    z = []
    for e in range(a.ne):
        for j, xi in enumerate(g):
            if e == 0 or j > 0:
                z.append(depth * (e + (xi + 1) / 2) / a.ne)
    z[0], z[-1] = 0.0, depth
    nodes = ""
    for i, v in enumerate(z):
        o = "&down {rotation_vector: [0, 1.5707963267948966, 0]}" if i == 0 else "*down"
        zs = ("%.12f" % v).rstrip("0").rstrip(".")
        zs = "-" + zs if zs != "0" else zs
        nodes += "  - {name: pipe_%d, position: [0, 0, %s], orientation: %s}\n" % (i, zs, o)
    els = ""
    for e in range(a.ne):
        names = ", ".join("pipe_%d" % (e * (a.np - 1) + j) for j in range(a.np))
        els += "  - name: pipe_e%d\n    type: beam\n    nodes: [%s]\n    span: [%.17g, %.17g]\n" % (
            e, names, e / a.ne, (e + 1) / a.ne)
        els += sec + damp if e == 0 else "    sections: *pipe\n    damping: *pipe_damping\n"
    txt = txt.replace(m.group(0), els)
    txt = txt.replace("nodes:\n  - name: bit\n", "nodes:\n" + nodes + "  - name: bit\n", 1)
    txt = txt.replace("[pipe_0, pipe_8, pipe_16, bit]",
                      "[pipe_0, pipe_%d, pipe_%d, bit]" % ((nn - 1) // 2, nn - 1))
    txt = txt.replace("nodes: [pipe_16, bit]", "nodes: [pipe_%d, bit]" % (nn - 1))
    txt = txt.replace("stiffness: [1.0e7, 1.0e7, 0, 1.0e6, 1.0e6, 0]",
                      "stiffness: [1.0e7, 1.0e7, %.17g, 1.0e6, 1.0e6, 0]" % a.axial)
    out = sys.stdout if a.o == "-" else open(a.o, "w")
    out.write(txt)


if __name__ == "__main__":
    main()
