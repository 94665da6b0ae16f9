# SPDX-License-Identifier: MIT
"""rodrigues: multibody dynamics of flexible systems, from Python.

The C library through cffi (ABI mode: no compiler needed, the installed librodrigues is
loaded as it is). docs/python.md has a worked example; in short:

    import rodrigues as rd
    spec = rd.read_deck("input/heavy_top.yaml")     # or rd.Spec() and spec.add_*
    model = spec.compile()
    data = model.create_data().initialize()
    data.advance(2.0)
    print(data.node_state("top").position)

    run = rd.run("input/heavy_top.yaml", "out/top")  # as `rodrigues run`
    run.history                                       # pandas DataFrame (history.csv)

    lin = data.linearize()                            # M, D, K, B, N, reduced (docs/modal.md)
    modes = lin.modes(count=6)                        # frequencies, kinds, shapes, MAC
"""
from ._lib import Error, Recoverable, ffi, lib
from .core import (GROUND, NO_TIMEFN, Context, Data, Model, NodeState, Spec, options,
                   read_deck)
from .modal import CSC, Linearization, Mode, Modes, StateSpace
from .results import Run, open_dataset, read_history, run

__version__ = ffi.string(lib.rd_version()).decode()

__all__ = ["CSC", "Context", "Data", "Error", "GROUND", "Linearization", "Mode", "Model", "Modes",
           "NO_TIMEFN", "NodeState", "Recoverable", "Run", "Spec", "StateSpace", "ffi", "lib",
           "open_dataset", "options", "read_deck", "read_history", "run"]
