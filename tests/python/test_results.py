# SPDX-License-Identifier: MIT
# Results of a run as pandas and xarray objects; history.nc read back with the netCDF library
# and xarray against history.csv; the CF check (tools/check_cf.py).
import os
import shutil
import subprocess
import sys

import netCDF4
import numpy as np
import pytest

import rodrigues as rd

NREL_SET = {"solver.final_time": 0.04, "output.netcdf": True, "output.reactions": ["root"],
            "output.section_loads": "[{beam: blade, s: 0}, {beam: blade, s: 0.5}]"}


@pytest.fixture(scope="module")
def nrel(tmp_path_factory, source):
    out = tmp_path_factory.mktemp("nrel")
    return rd.run(os.path.join(source, "input", "beam", "nrel5mw_rotating.yaml"), out,
                  set=NREL_SET)


@pytest.fixture(scope="module")
def crank(tmp_path_factory, source):
    out = tmp_path_factory.mktemp("crank")
    return rd.run(os.path.join(source, "input", "slider_crank.yaml"), out,
                  set={"solver.final_time": 0.1, "output.netcdf": True})


def test_history_as_pandas(nrel):
    h = nrel.history
    assert h.index.name == "time" and len(h) == 21  # t = 0 and 20 steps of 0.002
    assert list(h.columns[:3]) == ["blade_0.x", "blade_0.y", "blade_0.z"]
    for col in ("root.Fx", "root.Mz", "blade@0.Nx", "blade@0.5.Mz", "momentum_x",
                "angular_momentum_z", "newton_iterations"):
        assert col in h.columns
    # the root loads of the last row are the API's, bit for bit
    f, m = nrel.data.reaction("root")
    assert np.array_equal(h[["root.Fx", "root.Fy", "root.Fz"]].iloc[-1].to_numpy(), f)
    assert np.array_equal(h[["root.Mx", "root.My", "root.Mz"]].iloc[-1].to_numpy(), m)
    assert nrel.summary["counts"]["beams"] == 1


def test_cli_history_root_loads_are_the_apis(tmp_path, source):
    # `rodrigues run` itself: the root reaction and root section load columns of its
    # history.csv equal, row by row and bit for bit, what the API returns at the same steps
    exe = os.environ.get("RODRIGUES_EXE") or shutil.which("rodrigues")
    assert exe, "no rodrigues program: set RODRIGUES_EXE (meson test sets it)"
    path = os.path.join(source, "input", "beam", "nrel5mw_rotating.yaml")
    sets = ["solver.final_time=0.02", "output.reactions=[root]",
            "output.section_loads=[{beam: blade, s: 0}]"]
    cmd = [exe, "run", path, "-o", str(tmp_path)]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    h = rd.read_history(tmp_path)
    data = rd.read_deck(path, set=dict(s.split("=", 1) for s in sets)).compile().create_data()
    rows = []

    def observe(d):
        f, m = d.reaction("root")
        rows.append(np.concatenate([f, m, d.beam_section_load("blade", 0)]))

    data.initialize()
    observe(data)
    data.advance(observer=observe)
    cols = [f"root.{c}" for c in ("Fx", "Fy", "Fz", "Mx", "My", "Mz")]
    cols += [f"blade@0.{c}" for c in ("Nx", "Ny", "Nz", "Mx", "My", "Mz")]
    assert len(h) == len(rows) == 11  # t = 0 and 10 steps of 0.002
    assert np.array_equal(h[cols].to_numpy(), np.array(rows))
    assert np.linalg.norm(rows[-1][:3]) > 1e5  # the spinning blade pulls on its root


def test_xarray_selects_nodes_and_joints_by_name(nrel, crank):
    ds = nrel.dataset
    tip = ds.position.sel(node="blade_5").isel(time=-1).values
    assert np.array_equal(tip, nrel.data.node_state("blade_5").position)
    assert ds.position.sel(node="blade_5", vec3="z").isel(time=-1) == tip[2]
    root = ds.reaction_force.sel(joint="root").isel(time=-1).values
    assert np.array_equal(root, nrel.data.reaction("root")[0])
    sec = ds.section_moment.sel(section="blade@0.5").isel(time=-1).values
    assert np.array_equal(sec, nrel.data.beam_section_load("blade", 0.5)[3:])
    cds = crank.dataset
    assert list(cds.joint.values) == ["pivot", "crank_pin", "slider_pin", "guide"]
    assert cds.reaction_moment.sel(joint="guide").shape == (cds.sizes["time"], 3)
    assert float(cds.time[-1]) == pytest.approx(0.1, abs=1e-12)  # seconds, not dates


def test_netcdf_holds_every_history_column(nrel):
    # each history.csv column has its variable in history.nc with the same values
    h = nrel.history
    nc = netCDF4.Dataset(os.path.join(nrel.directory, "history.nc"))
    t = nc["time"][:]
    assert np.array_equal(t, h.index.to_numpy())
    nodes = list(nc["node"][:])
    comps = {"x": ("position", 0), "y": ("position", 1), "z": ("position", 2),
             "qw": ("orientation", 0), "qx": ("orientation", 1), "qy": ("orientation", 2),
             "qz": ("orientation", 3), "vx": ("velocity", 0), "vy": ("velocity", 1),
             "vz": ("velocity", 2), "wx": ("angular_velocity", 0), "wy": ("angular_velocity", 1),
             "wz": ("angular_velocity", 2), "Wx": ("angular_velocity_body", 0),
             "Wy": ("angular_velocity_body", 1), "Wz": ("angular_velocity_body", 2)}
    sections = list(nc["section"][:])
    seen = 0
    for col in h.columns:
        want = h[col].to_numpy()
        name, _, suffix = col.rpartition(".")
        if name in nodes:
            var, k = comps[suffix]
            got = nc[var][:, nodes.index(name), k]
        elif name == "root":
            k = "xyz".index(suffix[1])
            got = nc["reaction_force" if suffix[0] == "F" else "reaction_moment"][:, 0, k]
        elif name in sections:
            k = "xyz".index(suffix[1])
            got = nc["section_force" if suffix[0] == "N" else "section_moment"][:,
                                                                                sections.index(name), k]
        elif col.startswith(("momentum_", "angular_momentum_")):
            got = nc[col[:-2]][:, "xyz".index(col[-1])]
        else:
            got = nc[col][:]
        assert np.array_equal(np.asarray(got, dtype=float), want), col
        seen += 1
    assert seen == len(h.columns)
    # deflate with shuffle on every time series, at output.netcdf_deflate's default
    for name, var in nc.variables.items():
        if var.dimensions[:1] == ("time",) and name != "time":
            f = var.filters()
            assert f["zlib"] and f["shuffle"] and f["complevel"] == 4, name
    nc.close()


def test_cf_check_passes(nrel, crank, source):
    files = [os.path.join(r.directory, "history.nc") for r in (nrel, crank)]
    out = subprocess.run([sys.executable, os.path.join(source, "tools", "check_cf.py")] + files,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("0 failed")


def test_cf_check_fails_on_what_cf_forbids(tmp_path, source):
    # the old file's faults: no Conventions, a unit udunits cannot parse, names in attributes
    path = tmp_path / "bad.nc"
    nc = netCDF4.Dataset(path, "w")
    nc.createDimension("time", None)
    nc.createDimension("six", 6)
    t = nc.createVariable("time", "f8", ("time",))
    t.units, t.long_name = "s", "time"
    v = nc.createVariable("beam_section_force", "f8", ("time", "six"))
    v.units, v.long_name = "N, N m", "section force and moment"
    nc.node_names = "a,b"
    nc.close()
    out = subprocess.run([sys.executable, os.path.join(source, "tools", "check_cf.py"),
                          str(path)], capture_output=True, text=True)
    assert out.returncode == 1
    assert "Conventions" in out.stdout and "cannot parse 'N, N m'" in out.stdout


def test_deflate_level_zero_stores_plain(tmp_path, source):
    run = rd.run(os.path.join(source, "input", "pendulum.yaml"), tmp_path,
                 set={"solver.final_time": 0.05, "output.netcdf": True,
                      "output.netcdf_deflate": 0})
    nc = netCDF4.Dataset(os.path.join(run.directory, "history.nc"))
    assert not nc["position"].filters()["zlib"]
    nc.close()
