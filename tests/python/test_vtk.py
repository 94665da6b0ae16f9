# SPDX-License-Identifier: MIT
# The ParaView series of a mechanism (input/slider_crank.yaml) read with VTK's own readers
# (python3-vtk9): the index animates two parts per time, rigid bodies are boxes with their mass's
# inertia and body frames that turn with the nodes, joints join their points.
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import vtk
from vtk.util.numpy_support import vtk_to_numpy

import rodrigues as rd

MASS = {"crank_body": 1.0, "rod_body": 2.0, "slider_body": 1.0}
INERTIA = {"crank_body": [0.0075, 0.0075, 1e-4], "rod_body": [1 / 6, 1 / 6, 1e-4],
           "slider_body": [1e-3, 1e-3, 1e-3]}


@pytest.fixture(scope="module")
def crank(tmp_path_factory, source):
    out = tmp_path_factory.mktemp("crank_vtk")
    return rd.run(os.path.join(source, "input", "slider_crank.yaml"), out,
                  set={"solver.final_time": 0.3, "output.vtk": True})


def read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    assert g.GetNumberOfPoints() > 0
    return g


def quat_to_mat(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_pvd_animates_nodes_and_mechanism(crank):
    sets = ET.parse(os.path.join(crank.directory, "results.pvd")).getroot()[0]
    parts = {}
    for s in sets:
        parts.setdefault(s.get("part"), []).append((float(s.get("timestep")), s.get("file")))
    h = crank.history
    assert sorted(parts) == ["0", "1"]
    assert [t for t, _ in parts["1"]] == [t for t, _ in parts["0"]] == list(h.index)
    first = read(os.path.join(crank.directory, parts["1"][0][1]))
    last = read(os.path.join(crank.directory, parts["1"][-1][1]))
    moved = vtk_to_numpy(last.GetPoints().GetData()) - vtk_to_numpy(first.GetPoints().GetData())
    assert np.abs(moved).max() > 0.1  # the crank turns 20 rad/s: the mechanism moves
    nodes = read(os.path.join(crank.directory, parts["0"][-1][1]))
    assert nodes.GetNumberOfPoints() == 3


def test_bodies_frames_and_joints(crank):
    h = crank.history
    sets = ET.parse(os.path.join(crank.directory, "results.pvd")).getroot()[0]
    files = [s.get("file") for s in sets if s.get("part") == "1"]
    names = ["crank", "rod", "slider"]
    for row, f in zip(range(len(h)), files):
        g = read(os.path.join(crank.directory, f))
        pts = vtk_to_numpy(g.GetPoints().GetData())
        cd = g.GetCellData()
        kind = vtk_to_numpy(cd.GetArray("kind"))
        axis = vtk_to_numpy(cd.GetArray("axis"))
        assert list(kind) == [0, 1, 1, 1] * 3 + [2] * 4
        types = [g.GetCellType(i) for i in range(g.GetNumberOfCells())]
        assert types == ([vtk.VTK_HEXAHEDRON] + [vtk.VTK_LINE] * 3) * 3 + [vtk.VTK_POLY_LINE] * 4
        ids = lambda c: [g.GetCell(c).GetPointId(k)  # noqa: E731
                         for k in range(g.GetCell(c).GetNumberOfPoints())]
        for b, name in enumerate(names):
            x = h[[f"{name}.x", f"{name}.y", f"{name}.z"]].iloc[row].to_numpy()
            R = quat_to_mat(h[[f"{name}.qw", f"{name}.qx", f"{name}.qy", f"{name}.qz"]]
                            .iloc[row].to_numpy())
            box = pts[ids(4 * b)]
            # the box's centre is the centre of mass (the node: com 0); its edges, from corner
            # 0 to 1, 3 and 4, are the principal axes, and a uniform box of the body's mass with
            # those edges has the body's inertia (in the global frame R J R^T)
            assert np.allclose(box.mean(axis=0), x, atol=1e-12)
            e = [box[1] - box[0], box[3] - box[0], box[4] - box[0]]
            L = [np.linalg.norm(v) for v in e]
            assert abs(np.dot(e[0], e[1])) < 1e-12 and abs(np.dot(e[0], e[2])) < 1e-12
            J = sum(MASS[name + "_body"] / 12 * (L[(i + 1) % 3] ** 2 + L[(i + 2) % 3] ** 2)
                    * np.outer(e[i] / L[i], e[i] / L[i]) for i in range(3))
            want = R @ np.diag(INERTIA[name + "_body"]) @ R.T
            assert np.allclose(J, want, rtol=1e-9, atol=1e-12)
            # the body frame: three lines from the node along R's columns
            for a in range(3):
                c = 4 * b + 1 + a
                assert axis[c] == a
                p0, p1 = pts[ids(c)]
                assert np.allclose(p0, x, atol=1e-12)
                d = (p1 - p0) / np.linalg.norm(p1 - p0)
                assert np.allclose(d, R[:, a], atol=1e-12)
        # joints: pivot (revolute to the ground at the origin), crank_pin (spherical),
        # slider_pin (universal), guide (prismatic along x): node, point on it, point on the
        # other, other node; the points coincide where the joint holds them together
        joint = [pts[ids(12 + j)] for j in range(4)]
        assert all(len(p) == 4 for p in joint)
        for j in range(3):
            assert np.linalg.norm(joint[j][1] - joint[j][2]) < 1e-8, j
        assert np.allclose(joint[0][2], [0, 0, 0])
        slide = joint[3][1] - joint[3][2]
        assert abs(slide[1]) < 1e-8 and abs(slide[2]) < 1e-8  # along the guide only
