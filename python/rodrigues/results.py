# SPDX-License-Identifier: MIT
"""A run as `rodrigues run` makes it, through the library's writers, and its results as pandas
and xarray objects."""
import os
import time

from ._lib import check, ffi, lib
from .core import Spec, read_deck


class Run:
    """The result files of run(): `directory`, `history` (history.csv as a pandas DataFrame
    indexed by time), `dataset` (history.nc as an xarray Dataset, when output.netcdf was set),
    `summary` (summary.json as a dict), and the Data at the final time as `data`."""

    def __init__(self, directory, data):
        self.directory = os.fspath(directory)
        self.data = data

    @property
    def history(self):
        return read_history(self.directory)

    @property
    def dataset(self):
        return open_dataset(self.directory)

    @property
    def summary(self):
        import json

        with open(os.path.join(self.directory, "summary.json"), encoding="utf-8") as f:
            return json.load(f)


def run(deck, directory, set=None):
    """Run a deck (a path, or a Spec) from its start to solver.final_time and write
    DIRECTORY/history.csv and summary.json, with output.netcdf also history.nc and with
    output.vtk results.pvd and vtk/, as `rodrigues run` does (the same writers; docs/cli.md).
    The directory must exist or is created. Returns a Run."""
    spec = deck if isinstance(deck, Spec) else read_deck(deck, set=set)
    model = spec.compile()
    data = model.create_data()
    os.makedirs(directory, exist_ok=True)
    d = os.fspath(directory).encode()
    ctx = model.ctx._ptr
    writers = []  # (handle pointer, write, close) of each open writer
    try:
        h = ffi.new("rdHistory**")
        check(ctx, lib.rd_createHistory(model._ptr, d, h))
        writers.append((h, lib.rd_writeHistory, lib.rd_closeHistory))
        if model.option_real("output.netcdf") == 1:
            nc = ffi.new("rdNetcdf**")
            check(ctx, lib.rd_createNetcdf(model._ptr, os.path.join(directory, "history.nc")
                                           .encode(), nc))
            writers.append((nc, lib.rd_writeNetcdf, lib.rd_closeNetcdf))
        if model.option_real("output.vtk") == 1:
            vtk = ffi.new("rdVtk**")
            check(ctx, lib.rd_createVtk(model._ptr, d, vtk))
            writers.append((vtk, lib.rd_writeVtk, lib.rd_closeVtk))
        wall = time.perf_counter()
        data.initialize()

        def write(dd):
            for p, w, _ in writers:
                check(ctx, w(p[0], model._ptr, dd._ptr))

        write(data)
        data.advance(observer=write)
        for p, _, close in writers:
            check(ctx, close(p, 1))
        writers = []
        check(ctx, lib.rd_writeSummary(model._ptr, data._ptr,
                                       os.path.join(directory, "summary.json").encode(),
                                       time.perf_counter() - wall))
    finally:
        for p, _, close in writers:
            close(p, 0)
    return Run(directory, data)


def read_history(path):
    """history.csv (a file, or the directory holding it) as a pandas DataFrame indexed by time."""
    import pandas as pd

    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, "history.csv")
    return pd.read_csv(path, index_col="time", float_precision="round_trip")


def open_dataset(path):
    """history.nc (a file, or the directory holding it) as an xarray Dataset: select nodes and
    joints by name, e.g. ds.position.sel(node="tip")."""
    import xarray as xr

    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, "history.nc")
    return xr.open_dataset(path)
