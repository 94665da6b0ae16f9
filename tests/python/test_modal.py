# SPDX-License-Identifier: MIT
# The modal API from Python (python/rodrigues/modal.py): a compound pendulum hanging at rest,
# whose one mode, matrices and state-space model are known in closed form.
import math

import numpy as np
import pytest

import rodrigues as rd

M, L, G = 2.0, 1.5, 9.81
D, IP = L / 2, M * L * L / 3            # pivot to centre of mass; inertia about the pivot
OMEGA = math.sqrt(M * G * D / IP)      # small oscillations


def hanging():
    spec = rd.Spec()
    spec.add_node("rod", position=[0, 0, -D])
    spec.add_rigid_body("body", node="rod", mass=M, inertia=np.eye(3) * M * L * L / 12)
    spec.add_joint("pivot", type="revolute", node="rod", point=[0, 0, 0], axis=[0, 1, 0])
    spec.set_gravity([0, 0, -G])
    return spec.compile().create_data().initialize()


def test_matrices_of_the_hanging_pendulum():
    lin = hanging().linearize()
    info = lin.info
    assert (info["ndof"], info["nconstraint"], info["rank"], info["nreduced"]) == (6, 5, 5, 1)
    assert info["symmetric"] == 1 and info["residual"] < 1e-9
    Mm, K, B, N = (lin.matrix(k) for k in ("M", "K", "B", "N"))
    assert np.allclose(Mm, Mm.T) and np.allclose(K, K.T)
    assert np.allclose(np.diag(Mm)[:3], M)
    assert np.allclose(N.T @ N, np.eye(1)) and np.abs(B @ N).max() < 1e-12
    # the reduced matrices are N^T M N and N^T K N; N's unit column turns the rod about the
    # pivot, (d e_x, e_y) / sqrt(1 + d^2): the pivot's inertia and m g d over 1 + d^2
    Mr, Kr = lin.matrix("Mr"), lin.matrix("Kr")
    assert np.allclose(Mr, N.T @ Mm @ N) and np.allclose(Kr, N.T @ K @ N)
    assert Mr[0, 0] == pytest.approx(IP / (1 + D * D), rel=1e-12)
    assert Kr[0, 0] == pytest.approx(M * G * D / (1 + D * D), rel=1e-12)
    csc = lin.csc("K")
    assert csc.shape == (6, 6) and len(csc.indptr) == 7 and len(csc.data) == csc.indptr[-1]
    with pytest.raises(ValueError):
        lin.csc("Q")


def test_mode_of_the_hanging_pendulum(tmp_path):
    lin = hanging().linearize()
    modes = lin.modes(count=1, solver="dense")
    assert len(modes) == 1
    mode = modes[0]
    assert mode.natural_hz == pytest.approx(OMEGA / (2 * math.pi), rel=1e-10)
    assert mode.eigenvalue.imag == pytest.approx(OMEGA, rel=1e-10)
    assert abs(mode.damping_ratio) < 1e-12 and mode.kind == "other"
    shape = modes.shape(0)
    assert shape.shape == (1, 6)
    # the rod turns about y through the pivot: its centre moves along x only
    assert abs(shape[0, 0]) == pytest.approx(1, rel=1e-12)
    assert abs(shape[0, 1]) < 1e-12 and abs(shape[0, 2]) < 1e-12
    assert abs(shape[0, 4]) == pytest.approx(1 / D, rel=1e-10)
    assert modes.mac(0) == pytest.approx(1, rel=1e-12)
    damped = lin.modes(count=1, general=True)
    assert damped[0].natural_hz == pytest.approx(mode.natural_hz, rel=1e-9)
    assert modes.mac(0, damped, 0) == pytest.approx(1, rel=1e-9)
    modes.write_csv(tmp_path / "modes.csv")
    assert (tmp_path / "modes.csv").read_text().startswith("mode,frequency_hz")


def test_state_space_of_the_hanging_pendulum(tmp_path):
    lin = hanging().linearize()
    ss = lin.state_space(inputs=[("moment", "rod", 1)], outputs=[("rotation", "rod", 1),
                                                                 ("reaction_force", "pivot", 0)])
    assert ss.A.shape == (2, 2) and ss.B.shape == (2, 1) and ss.C.shape == (2, 2)
    assert np.allclose(sorted(np.linalg.eigvals(ss.A).imag), [-OMEGA, OMEGA], rtol=1e-10)
    # static gain of the rotation under a moment about y: 1 / (m g d)
    gain = ss.C @ np.linalg.solve(-ss.A, ss.B) + ss.D
    assert gain[0, 0] == pytest.approx(1 / (M * G * D), rel=1e-10)
    ss.write(tmp_path)
    assert (tmp_path / "A.mtx").exists() and (tmp_path / "statespace.json").exists()
    with pytest.raises(ValueError):
        lin.state_space(inputs=[("torque", "rod", 1)], outputs=[])
