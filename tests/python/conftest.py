# SPDX-License-Identifier: MIT
# Fixtures of the Python package's tests (run by `meson test python`, with PYTHONPATH at the
# build tree's package and RODRIGUES_SOURCE at the source root).
import os

import pytest


@pytest.fixture(scope="session")
def source():
    """The source root (decks in input/, tools/)."""
    return os.environ.get("RODRIGUES_SOURCE",
                          os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))


@pytest.fixture
def deck(source):
    """Path of a deck of input/, by its name there."""
    return lambda name: os.path.join(source, "input", name)
