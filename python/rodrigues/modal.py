# SPDX-License-Identifier: MIT
"""Linearization, modes and state-space models (include/rodrigues/modal.h, docs/modal.md):
Data.linearize() gives a Linearization; its modes() a Modes, its state_space() a StateSpace.
Matrices come out as numpy arrays (dense) or as compressed sparse columns."""
import os
from collections import namedtuple

import numpy as np

from ._lib import check, ffi, lib, text
from .core import Data, _destroyer, _own

_destroy_lin = _destroyer("rd_destroyLinearization", "rdLinearization**")
_destroy_modes = _destroyer("rd_destroyModes", "rdModes**")
_destroy_ss = _destroyer("rd_destroyStateSpace", "rdStateSpace**")

_MATRICES = [text(lib.rd_linearMatrixName(k)) for k in range(lib.RD_LIN_COUNT)]
_SOLVERS = {"auto": lib.RD_EIGEN_AUTO, "dense": lib.RD_EIGEN_DENSE, "arpack": lib.RD_EIGEN_ARPACK}

CSC = namedtuple("CSC", "shape indptr indices data")
CSC.__doc__ = """A matrix in compressed sparse column form: shape (nrow, ncol), indptr (ncol + 1),
indices (row of each entry, sorted in each column), data; scipy.sparse.csc_matrix((data,
indices, indptr), shape) takes it as it is."""

Mode = namedtuple("Mode", "eigenvalue frequency_hz natural_hz damping_ratio kind kind_index "
                  "energy mass_fraction modal_mass")
Mode.__doc__ = """One mode (rdModeInfo): eigenvalue (complex, 1/s), frequencies (Hz), damping
ratio, kind ("flap", "torsion", ...) and its index among its kind, the beams' strain-energy
fractions (axial, shear, torsion, bending y, bending z), the effective mass fractions (x, y, z,
rx, ry, rz) and the modal mass."""


def _vec3(v, name):
    a = np.asarray(v, dtype=np.float64).reshape(-1)
    if a.size != 3:
        raise ValueError(f"{name} needs 3 components")
    return [float(x) for x in a]


def _linearize(self, spin_rate=0.0, spin_axis=None, spin_center=None, steady=False):
    """Linearize at the current state (rd_linearize): M, D, K, the constraint Jacobian B, its
    null-space basis N and the reduced M_r, D_r, K_r; in a frame spinning at spin_rate (rad/s)
    about spin_axis through spin_center; steady=True first moves the data to the steady state
    in that frame. The data must be initialized."""
    d = ffi.new("rdLinearizeDef*", lib.rd_defaultLinearizeDef())
    d.spin_rate = float(spin_rate)
    if spin_axis is not None:
        d.spin_axis = _vec3(spin_axis, "spin_axis")
    if spin_center is not None:
        d.spin_center = _vec3(spin_center, "spin_center")
    d.steady = 1 if steady else 0
    p = ffi.new("rdLinearization**")
    self._check(lib.rd_linearize(self.model._ptr, self._ptr, d, p))
    return Linearization(self.model, p[0])


Data.linearize = _linearize


class Linearization:
    """A linearization (rdLinearization): `info` (ndof, nconstraint, rank, nreduced, time,
    spin_rate, symmetric, residual, steady_iterations) and its matrices by name: "M", "D", "K",
    "B", "N", "Mr", "Dr", "Kr"."""

    def __init__(self, model, ptr):
        self.model = model
        self._ptr = _own(ptr, _destroy_lin, model._ptr)
        info = ffi.new("rdLinearizationInfo*")
        check(model.ctx._ptr, lib.rd_getLinearizationInfo(self._ptr, info))
        self.info = {name: getattr(info, name) for name, _ in ffi.typeof("rdLinearizationInfo").fields}

    def _which(self, name):
        if name not in _MATRICES:
            raise ValueError(f"no matrix '{name}' (one of {', '.join(_MATRICES)})")
        return _MATRICES.index(name)

    def csc(self, name):
        """Matrix `name` in compressed sparse columns (rd_getLinearMatrix)."""
        w, ctx = self._which(name), self.model.ctx._ptr
        nrow, ncol, nnz = ffi.new("int*"), ffi.new("int*"), ffi.new("int*")
        check(ctx, lib.rd_getLinearMatrix(self._ptr, w, nrow, ncol, nnz, ffi.NULL, ffi.NULL,
                                          ffi.NULL))
        Ap = np.zeros(ncol[0] + 1, dtype=np.intc)
        Ai = np.zeros(max(nnz[0], 1), dtype=np.intc)
        Ax = np.zeros(max(nnz[0], 1), dtype=np.float64)
        check(ctx, lib.rd_getLinearMatrix(self._ptr, w, nrow, ncol, nnz,
                                          ffi.cast("int*", ffi.from_buffer(Ap)),
                                          ffi.cast("int*", ffi.from_buffer(Ai)),
                                          ffi.cast("double*", ffi.from_buffer(Ax))))
        return CSC((nrow[0], ncol[0]), Ap, Ai[:nnz[0]], Ax[:nnz[0]])

    def matrix(self, name):
        """Matrix `name` as a dense numpy array."""
        m = self.csc(name)
        a = np.zeros(m.shape)
        for j in range(m.shape[1]):
            rows = m.indices[m.indptr[j]:m.indptr[j + 1]]
            a[rows, j] = m.data[m.indptr[j]:m.indptr[j + 1]]
        return a

    def write(self, directory):
        """Every matrix as DIRECTORY/<name>.mtx and an index matrices.json
        (rd_writeLinearMatrices)."""
        check(self.model.ctx._ptr,
              lib.rd_writeLinearMatrices(self._ptr, os.fspath(directory).encode()))

    def modes(self, count=10, solver="auto", general=False, shift_hz=0.0, tolerance=0.0,
              max_restarts=0, flap_axis=None, rigid_tol_hz=0.0):
        """The `count` modes of smallest |eigenvalue| (rd_computeModes); solver "auto", "dense"
        or "arpack"; general=True solves the damped (quadratic) form even for a symmetric
        problem; the other arguments as rdModalDef."""
        d = ffi.new("rdModalDef*", lib.rd_defaultModalDef())
        d.count = int(count)
        if solver not in _SOLVERS:
            raise ValueError(f"no eigen-solver '{solver}' (auto, dense, arpack)")
        d.solver = _SOLVERS[solver]
        d.general = 1 if general else 0
        d.shift_hz, d.tolerance = float(shift_hz), float(tolerance)
        d.max_restarts, d.rigid_tol_hz = int(max_restarts), float(rigid_tol_hz)
        if flap_axis is not None:
            d.flap_axis = _vec3(flap_axis, "flap_axis")
        p = ffi.new("rdModes**")
        check(self.model.ctx._ptr, lib.rd_computeModes(self._ptr, d, p))
        return Modes(self.model, p[0])

    def state_space(self, inputs, outputs):
        """The state-space model x' = A x + B u, y = C x + D u (rd_stateSpace). inputs and
        outputs are lists of (kind, index, component): kinds "force", "moment", "motion" for
        inputs; "displacement", "rotation", "velocity", "angular_velocity", "reaction_force",
        "reaction_moment" for outputs; index a node or joint (name or index)."""
        ins = self._channels(inputs, {"force": lib.RD_SS_FORCE, "moment": lib.RD_SS_MOMENT,
                                      "motion": lib.RD_SS_MOTION})
        outs = self._channels(outputs, {
            "displacement": lib.RD_SS_DISPLACEMENT, "rotation": lib.RD_SS_ROTATION,
            "velocity": lib.RD_SS_VELOCITY, "angular_velocity": lib.RD_SS_ANGULAR_VELOCITY,
            "reaction_force": lib.RD_SS_REACTION_FORCE,
            "reaction_moment": lib.RD_SS_REACTION_MOMENT})
        p = ffi.new("rdStateSpace**")
        check(self.model.ctx._ptr, lib.rd_stateSpace(self._ptr, len(inputs), ins, len(outputs),
                                                     outs, p))
        return StateSpace(self.model, p[0])

    def _channels(self, items, kinds):
        arr = ffi.new("rdSsChannel[]", max(len(items), 1))
        for k, (kind, index, component) in enumerate(items):
            if kind not in kinds:
                raise ValueError(f"no channel kind '{kind}' ({', '.join(kinds)})")
            joint = kind in ("motion", "reaction_force", "reaction_moment")
            arr[k].kind = kinds[kind]
            arr[k].index = self.model.joint(index) if joint else self.model.node(index)
            arr[k].component = int(component)
        return arr


class Modes:
    """Modes of a linearization (rdModes): a sequence of Mode, with shapes, MAC and files."""

    def __init__(self, model, ptr):
        self.model = model
        self._ptr = _own(ptr, _destroy_modes, model._ptr)
        info = ffi.new("rdModesInfo*")
        check(model.ctx._ptr, lib.rd_getModesInfo(self._ptr, info))
        self.info = {name: getattr(info, name) for name, _ in ffi.typeof("rdModesInfo").fields}
        self._modes = []
        m = ffi.new("rdModeInfo*")
        for k in range(lib.rd_modeCount(self._ptr)):
            check(model.ctx._ptr, lib.rd_getMode(self._ptr, k, m))
            self._modes.append(Mode(complex(m.eigenvalue[0], m.eigenvalue[1]), m.frequency_hz,
                                    m.natural_hz, m.damping_ratio, text(lib.rd_modeKindName(m.kind)),
                                    m.kind_index, np.array(list(m.energy)),
                                    np.array(list(m.mass_fraction)), m.modal_mass))

    def __len__(self):
        return len(self._modes)

    def __getitem__(self, k):
        return self._modes[k]

    def __iter__(self):
        return iter(self._modes)

    def shape(self, k):
        """Shape of mode k, complex (nnode, 6): per node the translation and the rotation."""
        n = self.model.info["nnode"]
        re, im = ffi.new("double[]", 6 * n), ffi.new("double[]", 6 * n)
        check(self.model.ctx._ptr, lib.rd_getModeShape(self._ptr, int(k), re, im))
        r = np.frombuffer(ffi.buffer(re), dtype=np.float64).reshape(n, 6)
        i = np.frombuffer(ffi.buffer(im), dtype=np.float64).reshape(n, 6)
        return r + 1j * i

    def mac(self, i, other=None, j=None):
        """Modal assurance criterion of mode i of these modes and mode j of `other` (default:
        these), rd_modeMac."""
        other = self if other is None else other
        return lib.rd_modeMac(self._ptr, int(i), other._ptr, int(i if j is None else j))

    def write_csv(self, path):
        check(self.model.ctx._ptr, lib.rd_writeModesCsv(self._ptr, os.fspath(path).encode()))

    def write_netcdf(self, path):
        check(self.model.ctx._ptr, lib.rd_writeModesNetcdf(self._ptr, os.fspath(path).encode()))

    def write_vtk(self, k, directory, frames=0, amplitude=0.0):
        """An animation of mode k for ParaView in the existing DIRECTORY (rd_writeModeVtk)."""
        check(self.model.ctx._ptr, lib.rd_writeModeVtk(self._ptr, int(k),
                                                       os.fspath(directory).encode(),
                                                       int(frames), float(amplitude)))


class StateSpace:
    """A state-space model (rdStateSpace): numpy arrays A, B, C, D."""

    def __init__(self, model, ptr):
        self.model = model
        self._ptr = _own(ptr, _destroy_ss, model._ptr)
        nx, nu, ny = ffi.new("int*"), ffi.new("int*"), ffi.new("int*")
        check(model.ctx._ptr, lib.rd_getStateSpace(self._ptr, nx, nu, ny, ffi.NULL, ffi.NULL,
                                                   ffi.NULL, ffi.NULL))
        shapes = {"A": (nx[0], nx[0]), "B": (nx[0], nu[0]), "C": (ny[0], nx[0]),
                  "D": (ny[0], nu[0])}
        bufs = {k: ffi.new("double[]", max(r * c, 1)) for k, (r, c) in shapes.items()}
        check(model.ctx._ptr, lib.rd_getStateSpace(self._ptr, nx, nu, ny, bufs["A"], bufs["B"],
                                                   bufs["C"], bufs["D"]))
        for k, (r, c) in shapes.items():
            a = np.frombuffer(ffi.buffer(bufs[k]), dtype=np.float64)[:r * c]
            setattr(self, k, a.reshape(c, r).T.copy())  # column-major

    def write(self, directory):
        """DIRECTORY/A.mtx ... D.mtx and statespace.json (rd_writeStateSpace)."""
        check(self.model.ctx._ptr, lib.rd_writeStateSpace(self._ptr,
                                                          os.fspath(directory).encode()))
