"""The server's own Bottle and cheroot, whichever packages of those names the Function ships.

PYTHONPATH puts the Function's packages before the runtime's, so that a handler gets its own `requests` or
OpenTelemetry rather than the one the runtime lends, as in Kyma. The server must not run on a Function's Bottle or
cheroot, though: another version, or a module that only shares the name, could keep it from starting. So it imports
them, before the handler, from the folder on the path that has the versions its requirements.txt pins. Then, for
each top-level name the Function has a module of its own of, it takes the server's modules of that name out of
`sys.modules`, so that the handler's `import bottle` finds the Function's. The server keeps its own module objects.

Standard library only: this runs before Bottle can be imported.
"""

import importlib
import importlib.machinery
import os
import re
import sys
from pathlib import Path
from typing import Iterable, List, Optional

# What the server imports itself; cheroot brings its dependencies (jaraco.functools, more_itertools) along.
SERVER_MODULES = ("bottle", "cheroot.wsgi")
# The distributions whose pinned versions mark the runtime's own packages folder.
SERVER_DISTRIBUTIONS = ("bottle", "cheroot")


class ServerPackages:
    """The server's packages, imported; `yield_to_function` lets the handler import its own of the same names."""

    def __init__(self, folder: Optional[str], names: Iterable[str]):
        self.folder = folder  # None when no folder on the path has the pinned versions: nothing was isolated
        self.names = sorted(names)  # top-level names of the modules imported from that folder

    def yield_to_function(self, path: List[str]) -> List[str]:
        """Forgets the server's modules whose top-level name is in a folder before the server's on `path` (a
        module, a package or a namespace package's part: whichever the import would take, the handler then gets
        the Function's, or a copy of the server's); returns those names."""
        if self.folder is None:
            return []
        own = os.path.realpath(self.folder)
        yielded = []
        for name in self.names:
            first = next((entry for entry in path if _provides(entry, name)), None)
            if first is not None and os.path.realpath(first) != own:
                for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                    del sys.modules[module]
                yielded.append(name)
        return yielded


def import_server_packages(requirements: Path) -> ServerPackages:
    """Imports Bottle and cheroot from the folder on `sys.path` with the versions `requirements` pins, if any.

    Raises ImportError as a plain import would, when they cannot be imported at all."""
    pins = _pins(requirements)
    folder = _folder_with(pins, sys.path) if pins else None
    before = set(sys.modules)
    if folder is not None:
        sys.path.insert(0, folder)
    try:
        for module in SERVER_MODULES:
            importlib.import_module(module)
    finally:
        if folder is not None:
            sys.path.remove(folder)  # the first occurrence: the one inserted above
    if folder is None:
        return ServerPackages(None, ())
    names = {
        name.split(".")[0]
        for name in set(sys.modules) - before
        if _is_in(sys.modules[name], folder)
    }
    return ServerPackages(folder, names)


def _pins(requirements: Path) -> dict:
    """`name==version` of the server's distributions in requirements.txt, by normalised name."""
    pins = {}
    try:
        lines = requirements.read_text().splitlines()
    except OSError:
        return pins
    for line in lines:
        name, _, version = line.split("#", 1)[0].strip().partition("==")
        if version and _normal(name) in SERVER_DISTRIBUTIONS:
            pins[_normal(name)] = version.strip()
    return pins if len(pins) == len(SERVER_DISTRIBUTIONS) else {}


def _folder_with(pins: dict, path: List[str]) -> Optional[str]:
    """The first folder on `path` that pip installed all the pinned distributions into."""
    for entry in path:
        if entry and os.path.isdir(entry) and all(_has_distribution(entry, n, v) for n, v in pins.items()):
            return entry
    return None


def _has_distribution(folder: str, name: str, version: str) -> bool:
    # pip names the folder after the wheel: the project's name with `_` for runs of `-_.`, then the version.
    return os.path.isdir(os.path.join(folder, f"{name.replace('-', '_')}-{version}.dist-info"))


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _is_in(module, folder: str) -> bool:
    where = getattr(module, "__file__", None) or next(iter(getattr(module, "__path__", None) or ()), None)
    if not where:
        return False
    return os.path.realpath(where).startswith(os.path.realpath(folder) + os.sep)


def _provides(entry: str, name: str) -> bool:
    """Whether the import system finds a top-level module or package `name` in folder `entry`."""
    folder = entry or os.getcwd()
    if not os.path.isdir(folder):
        return False
    if os.path.isdir(os.path.join(folder, name)):
        return True
    suffixes = importlib.machinery.SOURCE_SUFFIXES + importlib.machinery.EXTENSION_SUFFIXES
    return any(os.path.isfile(os.path.join(folder, name + suffix)) for suffix in suffixes)

