"""Requests as dictionaries: the command-line tool's JSON, handled by its own C code."""

import json
import os

from . import _reach
from ._reach import Error


# Made once: json.dumps with options builds a new encoder per call, a few microseconds of a
# reach.solve call's overhead.
_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))
# The C side gives its result as str, so loads skips detecting the text's encoding.
_decode = json.JSONDecoder().decode


def encode(request):
    """A request as the JSON text the C side reads; a value JSON cannot carry is a reach.Error."""
    try:
        return _ENCODER.encode(request).encode()
    except (TypeError, ValueError) as error:
        raise Error(f"request: {error}") from None


def _folder(folder):
    # The C side reads relative paths from the folder of a request file's path: a path in it.
    return None if folder is None else os.path.join(os.fspath(folder), "")


def solve(request, folder=None):
    """Solves one request (a dict as `reach solve` reads it) and returns its result dict.

    Relative file paths in the rig are read from ``folder`` (default: the working directory).
    Raises reach.Error with the tool's message when the request is invalid."""
    return _decode(_reach.solve(encode(request), _folder(folder)))


def fk(request, folder=None):
    """Forward kinematics of {"rig": ..., "joints": ...} as `reach fk` computes it."""
    return _decode(_reach.fk(encode(request), _folder(folder)))
