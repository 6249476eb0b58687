"""Imports the user's handler module and finds its handler function."""

import importlib
import sys
import traceback
from pathlib import Path

# Names the runtime itself answers to: a handler module so named would import the runtime instead.
RESERVED_MODULES = ("server", "gitfn_runtime")


class HandlerLoadError(Exception):
    """The handler cannot be used; the message is one line saying why."""


def load_handler(function_path: Path, module_name: str, handler_name: str, before_import=None):
    """Returns the handler function, or raises HandlerLoadError with the reason on one line.

    `before_import(sys.path)` runs once the Function's folder is on the path, right before the import."""
    where = f"{module_name}.{handler_name} from {function_path}"
    if module_name.split(".")[0] in RESERVED_MODULES:
        raise HandlerLoadError(f"MOD_NAME {module_name!r} is reserved by the runtime; rename the handler module")
    if not function_path.is_dir():
        raise HandlerLoadError(f"cannot load {where}: FUNCTION_PATH is not a directory")

    # Right after the runtime's own folder: the function's files come before its dependencies and the
    # standard library, as /kubeless does on Kyma's PYTHONPATH.
    sys.path.insert(1, str(function_path))
    if before_import is not None:
        before_import(sys.path)
    try:
        module = importlib.import_module(module_name)
    except BaseException as error:  # a module's top level may even call sys.exit()
        raise HandlerLoadError(f"cannot import {where}: {_describe(error)}") from error

    handler = getattr(module, handler_name, None)
    if not callable(handler):
        found = "is not callable" if handler is not None else "is not defined"
        raise HandlerLoadError(f"cannot load {where}: {module_name}.{handler_name} {found}")
    return handler


def _describe(error: BaseException) -> str:
    """Exception type, message and, unless the message already has it, the line that raised it."""
    text = f"{type(error).__name__}: {error}".replace("\n", " ")
    if isinstance(error, SyntaxError):  # its message names the file and line
        return text
    frames = traceback.extract_tb(error.__traceback__)
    # The last frame is where it was raised; the loader's and importlib's own frames say nothing to the user.
    user_frames = [f for f in frames if f.filename != __file__ and "importlib" not in f.filename]
    if user_frames:
        frame = user_frames[-1]
        text += f" (at {Path(frame.filename).name}:{frame.lineno})"
    return text
