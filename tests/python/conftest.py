"""The Python module's tests (tests/CMakeLists.txt: python.pytest): the built package from
PYTHONPATH (build/python), the alea program from ALEA_BINARY, to compare with."""

import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def alea_cli():
    binary = os.environ.get("ALEA_BINARY")
    if not binary:
        pytest.fail("ALEA_BINARY must name the alea program (CTest sets it)")

    def run(*args):
        done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
        return done

    return run
