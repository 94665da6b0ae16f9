#!/usr/bin/env python3
"""Time derivatives of a torque-free rigid body's angular velocity in the body and the spatial frame.

The body form of generalized-alpha integrates the body angular velocity W, the spatial form
omega = R W; their truncation errors are made of the time derivatives of W and of omega
(docs/generalized_alpha.md, "Why the torque-free body loses"). In body components,

    omega'   = R W'
    omega''  = R (W'' + W x W')
    omega''' = R (W''' + 2 W x W'' + W x (W x W'))        (W' x W' = 0)

This integrates Euler's equations J W' = -W x J W with RK4 (step 1e-3; the derivatives by
central differences of the flow, step 1e-3) and prints the root-mean-square of |W''|,
|omega''|, |W'''|, |omega'''| over [0, T]:

    python3 tools/frame_derivatives.py                      # input/rigid/free_body.yaml, T = 10
    python3 tools/frame_derivatives.py --inertia 0.9144,1.098,1.66 --omega 0.45549,0.82623,0.03476 --final 10
"""
import argparse
import math


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def add(*vs):
    return tuple(sum(c) for c in zip(*vs))


def scale(s, a):
    return tuple(s * x for x in a)


def norm(a):
    return math.sqrt(sum(x * x for x in a))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--inertia", default="0.9144,1.098,1.66", help="principal inertia J1,J2,J3")
    p.add_argument("--omega", default="0.45549,0.82623,0.03476", help="initial body W")
    p.add_argument("--final", type=float, default=10.0, help="final time T")
    a = p.parse_args()
    J = tuple(float(x) for x in a.inertia.split(","))
    W = tuple(float(x) for x in a.omega.split(","))

    def f(w):
        c = cross(w, tuple(J[i] * w[i] for i in range(3)))
        return tuple(-c[i] / J[i] for i in range(3))

    def rk4(w, h):
        k1 = f(w)
        k2 = f(add(w, scale(h / 2, k1)))
        k3 = f(add(w, scale(h / 2, k2)))
        k4 = f(add(w, scale(h, k3)))
        return add(w, scale(h / 6, add(k1, scale(2, k2), scale(2, k3), k4)))

    h = e = 1e-3
    n = int(round(a.final / h))
    sums = {"W''": 0.0, "omega''": 0.0, "W'''": 0.0, "omega'''": 0.0}
    for _ in range(n):
        wm1, wp1 = rk4(W, -e), rk4(W, e)
        wm2, wp2 = rk4(wm1, -e), rk4(wp1, e)
        d1 = f(W)
        d2 = scale(1 / e**2, add(wp1, wm1, scale(-2, W)))
        d3 = scale(1 / (2 * e**3), add(wp2, scale(-2, wp1), scale(2, wm1), scale(-1, wm2)))
        s2 = add(d2, cross(W, d1))
        s3 = add(d3, scale(2, cross(W, d2)), cross(W, cross(W, d1)))
        for key, v in (("W''", d2), ("omega''", s2), ("W'''", d3), ("omega'''", s3)):
            sums[key] += norm(v) ** 2 / n
        W = rk4(W, h)
    rms = {k: math.sqrt(v) for k, v in sums.items()}
    print("rms over t in [0, %g]:" % a.final)
    for k in ("W''", "omega''", "W'''", "omega'''"):
        print("  |%s| %.4f" % (k, rms[k]))
    print("spatial / body: second derivative %.2f, third %.2f"
          % (rms["omega''"] / rms["W''"], rms["omega'''"] / rms["W'''"]))


if __name__ == "__main__":
    main()
