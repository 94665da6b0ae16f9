# SPDX-License-Identifier: MIT
# The Python package against the C library it wraps: decks, the spec API, stepping, queries,
# callbacks with Jacobians, the split step, checkpoints, errors.
import math

import numpy as np
import pytest

import rodrigues as rd


def test_deck_run_matches_between_two_reads(deck):
    # two independent reads and runs of a deck give the same bits
    out = []
    for _ in range(2):
        data = rd.read_deck(deck("heavy_top.yaml")).compile().create_data().initialize()
        data.advance(0.2)
        out.append(data.node_state("top"))
    assert data.time == pytest.approx(0.2, abs=1e-15)
    for a, b in zip(*out):
        assert np.array_equal(a, b)
    assert np.linalg.norm(out[0].orientation) == pytest.approx(1, abs=1e-12)


def test_overrides_and_options(deck):
    spec = rd.read_deck(deck("heavy_top.yaml"), set={"solver.time_step": 1e-3,
                                                     "solver.method": "nmb"})
    assert spec.option("solver.time_step") == "0.001"
    model = spec.compile()
    assert model.method == "nmb"
    assert model.option_real("solver.time_step") == 1e-3
    keys = [k for k, *_ in rd.options()]
    assert "solver.time_step" in keys and "output.netcdf_deflate" in keys


def pendulum_spec(length=1.0, mass=1.0, theta0=1.0):
    """A compound pendulum built through the spec API: a rod on a revolute about y."""
    spec = rd.Spec()
    arm = length / 2
    spec.add_node("rod", position=[arm * math.sin(theta0), 0, -arm * math.cos(theta0)])
    spec.add_rigid_body("body", node="rod", mass=mass,
                        inertia=np.eye(3) * mass * length ** 2 / 12)
    spec.add_joint("pivot", type="revolute", node="rod", point=[0, 0, 0], axis=[0, 1, 0])
    spec.set_gravity([0, 0, -9.81])
    spec.set_option("solver.rho_inf", 1)
    spec.set_option("solver.rtol", 1e-12)
    spec.set_option("solver.atol", 1e-12)
    return spec


def test_spec_api_pendulum_reaction_and_period():
    # Newton's law at release (at rest) and one exact period (complete elliptic integral)
    m, L, g, th = 1.0, 1.0, 9.81, 1.0
    model = pendulum_spec(L, m, th).compile()
    assert model.joint_names == ["pivot"] and model.info["njoint"] == 1
    data = model.create_data().initialize()
    f, moment = data.reaction("pivot")
    d, Ip = L / 2, m * L * L / 12 + m * L * L / 4
    s, c = math.sin(th), math.cos(th)
    assert f[0] * s - f[2] * c == pytest.approx(-m * g * c, abs=1e-9)
    assert f[0] * c + f[2] * s == pytest.approx(m * g * s * (1 - m * d * d / Ip), abs=1e-9)
    F, M = data.reactions()
    assert F.shape == (1, 3) and np.array_equal(F[0], f)
    a, b = 1.0, math.sqrt(1 - math.sin(th / 2) ** 2)
    for _ in range(30):
        a, b = (a + b) / 2, math.sqrt(a * b)
    period = 4 * (math.pi / (2 * a)) / math.sqrt(m * g * d / Ip)
    data.advance(period / 4)
    x = data.node_state(0).position
    assert abs(math.atan2(x[0], -x[2])) < 1e-4  # at the bottom
    data.advance(period)
    x = data.node_state(0).position
    assert math.atan2(x[0], -x[2]) == pytest.approx(th, abs=1e-6)


def damper_spec(mode, calls):
    """Mass on a spring (m 2, k 50) with a damper c = 0.8 built in (mode 'builtin'), as a
    Python load callback with or without its Jacobian, or as a Python user element."""
    c = 0.8
    spec = rd.Spec()
    spec.add_node("mass", kind="point", position=[1, 0, 0])
    spec.add_point_mass("m", node="mass", mass=2)
    if mode == "element":
        def element(t, pose, vel, acc, matrices):
            calls.append(t)
            d = np.array([101.0, 0, 0]) - pose[0, :3]
            length = np.linalg.norm(d)
            u = d / length
            e, rate = length - 101, -u @ vel[0, :3]
            r = np.zeros((1, 6))
            r[0, :3] = -(50 * e + c * rate) * u
            if not matrices:
                return r
            K, C = np.zeros((6, 6)), np.zeros((6, 6))
            P = np.outer(u, u)
            K[:3, :3] = 50 * P + 50 * e / length * (np.eye(3) - P)
            C[:3, :3] = c * P
            return r, K, C, None
        spec.add_user_element("spring", nodes=["mass"], callback=element)
    else:
        spec.add_spring("spring", node=["mass", "ground"], anchor=[101, 0, 0],
                        stiffness=[50, 0, 0], rest_length=101,
                        damping=c if mode == "builtin" else 0)
    if mode in ("callback", "jacobian"):
        def load(t, pose, vel):
            calls.append(t)
            out = np.zeros((1, 6))
            out[0, :3] = -c * vel[0, :3]
            return out

        def jacobian(t, pose, vel):
            dv = np.zeros((6, 6))
            dv[:3, :3] = -c * np.eye(3)
            return None, dv
        spec.add_load_callback("aero", nodes=["mass"], callback=load,
                               jacobian=jacobian if mode == "jacobian" else None)
    # newton_test increment: Newton far inside its tolerance, as the formulations are compared to
    # 1e-8 and without a Jacobian each step's Newton error is of the tolerance's size
    for k, v in {"solver.time_step": 1e-3, "solver.rho_inf": 0.9, "solver.atol": 1e-12,
                 "solver.rtol": 1e-10, "solver.newton_test": "increment"}.items():
        spec.set_option(k, v)
    return spec


def run_damper(mode, t=1.0):
    calls = []
    data = damper_spec(mode, calls).compile().create_data().initialize()
    data.advance(t)
    return data.node_state(0).position[0], data.stats["newton_iterations"], len(calls)


def test_python_callbacks_match_the_built_in_damper():
    xb, nb, _ = run_damper("builtin")
    xc, nc, cc = run_damper("callback")
    xj, nj, cj = run_damper("jacobian")
    xe, ne, ce = run_damper("element")
    assert cc > 0 and cj > 0 and ce > 0
    assert abs(xc - xb) < 1e-8 and abs(xj - xb) < 1e-12 and abs(xe - xb) < 1e-12
    assert nj == nb and ne == nb and nc > nb  # the Jacobian gives Newton the coupling
    # against the exact damped oscillation x(1)
    z, w0 = 0.8 / (2 * math.sqrt(100)), 5.0
    wd = w0 * math.sqrt(1 - z * z)
    exact = math.exp(-z * w0) * (math.cos(wd) + z * w0 / wd * math.sin(wd))
    assert abs(xb - exact) < 1e-4


def test_split_step_with_held_loads_equals_callback_free_run():
    # rd_stepBegin/rd_stepEnd without host loads are rd_step bit for bit; a held load moves
    # the mass as the same constant load in a callback does
    a = damper_spec("builtin", []).compile()
    d1, d2 = a.create_data().initialize(), a.create_data().initialize()
    for _ in range(50):
        d1.step(1e-3)
        d2.step_begin(1e-3)
        assert d2.step_end() == 0
    assert np.array_equal(d1.node_state(0).position, d2.node_state(0).position)
    calls = []
    spec = damper_spec("builtin", calls)
    spec.add_load_callback("push", nodes=["mass"],
                           callback=lambda t, p, v: np.array([[3.0, 0, 0, 0, 0, 0]]))
    d3 = spec.compile().create_data().initialize()
    d4 = a.create_data()
    d4.set_node_load("mass", force=[3.0, 0, 0])  # held from the start, as the callback's
    d4.initialize()
    for _ in range(50):
        d3.step(1e-3)
        d4.step_begin(1e-3)
        predicted = d4.node_state("mass").velocity
        assert np.all(np.isfinite(predicted))
        d4.set_node_load("mass", force=[3.0, 0, 0])
        assert d4.step_end() == 0
    assert abs(d3.node_state(0).position[0] - d4.node_state(0).position[0]) < 1e-12


def test_callback_exception_is_raised_by_the_call():
    spec = damper_spec("builtin", [])

    def bad(t, pose, vel):
        raise ValueError("host failed")
    spec.add_load_callback("bad", nodes=["mass"], callback=bad)
    data = spec.compile().create_data()
    with pytest.raises(rd.Error) as e:
        data.initialize()
    assert e.value.name == "RD_ERR_CALLBACK"
    assert isinstance(e.value.__cause__, ValueError)


def test_time_function_callback_drives_a_load():
    # a load f(t) = t on the free mass: x(t) = 1 + t^3 / (6 m) without the spring
    spec = rd.Spec()
    spec.add_node("mass", kind="point", position=[1, 0, 0])
    spec.add_point_mass("m", node="mass", mass=2)
    spec.add_time_function("ramp", type="callback", callback=lambda t: (t, 1.0, 0.0))
    spec.add_load("push", node="mass", kind="force", value=[1, 0, 0], timefn="ramp")
    spec.set_option("solver.time_step", 1e-3)
    data = spec.compile().create_data().initialize()
    data.advance(1.0)
    assert data.node_state(0).position[0] == pytest.approx(1 + 1 / 12, abs=1e-5)


def test_checkpoint_resumes_bit_for_bit(deck, tmp_path):
    model = rd.read_deck(deck("pendulum.yaml")).compile()
    whole = model.create_data().initialize()
    whole.advance(0.4)
    half = model.create_data().initialize()
    half.advance(0.2)
    path = tmp_path / "state.chk"
    half.write_checkpoint(path)
    resumed = model.create_data()
    resumed.read_checkpoint(path)
    assert resumed.time == half.time
    resumed.advance(0.4)
    for a, b in zip(whole.node_state(0), resumed.node_state(0)):
        assert np.array_equal(a, b)
    copy = whole.copy()
    assert np.array_equal(copy.node_state(0).position, whole.node_state(0).position)


def test_beam_queries(deck):
    spec = rd.read_deck(deck("beam/nrel5mw_rotating.yaml"),
                        set={"solver.final_time": 0.01, "output.reactions": ["root"]})
    model = spec.compile()
    assert model.beam_names == ["blade"] and model.info["noutput_reaction"] == 1
    data = model.create_data().initialize()
    data.advance()
    x, F = data.beam_section_forces("blade")
    assert x.shape[1] == 3 and F.shape == (x.shape[0], 6)
    # at the first quadrature point (the root, quadrature: stations) the interpolated section
    # load is that point's value
    assert np.array_equal(data.beam_section_load("blade", 0.0), F[0])
    states = data.states()
    assert states.position.shape == (6, 3) and states.orientation.shape == (6, 4)


def test_errors_carry_the_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("nodes:\n  - name: a\n    mass: 3\n")
    with pytest.raises(rd.Error) as e:
        rd.read_deck(bad)
    assert e.value.name == "RD_ERR_DECK" and "bad.yaml:3:5" in str(e.value)
    spec = rd.Spec()
    with pytest.raises(rd.Error) as e:
        spec.set_option("solver.no_such", 1)
    assert e.value.status == rd.lib.RD_ERR_ARG
    with pytest.raises(ValueError):
        spec.add_node("n", kind="liquid")
