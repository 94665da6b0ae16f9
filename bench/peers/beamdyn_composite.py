#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write BeamDyn input decks (driver, primary, blade file) for the composite cantilever B3.

usage: beamdyn_composite.py DIR [--nodes N] [--dt DT] [--final T] [--stop-tol TOL|default]
                            [--n-fact K|default]
                            [--outputs full|tip] [--rodrigues DECK.yaml]

The model of tests/data/composite_cantilever/README.md: a straight beam along BeamDyn's z,
L = 10, root clamped, the box-beam section of Wang et al. (2017) constant along the span, no
gravity, no damping, a dead tip force of 150 N along +y from t = 0, rho_inf = 0, Gauss
quadrature (order + 1 points per element). N = 4E + 1 nodes: E members of one order-4
element each (3 key points per member, consecutive members share their end key point).
These are input decks in BeamDyn's format, written by us; BeamDyn itself is not here.
--rodrigues also writes the same model as a rodrigues deck: the beam along global z as in
BeamDyn's blade frame (what `rodrigues import beamdyn` writes for one member), E beam elements
of 5 nodes sharing their end nodes, BeamDyn's rotation field, weak form and extension-twist
term, nodes named blade_0 ... blade_{N-1}, the tip force [0, 150, 0].
"""
import argparse
import os

STIFF = [[88.56e3, 0, 0, 0, 0, 0],
         [0, 38.78e3, 0, 0, 0, 0],
         [0, 0, 1368.17e3, 0, 0, 0],
         [0, 0, 0, 59.12e3, -0.370e3, 17.61e3],
         [0, 0, 0, -0.370e3, 141.47e3, -0.351e3],
         [0, 0, 0, 17.61e3, -0.351e3, 16.96e3]]
MASS = [8.538e-2, 8.538e-2, 8.538e-2, 4.0972e-3, 1.0336e-2, 1.4433e-2]
LENGTH = 10.0
TIP_FORCE_Y = 150.0

FULL = ['"RootFxr, RootFyr, RootFzr, RootMxr, RootMyr, RootMzr"',
        '"TipTDxr, TipTDyr, TipTDzr, TipRDxr, TipRDyr, TipRDzr"',
        '"TipTVXg, TipTVYg, TipTVZg, TipRVXg, TipRVYg, TipRVZg"',
        '"TipTAXl, TipTAYl, TipTAZl, TipRAXl, TipRAYl, TipRAZl"']
TIP = ['"TipTDxr, TipTDyr, TipTDzr, TipRDxr, TipRDyr, TipRDzr"']


def fmt(x):
    return f"{x:.7E}"


def driver(dt, final):
    z = "          0"
    rows = ["------- BEAMDYN Driver with OpenFAST INPUT FILE --------------------------------",
            "Composite cantilever B3 (Wang et al. 2017), dynamic, 150 N tip step along +y",
            "---------------------- SIMULATION CONTROL --------------------------------------",
            "True          DynamicSolve  - Dynamic solve (false for static solve) (-)",
            f"{z}   t_initial     - Starting time of simulation (s)",
            f"{final:>11g}   t_final       - Ending time of simulation (s)",
            f"{dt:>11.10g}   dt            - Time increment size (s)",
            "---------------------- GRAVITY PARAMETER --------------------------------------",
            f"{z}   Gx            - Gravity along X (m/s^2)",
            f"{z}   Gy            - Gravity along Y (m/s^2)",
            f"{z}   Gz            - Gravity along Z (m/s^2)",
            "---------------------- FRAME PARAMETER --------------------------------------",
            f"{z}   GlbPos(1)     - Blade frame origin X (m)",
            f"{z}   GlbPos(2)     - Blade frame origin Y (m)",
            f"{z}   GlbPos(3)     - Blade frame origin Z (m)",
            "---The following 3 by 3 matrix is the direction cosine matirx ,GlbDCM(3,3),",
            "---relates global frame to the initial blade root frame",
            "1.0000000E+00  0.0000000E+00  0.0000000E+00",
            "0.0000000E+00  1.0000000E+00  0.0000000E+00",
            "0.0000000E+00  0.0000000E+00  1.0000000E+00",
            "True          GlbRotBladeT0 - Reference orientation aligned with initial blade root?",
            "---------------------- ROOT VELOCITY PARAMETER ----------------------------------",
            f"{z}   RootVel(4)    - Root angular velocity about X (rad/s)",
            f"{z}   RootVel(5)    - Root angular velocity about Y (rad/s)",
            f"{z}   RootVel(6)    - Root angular velocity about Z (rad/s)",
            "---------------------- APPLIED FORCE ----------------------------------"]
    for i in range(6):
        rows.append(f"{z}   DistrLoad({i + 1})  - Distributed load component {i + 1}")
    tip = [0, TIP_FORCE_Y, 0, 0, 0, 0]
    for i in range(6):
        rows.append(f"{tip[i]:>11g}   TipLoad({i + 1})    - Tip load component {i + 1} (N, N-m)")
    rows += [f"{z}   NumPointLoads - Number of point loads along blade",
             "Non-dim blade-span eta   Fx          Fy            Fz           Mx           My           Mz",
             "(-)                      (N)         (N)           (N)          (N-m)        (N-m)        (N-m)",
             "---------------------- PRIMARY INPUT FILE --------------------------------------",
             '"bd_primary.inp"    InputFile - Name of the primary BeamDyn input file',
             "----- Output Settings -------------------------------------------------------------------",
             f"{z}   WrVTK         - VTK output {{0=none; 1=init; 2=animation}}",
             "         15   VTK_fps       - Frame rate for VTK output"]
    return "\n".join(rows) + "\n"


def primary(members, stop_tol, n_fact, outputs):
    kps = []
    for m in range(members):
        for k in (0, 1) if m < members - 1 else (0, 1, 2):
            kps.append(LENGTH * (2 * m + k) / (2 * members))
    d = '"DEFAULT"    '
    rows = ["--------- BEAMDYN with OpenFAST INPUT FILE -------------------------------------------",
            "Composite cantilever B3, primary input file",
            "---------------------- SIMULATION CONTROL --------------------------------------",
            "False         Echo             - Echo input data to <RootName>.ech (flag)",
            "False         QuasiStaticInit  - Quasi-static pre-conditioning (flag)",
            "          0   rhoinf           - Numerical damping parameter for generalized-alpha",
            "          1   quadrature       - Quadrature method: 1=Gaussian; 2=Trapezoidal",
            f"{d} refine           - Refinement factor for trapezoidal quadrature",
            f"{n_fact:>11s}   n_fact           - Factorization frequency for the Jacobian in N-R",
            f"{d} DTBeam           - Time step size (s)",
            f"{d} load_retries     - Number of factored load retries",
            f"{d} NRMax            - Max number of Newton-Raphson iterations [DEFAULT = 10]",
            f"{stop_tol:>11s}   stop_tol         - Tolerance for stopping criterion [DEFAULT = 1E-5]",
            "False         tngt_stf_fd      - Finite-differenced tangent stiffness (flag)",
            "False         tngt_stf_comp    - Compare analytical and FD tangent stiffness (flag)",
            f"{d} tngt_stf_pert    - Perturbation size for finite differencing",
            f"{d} tngt_stf_difftol - Allowed relative difference of the tangents",
            "True          RotStates        - Orient states in the rotating frame (linearization)",
            "---------------------- GEOMETRY PARAMETER --------------------------------------",
            f"{members:>11d}   member_total    - Total number of members (-)",
            f"{len(kps):>11d}   kp_total        - Total number of key points (-)"]
    for m in range(members):
        rows.append(f"{m + 1:>6d}      3                 - Member number; Number of key points")
    rows += ["   kp_xr         kp_yr         kp_zr        initial_twist",
             "   (m)            (m)          (m)            (deg)"]
    for z in kps:
        rows.append(f"{fmt(0)}  {fmt(0)}  {fmt(z)}  {fmt(0)}")
    rows += ["---------------------- MESH PARAMETER ------------------------------------------",
             "          4   order_elem     - Order of interpolation (basis) function (-)",
             "---------------------- MATERIAL PARAMETER --------------------------------------",
             '"beam_props.inp"    BldFile - Name of file containing properties for blade',
             "---------------------- OUTPUTS -------------------------------------------------",
             "False         SumPrint       - Print summary data (flag)",
             '"ES16.8E2"    OutFmt         - Format used for text tabular output',
             "          1   NNodeOuts      - Number of nodes to output to file [0 - 9] (-)",
             "          1   OutNd          - Nodes whose values will be output (-)",
             "          OutList        - The next line(s) contains a list of output parameters"]
    rows += FULL if outputs == "full" else TIP
    rows += ['END of OutList section (the word "END" must appear in the first 3 columns of the last OutList line)',
             "====== Outputs for all blade stations (optional section) ======",
             '"All"         BldNd_BlOutNd       - Future feature (-)',
             "                  OutList             - Nodal output channels (-)",
             "END (the word \"END\" must appear in the first 3 columns of this last OutList line)",
             "--------------------------------------------------------------------------------"]
    return "\n".join(rows) + "\n"


def blade():
    rows = [" ------- BEAMDYN V1.00.* INDIVIDUAL BLADE INPUT FILE --------------------------",
            " Composite box beam (Wang et al. 2017), constant section",
            "------ Blade Parameters --------------------------------------------------------",
            "2                       station_total    - Number of blade input stations (-)",
            "0                       damp_type        - Damping type {0: none, 1: stiffness-proportional, 2: modal}",
            "------ Stiffness-Proportional Damping [used only if damp_type=1] ---------------",
            "   mu1        mu2        mu3        mu4        mu5        mu6",
            "   (-)        (-)        (-)        (-)        (-)        (-)",
            "0.0        0.0        0.0        0.0        0.0        0.0",
            "------ Modal Damping [used only if damp_type=2] --------------------------------",
            "1                        n_modes    - Number of modal damping coefficients (-)",
            "0.0                      zeta       - Damping coefficients for mode 1 through n_modes",
            "------ Distributed Properties --------------------------------------------------"]
    for eta in (0.0, 1.0):
        rows.append(f"  {eta:.6f}")
        for r in STIFF:
            rows.append("   " + "  ".join(fmt(x) for x in r))
        rows.append("")
        for i in range(6):
            rows.append("   " + "  ".join(fmt(MASS[i] if i == j else 0.0) for j in range(6)))
        rows.append("")
    return "\n".join(rows[:-1]) + "\n"  # no blank line after the last station


# BeamDyn's section frame (axis z, strain order shear x, shear y, extension, bending x, y,
# torsion) to ours (axis x): C' = Q C Q^T, Q = diag(P, P), P = [[0,0,1],[1,0,0],[0,1,0]]
PERM = [2, 0, 1, 5, 3, 4]


def rodrigues(nodes, dt, final):
    gll = [-1.0, -(3.0 / 7.0) ** 0.5, 0.0, (3.0 / 7.0) ** 0.5, 1.0]
    members = (nodes - 1) // 4
    le = LENGTH / members
    zs = [e * le + (1 + x) / 2 * le for e in range(members) for x in gll[:-1]] + [LENGTH]
    stiff = [[STIFF[PERM[i]][PERM[j]] for j in range(6)] for i in range(6)]
    mass = [MASS[PERM[i]] for i in range(6)]
    rows = ["# Composite cantilever B3 with N nodes, the model of bench/peers/beamdyn_composite.py's",
            "# BeamDyn decks (written by the same program): the beam along global z as in BeamDyn's",
            "# blade frame, order-4 elements sharing end nodes, BeamDyn's rotation field, weak form",
            "# and extension-twist term.",
            f'title: "B3 composite cantilever, {nodes} nodes, 150 N tip step"',
            "gravity: [0, 0, 0]", "",
            "solver:", "  method: generalized_alpha", "  rho_inf: 0",
            f"  time_step: {dt:.10g}", f"  final_time: {final:g}", "",
            "output:", f"  every: {max(1, round(0.05 / dt))}", f"  nodes: [blade_0, blade_{nodes - 1}]", "",
            "nodes:"]
    for i, z in enumerate(zs):
        rows += [f"  - name: blade_{i}", f"    position: [0, 0, {z!r}]",
                 "    orientation: {quaternion: [0.5, -0.5, -0.5, -0.5]}"]
    rows += ["", "elements:"]
    for e in range(members):
        names = ", ".join(f"blade_{4 * e + k}" for k in range(5))
        rows += [f"  - name: blade_e{e}", "    type: beam", f"    nodes: [{names}]",
                 f"    span: [{e / members!r}, {(e + 1) / members!r}]",
                 "    quadrature: full", "    rotation_field: displacement",
                 "    virtual_rotation: interpolated", "    extension_twist: true",
                 "    sections:", "      - s: 0",
                 "        stiffness:"]
        rows += [f"          - [{', '.join(f'{x:g}' for x in r)}]" for r in stiff]
        rows += [f"        mass: [{', '.join(f'{x:g}' for x in mass)}]"]
    rows += ["", "joints:", "  - {name: root, type: fixed, node: blade_0}", "",
             "loads:", f"  - {{name: tip_force, type: force, node: blade_{nodes - 1}, "
             f"value: [0, {TIP_FORCE_Y:g}, 0]}}"]
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--nodes", type=int, default=5)
    ap.add_argument("--dt", type=float, default=0.005)
    ap.add_argument("--final", type=float, default=1.0)
    ap.add_argument("--stop-tol", default="1e-10", help="BeamDyn's stop_tol, or 'default' (1e-5)")
    ap.add_argument("--n-fact", default="1", help="BeamDyn's n_fact, or 'default' (5)")
    ap.add_argument("--outputs", choices=["full", "tip"], default="full")
    ap.add_argument("--rodrigues", metavar="DECK.yaml")
    a = ap.parse_args()
    a.stop_tol = '"DEFAULT"' if a.stop_tol == "default" else f"{float(a.stop_tol):g}"
    a.n_fact = '"DEFAULT"' if a.n_fact == "default" else str(int(a.n_fact))
    if a.nodes < 5 or (a.nodes - 1) % 4:
        ap.error("--nodes must be 4E + 1 (E >= 1 order-4 elements)")
    os.makedirs(a.dir, exist_ok=True)
    files = {"bd_driver.inp": driver(a.dt, a.final),
             "bd_primary.inp": primary((a.nodes - 1) // 4, a.stop_tol, a.n_fact, a.outputs),
             "beam_props.inp": blade()}
    for name, text in files.items():
        with open(os.path.join(a.dir, name), "w") as f:
            f.write(text)
    if a.rodrigues:
        with open(a.rodrigues, "w") as f:
            f.write(rodrigues(a.nodes, a.dt, a.final))


if __name__ == "__main__":
    main()
