"""Shared fixtures: the repository's root, and the C programs the tests compare with.

`make python-test` builds them and names them in the environment: REACH_CLI (the `reach`
tool), REACH_BATCH_ORACLE (the C batch solvers as a program) and REACH_CLI_RECORD (every run
the CLI's own tests made, recorded). Run alone, a test that needs one skips and says which."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def program(variable, what):
    path = os.environ.get(variable)
    if not path or not Path(path).exists():
        pytest.skip(f"{variable} is not set to {what} (make python-test builds and sets it)")
    return path


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def cli():
    return program("REACH_CLI", "the built reach tool")


@pytest.fixture
def oracle():
    return program("REACH_BATCH_ORACLE", "the built batch oracle")


@pytest.fixture
def cli_record():
    return program("REACH_CLI_RECORD", "the CLI tests' recorded runs")
