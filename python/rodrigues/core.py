# SPDX-License-Identifier: MIT
"""Spec, Model and Data: the C API's objects with their lifetimes tied to Python's, results as
numpy arrays, Python functions as callbacks."""
import atexit
import os
from collections import namedtuple

import numpy as np

from ._lib import Error, Recoverable, check, ffi, lib, text

GROUND = lib.RD_GROUND
NO_TIMEFN = lib.RD_NO_TIMEFN

NodeState = namedtuple("NodeState", "position orientation velocity angular_velocity "
                       "angular_velocity_body")
NodeState.__doc__ = """State of a node: position (3, global), orientation (4: unit quaternion w, x,
y, z, body to global), velocity (3, global), angular velocity (3) in the global and in the body
frame."""


# ------------------------------------------------------------------------------------------
# lifetimes: a C object is destroyed when Python lets go of its handle, and never before the
# objects made from it (a data before its model, a model or spec before its context). The
# handle of what an object needs is kept in a module-level table until the object is gone, so
# that no order of release, the garbage collector's included, can break that. At exit nothing
# is destroyed any more: the process ends.

_needs = {}  # address of a live C object -> the handle of the object it was made from
_exiting = []
atexit.register(_exiting.append, True)


def _address(p):
    return int(ffi.cast("uintptr_t", p))


def _own(ptr, destroy, parent):
    """The handle of ptr, destroyed by destroy(ptr) when released, which also releases parent."""
    if parent is not None:
        _needs[_address(ptr)] = parent
    return ffi.gc(ptr, destroy)


def _destroyer(name, ctype):
    def destroy(p):
        if not _exiting:
            getattr(lib, name)(ffi.new(ctype, p))
        _needs.pop(_address(p), None)

    return destroy


_destroy_context = _destroyer("rd_destroyContext", "rdContext**")
_destroy_spec = _destroyer("rd_destroySpec", "rdSpec**")
_destroy_model = _destroyer("rd_destroyModel", "rdModel**")
_destroy_data = _destroyer("rd_destroyData", "rdData**")


class Context:
    """A library context (rd_createContext): allocator and last error. Specs made without one
    get their own."""

    def __init__(self):
        p = ffi.new("rdContext**")
        check(None, lib.rd_createContext(p, ffi.NULL))
        self._ptr = _own(p[0], _destroy_context, None)

    @property
    def last_error(self):
        """The text of the last error (rd_lastError)."""
        return text(lib.rd_lastError(self._ptr))


# ------------------------------------------------------------------------------------------
# callbacks: Python functions behind the C function pointers of the definition structs


class _Callbacks:
    """Keeps the cffi callbacks alive as long as a spec or a model uses them, and the first
    exception a callback raised, to be re-raised by the call that ran it."""

    def __init__(self):
        self.keep = []
        self._errors = []  # the callbacks see this list, not self: no reference cycle

    @property
    def error(self):
        return self._errors[0] if self._errors else None

    @error.setter
    def error(self, value):
        self._errors.clear()
        if value is not None:
            self._errors.append(value)

    def wrap(self, ctype, fn):
        errors = self._errors

        def guarded(*args):
            try:
                return fn(*args)
            except Recoverable:
                return 1
            except BaseException as e:  # noqa: B902 - handed back to the caller's thread
                if not errors:
                    errors.append(e)
                return -1

        cb = ffi.callback(ctype, guarded)
        self.keep.append(cb)
        return cb

    def reraise(self, err):
        if self.error is not None:
            e, self.error = self.error, None
            raise err from e
        raise err


def _array(ptr, shape):
    """A numpy view of `shape` doubles at ptr (C row-major)."""
    n = int(np.prod(shape))
    return np.frombuffer(ffi.buffer(ptr, 8 * n), dtype=np.float64).reshape(shape)


def _load_callback(fn):
    # rdNodeLoadCallback: fn(t, pose (n, 7), vel (n, 6)) -> load (n, 6) or None
    def cb(t, n, nodes, pose, vel, load, user):
        out = fn(t, _array(pose, (n, 7)).copy(), _array(vel, (n, 6)).copy())
        if out is not None:
            _array(load, (n, 6))[:] = np.asarray(out, dtype=float).reshape(n, 6)
        return 0

    return cb


def _load_jacobian(fn):
    # rdNodeLoadJacobian: fn(t, pose, vel) -> (dfdx, dfdv), each (6n, 6n)
    def cb(t, n, nodes, pose, vel, dfdx, dfdv, user):
        jx, jv = fn(t, _array(pose, (n, 7)).copy(), _array(vel, (n, 6)).copy())
        N = 6 * n
        if jx is not None:
            _array(dfdx, (N, N))[:] = np.asarray(jx, dtype=float).reshape(N, N)
        if jv is not None:
            _array(dfdv, (N, N))[:] = np.asarray(jv, dtype=float).reshape(N, N)
        return 0

    return cb


def _user_element(fn):
    # rdUserElementCallback: fn(t, pose, vel, acc, matrices) -> residual (n, 6), or with
    # matrices True (residual, K, C, M) (any of K, C, M may be None)
    def cb(t, n, nodes, pose, vel, acc, residual, K, C, M, user):
        want = K != ffi.NULL
        out = fn(t, _array(pose, (n, 7)).copy(), _array(vel, (n, 6)).copy(),
                 _array(acc, (n, 6)).copy(), want)
        res = out[0] if isinstance(out, tuple) else out
        _array(residual, (n, 6))[:] = np.asarray(res, dtype=float).reshape(n, 6)
        if want and isinstance(out, tuple):
            N = 6 * n
            for ptr, mat in zip((K, C, M), out[1:]):
                if mat is not None:
                    _array(ptr, (N, N))[:] = np.asarray(mat, dtype=float).reshape(N, N)
        return 0

    return cb


def _timefn(fn):
    # rdTimeFnCallback: fn(t) -> value, or (value, d1, d2)
    def cb(t, value, dvalue, user):
        out = fn(t)
        if isinstance(out, tuple):
            value[0] = out[0]
            if dvalue != ffi.NULL:
                dvalue[0], dvalue[1] = out[1], out[2]
        else:
            value[0] = out
            if dvalue != ffi.NULL:
                dvalue[0] = dvalue[1] = 0.0
        return 0

    return cb


def _torque(fn):
    # rdTorqueCallback: fn(t, R (3, 3)) -> torque (3), global
    def cb(t, R, torque, user):
        _array(torque, (3,))[:] = np.asarray(fn(t, _array(R, (3, 3)).copy()), dtype=float)
        return 0

    return cb


_CALLBACK_FIELDS = {
    ("rdLoadCallbackDef", "callback"): ("rdNodeLoadCallback", _load_callback),
    ("rdLoadCallbackDef", "jacobian"): ("rdNodeLoadJacobian", _load_jacobian),
    ("rdUserElementDef", "callback"): ("rdUserElementCallback", _user_element),
    ("rdTimeFnDef", "callback"): ("rdTimeFnCallback", _timefn),
    ("rdTorqueLawDef", "callback"): ("rdTorqueCallback", _torque),
}

# the count field that goes with an array field
_COUNTS = {"nodes": "nnode", "station": "nstation", "t": "npoint"}
# index fields and the object kinds they name
_NODE_FIELDS = {"node", "nodes"}
_TIMEFN_FIELDS = {"timefn", "angle_fn", "torque_fn", "motion_fn"}


# ------------------------------------------------------------------------------------------
# the spec


class Spec:
    """An editable model description (rdSpec): add objects with add_* (keyword arguments are
    the fields of the C definition struct: see include/rodrigues/spec.h), then compile().

    Values: numbers, sequences and numpy arrays for vectors and matrices (a 3x3 or 6x6 array
    for a row-major matrix field), names or indices for nodes and time functions ("ground" or
    GROUND for the ground), strings for enums without their prefix (kind="point",
    type="revolute", quadrature="stations"), Python functions for callbacks."""

    def __init__(self, ctx=None, _ptr=None):
        self.ctx = ctx if ctx is not None else Context()
        if _ptr is None:
            p = ffi.new("rdSpec**")
            check(self.ctx._ptr, lib.rd_createSpec(self.ctx._ptr, p))
            _ptr = p[0]
        self._ptr = _own(_ptr, _destroy_spec, self.ctx._ptr)
        self._callbacks = _Callbacks()

    def _check(self, status):
        return check(self.ctx._ptr, status)

    def _index(self, kind, value):
        if isinstance(value, str):
            if kind == lib.RD_OBJ_NODE and value == "ground":
                return GROUND
            i = lib.rds_find(self._ptr, kind, value.encode())
            if i < 0:
                raise Error(lib.RD_ERR_ARG, f"no object named '{value}'")
            return i
        return int(value)

    def _fill(self, struct, default, fields):
        d = ffi.new(struct + "*", default)
        keep = []
        ctype = ffi.typeof(struct)
        names = {name: f for name, f in ctype.fields}
        for key, value in fields.items():
            if key not in names or key == "cookie_":
                raise TypeError(f"{struct} has no field '{key}'")
            ft = names[key].type
            if key in _NODE_FIELDS or key in _TIMEFN_FIELDS:
                kind = lib.RD_OBJ_NODE if key in _NODE_FIELDS else lib.RD_OBJ_TIMEFN
                vals = [self._index(kind, v) for v in np.atleast_1d(np.asarray(value, object))]
                if ft.kind == "pointer":
                    arr = ffi.new("int[]", vals)
                    keep.append(arr)
                    setattr(d, key, arr)
                    if key in _COUNTS and _COUNTS[key] not in fields:
                        setattr(d, _COUNTS[key], len(vals))
                elif ft.kind == "array":
                    getattr(d, key)[0:len(vals)] = vals
                else:
                    setattr(d, key, vals[0])
            elif (struct, key) in _CALLBACK_FIELDS:
                cname, make = _CALLBACK_FIELDS[(struct, key)]
                setattr(d, key, self._callbacks.wrap(cname, make(value)) if value else ffi.NULL)
            elif ft.kind == "pointer" and ft.item.cname == "char":
                b = ffi.new("char[]", str(value).encode())
                keep.append(b)
                setattr(d, key, b)
            elif ft.kind == "pointer":
                arr = np.ascontiguousarray(value, dtype=float).ravel()
                c = ffi.new("double[]", arr.tolist())
                keep.append(c)
                setattr(d, key, c)
                if key in _COUNTS and _COUNTS[key] not in fields:
                    setattr(d, _COUNTS[key], len(arr))
            elif ft.kind == "array" and ft.item.kind == "pointer":  # expression[3]
                bs = [ffi.new("char[]", str(v).encode()) for v in value]
                keep.extend(bs)
                for i, b in enumerate(bs):
                    getattr(d, key)[i] = b
            elif ft.kind == "array":
                arr = np.asarray(value, dtype=float).ravel()
                if arr.size != ft.length:
                    raise ValueError(f"{struct}.{key}: {ft.length} numbers expected, got {arr.size}")
                getattr(d, key)[0:ft.length] = arr.tolist()
            elif ft.kind == "enum" and isinstance(value, str):
                setattr(d, key, _enum(ft, value))
            else:
                setattr(d, key, value)
        return d, keep

    def _add(self, what, struct, name, fields):
        default = getattr(lib, "rd_default" + struct[2:])()
        if name is not None:
            fields = dict(fields, name=name)
        d, keep = self._fill(struct, default, fields)
        i = check(self.ctx._ptr, getattr(lib, "rds_add" + what)(self._ptr, d), allow_positive=True)
        del keep  # the library copied the definition
        return i

    # objects: each returns the new object's index
    def add_node(self, name, **fields):
        """A node (rdNodeDef: kind, position, orientation, velocity, angular_velocity,
        angular_velocity_frame)."""
        return self._add("Node", "rdNodeDef", name, fields)

    def add_rigid_body(self, name, **fields):
        """A rigid body (rdRigidBodyDef: node, mass, inertia (3x3 about the centre of mass, in
        the body frame), com)."""
        return self._add("RigidBody", "rdRigidBodyDef", name, fields)

    def add_point_mass(self, name, **fields):
        """A point mass (rdPointMassDef: node, mass)."""
        return self._add("PointMass", "rdPointMassDef", name, fields)

    def add_spring(self, name, **fields):
        """A spring-damper (rdSpringDef: node (two, the second may be "ground"), anchor,
        stiffness (3), damping, rest_length)."""
        return self._add("Spring", "rdSpringDef", name, fields)

    def add_bushing(self, name, **fields):
        """A six-DOF bushing (rdBushingDef: node (two), stiffness and damping (6x6))."""
        return self._add("Bushing", "rdBushingDef", name, fields)

    def add_beam(self, name, **fields):
        """A beam element (rdBeamDef: nodes, station, stiffness and mass (nstation x 6 x 6),
        damping, quadrature, rotation_field, virtual_rotation, span, force, moment, ...)."""
        return self._add("Beam", "rdBeamDef", name, fields)

    def add_joint(self, name, **fields):
        """A joint (rdJointDef: type, node (one or two), point, axis, axis2, angle_fn, ...)."""
        if "node" in fields:
            nodes = list(np.atleast_1d(np.asarray(fields["node"], object)))
            fields = dict(fields, node=nodes + ["ground"] * (2 - len(nodes)))
        return self._add("Joint", "rdJointDef", name, fields)

    def add_load(self, name, **fields):
        """A nodal load (rdLoadDef: node, kind ("force", "moment"), frame, value, timefn)."""
        return self._add("Load", "rdLoadDef", name, fields)

    def add_time_function(self, name, **fields):
        """A time function (rdTimeFnDef: type, value, t and y, expression, or callback: a
        function f(t) returning f or (f, f', f''))."""
        return self._add("TimeFn", "rdTimeFnDef", name, fields)

    def add_torque_law(self, name, **fields):
        """A torque law (rdTorqueLawDef: node, type, param, expression (3), or callback: a
        function f(t, R) returning the global torque)."""
        return self._add("TorqueLaw", "rdTorqueLawDef", name, fields)

    def add_load_callback(self, name, nodes, callback, jacobian=None):
        """Loads computed in Python on a set of nodes: callback(t, pose (n, 7), vel (n, 6))
        returns the global force and moment per node (n, 6); the optional jacobian(t, pose,
        vel) returns (dfdx, dfdv), each 6n x 6n (docs/api.md, "Host conventions"). Raise
        rodrigues.Recoverable to cut the step; any other exception fails the call that ran the
        callback, raised again there."""
        return self._add("LoadCallback", "rdLoadCallbackDef", name,
                         {"nodes": nodes, "callback": callback, "jacobian": jacobian})

    def add_user_element(self, name, nodes, callback):
        """A user element: callback(t, pose, vel, acc, matrices) returns the residual (n, 6), or
        with matrices True the tuple (residual, K, C, M) (docs/api.md, "Host conventions")."""
        return self._add("UserElement", "rdUserElementDef", name,
                         {"nodes": nodes, "callback": callback})

    # settings
    def set_gravity(self, g):
        self._check(lib.rds_setGravity(self._ptr, [float(x) for x in g]))

    def set_option(self, key, value):
        """Set option `key` (see rodrigues.options()) from a number, a bool or text."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        self._check(lib.rds_setOption(self._ptr, key.encode(), str(value).encode()))

    def option(self, key):
        buf = ffi.new("char[256]")
        self._check(lib.rds_getOption(self._ptr, key.encode(), buf, 256))
        return text(buf)

    def add_output_node(self, node):
        self._check(lib.rds_addOutputNode(self._ptr, self._index(lib.RD_OBJ_NODE, node)))

    def add_output_reaction(self, joint):
        """Write the reaction of `joint` (name or index) to history.csv (J.Fx .. J.Mz)."""
        self._check(lib.rds_addOutputReaction(self._ptr, self._index(lib.RD_OBJ_JOINT, joint)))

    def add_output_section_load(self, beam, s):
        """Write the section loads of `beam` at element fraction s to history.csv."""
        self._check(lib.rds_addOutputSectionLoad(self._ptr, self._index(lib.RD_OBJ_BEAM, beam),
                                                 float(s)))

    def find(self, kind, name):
        """Index of the object of `kind` ("node", "joint", "beam", ...) named `name`, or -1."""
        return lib.rds_find(self._ptr, _enum(ffi.typeof("rdObjKind"), kind), name.encode())

    def count(self, kind):
        return lib.rds_count(self._ptr, _enum(ffi.typeof("rdObjKind"), kind))

    def compile(self):
        """The immutable Model (rd_compile); the spec stays usable."""
        p = ffi.new("rdModel**")
        self._check(lib.rd_compile(self._ptr, p))
        return Model(self.ctx, p[0], self._callbacks)


def _enum(ctype, value):
    """The enum constant of `ctype` whose name ends in _VALUE (case-insensitive)."""
    want = "_" + value.upper()
    hits = [v for k, v in ctype.relements.items() if k.endswith(want)]
    if len(hits) != 1:
        raise ValueError(f"{ctype.cname}: no value '{value}' "
                         f"(one of {', '.join(sorted(ctype.relements))})")
    return hits[0]


def read_deck(path, set=None, ctx=None):
    """Read a YAML deck (rd_readDeck) into a Spec; `set` is a dict (or a list of "KEY=VALUE")
    of overrides, as the CLI's --set."""
    ctx = ctx if ctx is not None else Context()
    items = set.items() if isinstance(set, dict) else [s.split("=", 1) for s in (set or [])]
    strs = [ffi.new("char[]", f"{k}={_yaml(v)}".encode()) for k, v in items]
    p = ffi.new("rdSpec**")
    check(ctx._ptr, lib.rd_readDeck(ctx._ptr, os.fspath(path).encode(),
                                    ffi.new("char*[]", strs) if strs else ffi.NULL, len(strs), p))
    return Spec(ctx, p[0])


def _yaml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_yaml(x) for x in v) + "]"
    return repr(v) if isinstance(v, float) else str(v)


def options():
    """Every option: a list of (key, type, default, help) (rd_optionList)."""
    out = []
    n = lib.rd_optionList(0, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL)
    for i in range(n):
        k, t, d, h = (ffi.new("char**") for _ in range(4))
        lib.rd_optionList(i, k, t, d, h)
        out.append((text(k[0]), text(t[0]), text(d[0]), text(h[0])))
    return out


# ------------------------------------------------------------------------------------------
# the model


class Model:
    """A compiled, immutable model (rdModel); any number of Data share it."""

    def __init__(self, ctx, ptr, callbacks):
        self.ctx = ctx
        self._callbacks = callbacks  # the model calls them: keep them alive
        self._ptr = _own(ptr, _destroy_model, ctx._ptr)
        info = ffi.new("rdModelInfo*")
        check(ctx._ptr, lib.rd_modelInfo(self._ptr, info))
        self.info = {name: (text(getattr(info, name)) if name == "linear_solver"
                            else getattr(info, name)) for name, _ in ffi.typeof("rdModelInfo").fields}
        self.method = text(lib.rd_methodName(self.info["method"]))
        self.node_names = [text(lib.rd_nodeName(self._ptr, i)) for i in range(self.info["nnode"])]
        self.joint_names = [text(lib.rd_jointName(self._ptr, j))
                            for j in range(self.info["njoint"])]
        self.beam_names = [text(lib.rd_beamName(self._ptr, b)) for b in range(self.info["nbeam"])]
        self.output_nodes = [lib.rd_outputNode(self._ptr, k) for k in range(self.info["noutput"])]

    def node(self, node):
        """Index of a node given by name or index."""
        if isinstance(node, str):
            i = lib.rd_findNode(self._ptr, node.encode())
            if i < 0:
                raise Error(lib.RD_ERR_ARG, f"no node '{node}'")
            return i
        return int(node)

    def joint(self, joint):
        return self.joint_names.index(joint) if isinstance(joint, str) else int(joint)

    def beam(self, beam):
        return self.beam_names.index(beam) if isinstance(beam, str) else int(beam)

    def option(self, key):
        """Value of an option as compiled into the model (text)."""
        buf = ffi.new("char[256]")
        check(self.ctx._ptr, lib.rd_getOption(self._ptr, key.encode(), buf, 256))
        return text(buf)

    def option_real(self, key):
        return lib.rd_getOptionReal(self._ptr, key.encode())

    def create_data(self):
        """A new Data (rd_createData) at the initial conditions, not yet initialized."""
        p = ffi.new("rdData**")
        check(self.ctx._ptr, lib.rd_createData(self._ptr, p))
        return Data(self, p[0])


# ------------------------------------------------------------------------------------------
# the state


class Data:
    """The state and workspace of a simulation (rdData): stepping and queries."""

    def __init__(self, model, ptr):
        self.model = model
        self._ptr = _own(ptr, _destroy_data, model._ptr)

    def _check(self, status, allow_positive=False):
        if status < 0 or (status > 0 and not allow_positive):
            err = Error(status, self.model.ctx.last_error)
            self.model._callbacks.reraise(err)
        return status

    # stepping
    def initialize(self):
        """Consistent initial accelerations and multipliers (rd_initialize)."""
        self._check(lib.rd_initialize(self.model._ptr, self._ptr))
        return self

    def step(self, h=0.0):
        """One step of size h (0: solver.time_step), cut and retried internally (rd_step)."""
        self._check(lib.rd_step(self.model._ptr, self._ptr, float(h)))

    def advance(self, tend=None, observer=None):
        """Advance to tend (default solver.final_time) with the model's step (rd_advance),
        calling observer(data) every output.every steps and at the end; it may return True to
        stop."""
        if tend is None:
            tend = self.model.option_real("solver.final_time")
        cb = ffi.NULL
        if observer is not None:
            cb = self.model._callbacks.wrap(
                "rdObserver", lambda m, d, u: 1 if observer(self) else 0)
        try:
            self._check(lib.rd_advance(self.model._ptr, self._ptr, float(tend), cb, ffi.NULL))
            err, self.model._callbacks.error = self.model._callbacks.error, None
            if err is not None:
                raise err  # the observer failed: rd_advance stopped there
        finally:
            if cb != ffi.NULL:
                self.model._callbacks.keep.remove(cb)

    def step_begin(self, h=0.0):
        """Begin a split step (rd_stepBegin): node states are then the predicted ones."""
        self._check(lib.rd_stepBegin(self.model._ptr, self._ptr, float(h)))

    def step_end(self):
        """End the split step (rd_stepEnd): 0 when accepted; a positive status when the step
        failed recoverably and the data is back at its start (redo with a smaller step)."""
        return self._check(lib.rd_stepEnd(self.model._ptr, self._ptr), allow_positive=True)

    def set_node_load(self, node, force=None, moment=None):
        """Hold a global force and moment on a node until changed (rd_setNodeLoad)."""
        f = ffi.NULL if force is None else [float(x) for x in force]
        m = ffi.NULL if moment is None else [float(x) for x in moment]
        self._check(lib.rd_setNodeLoad(self.model._ptr, self._ptr, self.model.node(node), f, m))

    def reset(self):
        self._check(lib.rd_resetData(self.model._ptr, self._ptr))

    def copy(self):
        """A new Data with this one's complete state (rd_copyData)."""
        other = self.model.create_data()
        self._check(lib.rd_copyData(other._ptr, self._ptr))
        return other

    @property
    def time(self):
        return lib.rd_time(self._ptr)

    @property
    def initialized(self):
        return bool(lib.rd_isInitialized(self._ptr))

    # queries
    def node_state(self, node):
        """NodeState of a node (name or index) as numpy arrays."""
        out = [ffi.new("double[]", n) for n in (3, 4, 3, 3, 3)]
        self._check(lib.rd_getNodeState(self.model._ptr, self._ptr, self.model.node(node), *out))
        return NodeState(*(np.frombuffer(ffi.buffer(o), dtype=np.float64).copy() for o in out))

    def states(self, nodes=None):
        """Node states stacked: a NodeState of arrays (n, 3) and (n, 4), for `nodes` (names or
        indices; default every node) in that order."""
        idx = range(self.model.info["nnode"]) if nodes is None else nodes
        rows = [self.node_state(i) for i in idx]
        return NodeState(*(np.array([getattr(r, f) for r in rows]) for f in NodeState._fields))

    def energy(self):
        """(kinetic, potential) energy (rd_getEnergy)."""
        k, p = ffi.new("double*"), ffi.new("double*")
        self._check(lib.rd_getEnergy(self.model._ptr, self._ptr, k, p))
        return k[0], p[0]

    def momentum(self):
        """Total linear and angular momentum about the origin, global (rd_getMomentum)."""
        p, L = ffi.new("double[3]"), ffi.new("double[3]")
        self._check(lib.rd_getMomentum(self.model._ptr, self._ptr, p, L))
        return np.array(list(p)), np.array(list(L))

    def body_momentum(self, node):
        pi = ffi.new("double[3]")
        self._check(lib.rd_getBodyMomentum(self.model._ptr, self._ptr, self.model.node(node), pi))
        return np.array(list(pi))

    def reaction(self, joint):
        """(force, moment) of a joint on its first node, global (rd_getJointReaction)."""
        f, m = ffi.new("double[3]"), ffi.new("double[3]")
        self._check(lib.rd_getJointReaction(self.model._ptr, self._ptr, self.model.joint(joint),
                                            f, m))
        return np.array(list(f)), np.array(list(m))

    def reactions(self):
        """Forces and moments of every joint: two arrays (njoint, 3)."""
        fm = [self.reaction(j) for j in range(self.model.info["njoint"])]
        return (np.array([f for f, _ in fm]).reshape(-1, 3),
                np.array([m for _, m in fm]).reshape(-1, 3))

    def beam_section_forces(self, beam):
        """(x (nq, 3) global, F (nq, 6): N then M, section frame) at the quadrature points of a
        beam (rd_getBeamSectionForces)."""
        b = self.model.beam(beam)
        nq = ffi.new("int*")
        self._check(lib.rd_getBeamSectionForces(self.model._ptr, self._ptr, b, nq, ffi.NULL,
                                                ffi.NULL))
        x, F = ffi.new("double[]", 3 * nq[0]), ffi.new("double[]", 6 * nq[0])
        self._check(lib.rd_getBeamSectionForces(self.model._ptr, self._ptr, b, nq, x, F))
        return (np.frombuffer(ffi.buffer(x), dtype=np.float64).reshape(-1, 3).copy(),
                np.frombuffer(ffi.buffer(F), dtype=np.float64).reshape(-1, 6).copy())

    def beam_section_load(self, beam, s):
        """Section loads (6: N then M, section frame) of a beam at element fraction s
        (rd_getBeamSectionLoad)."""
        F = ffi.new("double[6]")
        self._check(lib.rd_getBeamSectionLoad(self.model._ptr, self._ptr, self.model.beam(beam),
                                              float(s), F))
        return np.array(list(F))

    @property
    def stats(self):
        """The counters (rd_getStats) as a dict."""
        s = ffi.new("rdStats*")
        self._check(lib.rd_getStats(self._ptr, s))
        return {name: getattr(s, name) for name, _ in ffi.typeof("rdStats").fields}

    def step_cuts(self):
        """The rejected steps kept (rd_getStepCut): dicts of t, h, status, reason."""
        out = []
        for i in range(lib.rd_stepCutCount(self._ptr)):
            c = ffi.new("rdStepCut*")
            self._check(lib.rd_getStepCut(self._ptr, i, c))
            out.append({"t": c.t, "h": c.h, "status": c.status, "reason": text(c.reason)})
        return out

    def redundant_constraints(self):
        """(joint, equation) pairs removed as redundant (rd_getRedundantConstraints)."""
        n = self._check(lib.rd_getRedundantConstraints(self.model._ptr, self._ptr, ffi.NULL,
                                                       ffi.NULL, 0), allow_positive=True)
        j, e = ffi.new("int[]", max(n, 1)), ffi.new("int[]", max(n, 1))
        lib.rd_getRedundantConstraints(self.model._ptr, self._ptr, j, e, n)
        return [(j[k], e[k]) for k in range(n)]

    # restart
    def write_checkpoint(self, path):
        """The complete state to a file (rd_writeCheckpoint)."""
        self._check(lib.rd_writeCheckpoint(self.model._ptr, self._ptr, os.fspath(path).encode()))

    def read_checkpoint(self, path):
        """Restore a state written by write_checkpoint (rd_readCheckpoint)."""
        self._check(lib.rd_readCheckpoint(self.model._ptr, self._ptr, os.fspath(path).encode()))
