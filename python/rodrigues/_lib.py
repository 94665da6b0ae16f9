# SPDX-License-Identifier: MIT
"""The C library through cffi in ABI mode: the declarations of include/rodrigues (generated at
build time into _cdef.h beside this file) and the shared library, found by RODRIGUES_LIBRARY
(a path) or else where the build put it (_paths.py: the build tree, or the install prefix)."""
import os

import cffi

ffi = cffi.FFI()
_here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_here, "_cdef.h"), encoding="utf-8") as _f:
    ffi.cdef(_f.read())


def _library_path():
    path = os.environ.get("RODRIGUES_LIBRARY")
    if path:
        return path
    from . import _paths

    return _paths.LIBRARY


lib = ffi.dlopen(_library_path())


class Error(Exception):
    """A call of the library failed: `status` is its status code (< 0, or > 0 for a recoverable
    failure the call could not recover from), `name` its identifier (RD_ERR_ARG, ...) and the
    message the library's last error (rd_lastError), e.g. "deck.yaml:12:5: ..."."""

    def __init__(self, status, message):
        self.status = status
        self.name = ffi.string(lib.rd_statusName(status)).decode()
        super().__init__(f"{message} ({self.name})" if message else self.name)


class Recoverable(Exception):
    """Raise this from a callback to make the library cut the step and retry (status 1): the
    callback's answer depends on a step that was too large."""


def text(p):
    """A C string the library returned, as str ("" for NULL)."""
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def check(ctx, status, allow_positive=False):
    """Raise Error for a negative status (and a positive one unless allow_positive); return it."""
    if status < 0 or (status > 0 and not allow_positive):
        raise Error(status, text(lib.rd_lastError(ctx)) if ctx is not None else "")
    return status
