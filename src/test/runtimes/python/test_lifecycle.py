"""Starting, refusing to start, and stopping: what local mode relies on."""

import http.client
import re
import signal
import socket
import threading
import time
import urllib.parse

import pytest


def test_prints_one_line_with_name_and_port_when_listening(functions):
    function = functions.start("responses", FUNC_NAME="orders")

    assert function.stdout.all()[0] == f"gitfn python runtime: function orders listening on {function.port}"


def test_healthz_does_not_answer_before_the_handler_imported(functions):
    function = functions.start("slow_import", wait=False)  # its import takes 2 s, then tries the port itself

    during = function.stdout.wait_for(lambda line: line.startswith("slow_import: "), 20)
    assert during == f"slow_import: port {function.port} refused while the handler imported"
    function.wait_listening()
    assert function.call("GET", "/healthz").status == 200


@pytest.mark.parametrize(
    "function, env, reason",
    [
        (
            "syntax_error",
            {},
            "cannot import handler.main from {path}: SyntaxError: expected ':' (handler.py, line 1)",
        ),
        (
            "missing_module",
            {},
            "cannot import handler.main from {path}: ModuleNotFoundError: No module named 'gitfn_no_such_module'"
            " (at handler.py:1)",
        ),
        (
            "raises_at_import",
            {},
            "cannot import handler.main from {path}: KeyError: 'timeout' (at handler.py:2)",
        ),
        ("no_main", {}, "cannot load handler.main from {path}: handler.main is not defined"),
        (
            "echo",
            {"MOD_NAME": "absent"},
            "cannot import absent.main from {path}: ModuleNotFoundError: No module named 'absent'",
        ),
        ("echo", {"MOD_NAME": "server"}, "MOD_NAME 'server' is reserved by the runtime; rename the handler module"),
        (
            "echo",
            {"FUNCTION_PATH": "/nonexistent/fn"},
            "cannot load handler.main from {path}: FUNCTION_PATH is not a directory",
        ),
        ("echo", {"FUNC_TIMEOUT": "soon"}, "FUNC_TIMEOUT must be a number, got 'soon'"),
        ("echo", {"FUNC_PORT": "70000"}, "FUNC_PORT must be between 0 and 65535, got '70000'"),
    ],
)
def test_a_handler_or_setting_it_cannot_use_exits_1_with_one_line_on_stderr(functions, function, env, reason):
    process = functions.start(function, wait=False, **env)

    assert process.exit_code(timeout=20) == 1
    assert process.stderr.all() == [f"gitfn python runtime: {reason.format(path=process.function_path)}"]
    assert process.stdout.all() == []


def test_a_port_in_use_exits_1(functions):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = functions.start("echo", wait=False, FUNC_PORT=str(port))

        assert process.exit_code(timeout=20) == 1
    [line] = process.stderr.all()
    assert line.startswith(f"gitfn python runtime: cannot listen on 127.0.0.1:{port}: ")


def test_sigterm_lets_the_request_in_flight_finish_refuses_new_ones_and_exits_0(functions, tmp_path):
    function = functions.start("responses")
    gate = tmp_path / "release"
    replies = []
    in_flight = threading.Thread(
        target=lambda: replies.append(function.call("GET", "/held?gate=" + urllib.parse.quote(str(gate))))
    )
    in_flight.start()
    assert function.stdout.wait_for(lambda line: line == "held handler started", 10)

    function.process.send_signal(signal.SIGTERM)

    # The handler runs until the gate opens, so the request is in flight however long the refusal takes to show,
    # as long as it is within the 10 s drain.
    assert _refuses_connections_within(function, seconds=5)
    assert in_flight.is_alive()
    gate.touch()
    in_flight.join(10)
    assert [(reply.status, reply.text) for reply in replies] == [(200, "done")]
    assert function.exit_code(timeout=10) == 0
    assert function.stdout.all()[-1] == "gitfn python runtime: stopped"


def test_a_client_that_keeps_sending_on_one_kept_alive_connection_gets_every_answer_the_last_saying_close(functions):
    # As a Service's clients do while a rollout ends the old Pod: the connection outlives the endpoint. Closing it
    # between two of its requests would leave the second one with no answer at all.
    function = functions.start("echo")
    connection = http.client.HTTPConnection("127.0.0.1", function.port, timeout=30)
    answers = []
    try:
        for i in range(5000):
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            answers.append((response.status, response.getheader("Connection")))
            if response.getheader("Connection") == "close":
                break
            if i == 50:
                function.process.send_signal(signal.SIGTERM)
    finally:
        connection.close()

    assert len(answers) > 51
    assert all(status == 200 for status, _ in answers)
    assert answers[-1] == (200, "close")
    assert function.exit_code(timeout=20) == 0
    assert function.stdout.all()[-1] == "gitfn python runtime: stopped"


def test_sigterm_waits_for_a_stuck_request_no_longer_than_10_seconds(functions):
    function = functions.start("responses")
    stuck = threading.Thread(target=lambda: _ignore_disconnect(function, "/slow?seconds=60"), daemon=True)
    stuck.start()
    assert function.stdout.wait_for(lambda line: line.startswith("slow handler started"), 10)

    started = time.monotonic()
    function.process.send_signal(signal.SIGTERM)

    assert function.exit_code(timeout=45) == 0  # well before the stuck request's 60 s are over
    assert time.monotonic() - started >= 10  # the whole drain period, not less
    assert function.stdout.all()[-1] == (
        "gitfn python runtime: requests still running after 10 s; exiting without them"
    )


def test_sigterm_on_an_idle_server_stops_without_waiting_for_the_drain_and_exits_0(functions):
    function = functions.start("echo")
    function.call("GET", "/")  # leaves an idle keep-alive-capable server behind

    function.process.send_signal(signal.SIGTERM)

    assert function.exit_code(timeout=20) == 0
    # Had anything held the server, the drain's bound would end it with "requests still running after 10 s".
    assert function.stdout.all()[-1] == "gitfn python runtime: stopped"


def test_access_log_lines_when_kyma_internal_logger_is_enabled(functions):
    function = functions.start("echo", KYMA_INTERNAL_LOGGER_ENABLED="true")

    function.call("POST", "/orders?dry=1", body="x", headers={"User-Agent": "probe"})

    line = function.stdout.wait_for(lambda text: "/orders" in text, 5)
    assert re.fullmatch(r'127\.0\.0\.1 - - \[[^]]+\] "POST /orders\?dry=1 HTTP/1\.1" 200 \d+ "-" "probe"', line), line


def _refuses_connections_within(function, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", function.port), timeout=1):
                pass
        except ConnectionRefusedError:
            return True
        time.sleep(0.05)
    return False


def _ignore_disconnect(function, path):
    try:
        function.call("GET", path)
    except OSError:  # the runtime exits without answering
        pass
