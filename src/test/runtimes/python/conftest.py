"""Starts the python312 runtime as local mode does: a real `python3 server.py` process per Function.

GITFN_PYTHON_RUNTIME_DIR is the runtime's folder (server.py, requirements.txt) and GITFN_PYTHON_SITE_DIR the
folder `pip install --target` filled from its requirements.txt; Maven sets both. Run by hand, they default to
the source folder and target/runtimes/python/site, which `mvn test` fills. GITFN_PYTHON_EXECUTABLE runs the
runtime on another Python than the tests' own (say python3.12).
"""

import http.client
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[3]
RUNTIME_DIR = Path(
    os.environ.get("GITFN_PYTHON_RUNTIME_DIR", PROJECT / "src/main/resources/io/gitfn/runtimes/python")
)
SITE_DIR = Path(os.environ.get("GITFN_PYTHON_SITE_DIR", PROJECT / "target/runtimes/python/site"))
PYTHON = os.environ.get("GITFN_PYTHON_EXECUTABLE", sys.executable)
FIXTURES = HERE / "fixtures"
DEPS_DIR = FIXTURES / "deps"
STARTUP_SECONDS = 20


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self):
        return json.loads(self.body)


class FunctionProcess:
    """One runtime process serving one fixture Function; its output lines are collected as they come."""

    def __init__(self, runtime_dir: Path, function: str, env: dict, extra_path=()):
        self.port = free_port()
        self.function_path = Path(env.get("FUNCTION_PATH", FIXTURES / function))
        # As gitfn does: the Function's packages first, so that its own win over those the runtime lends.
        pythonpath = os.pathsep.join([*map(str, extra_path), str(SITE_DIR)])
        self.process = subprocess.Popen(
            [PYTHON, str(runtime_dir / "server.py")],
            env={
                **os.environ,
                "PYTHONPATH": pythonpath,
                "PYTHONUNBUFFERED": "TRUE",
                "PYTHONDONTWRITEBYTECODE": "1",  # no __pycache__ in the fixture folders
                "FUNCTION_PATH": str(self.function_path),
                "FUNC_PORT": str(self.port),
                "FUNC_BIND": "127.0.0.1",
                **env,
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stdout = _Lines(self.process.stdout)
        self.stderr = _Lines(self.process.stderr)

    def wait_listening(self):
        line = self.stdout.wait_for(lambda text: " listening on " in text, STARTUP_SECONDS)
        assert line is not None, f"no listening line; stderr: {self.stderr.all()}"
        return line

    def call(self, method: str, path: str, body=None, headers=None, chunked=False) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
            response = connection.getresponse()
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        finally:
            connection.close()

    def exit_code(self, timeout: float):
        """The exit code, once the process ended and all it printed was read; None if it runs on."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self.stdout.wait_closed()
        self.stderr.wait_closed()
        return code

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            if self.exit_code(15) is None:
                self.process.kill()
                self.process.wait()


class _Lines:
    """Reads a pipe on a thread so that the process never blocks on a full pipe."""

    def __init__(self, pipe):
        self._lines = []
        self._new = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._reader.start()

    def _read(self, pipe):
        for line in pipe:
            self._lines.append(line.rstrip("\n"))
            self._new.put(None)
        self._new.put(None)

    def wait_closed(self):
        self._reader.join(10)

    def wait_for(self, matches, timeout: float):
        deadline = time.monotonic() + timeout
        while True:
            found = next((line for line in self._lines if matches(line)), None)
            if found is not None or time.monotonic() > deadline:
                return found
            try:
                self._new.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pass

    def all(self) -> list:
        return list(self._lines)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def runtime_dir(tmp_path_factory) -> Path:
    """The runtime's files copied to a scratch folder, as local mode extracts them from the jar."""
    assert (SITE_DIR / "bottle.py").is_file(), (
        f"{SITE_DIR} has no bottle: run `python3 -m pip install --target {SITE_DIR} "
        f"-r {RUNTIME_DIR / 'requirements.txt'}` (mvn test does)"
    )
    copy = tmp_path_factory.mktemp("runtime") / "python"
    shutil.copytree(RUNTIME_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return copy


class Functions:
    """Starts fixture Functions and stops whatever is still running at the end."""

    def __init__(self, runtime_dir: Path):
        self._runtime_dir = runtime_dir
        self._started = []

    def start(self, function: str, wait=True, extra_path=(), **env) -> FunctionProcess:
        process = FunctionProcess(self._runtime_dir, function, env, extra_path)
        self._started.append(process)
        if wait:
            process.wait_listening()
        return process

    def stop_all(self):
        for process in self._started:
            process.stop()


@pytest.fixture
def functions(runtime_dir):
    started = Functions(runtime_dir)
    yield started
    started.stop_all()


@pytest.fixture(scope="module")
def module_functions(runtime_dir):
    started = Functions(runtime_dir)
    yield started
    started.stop_all()
