"""How the handler's return value, exceptions, slowness and body size become the HTTP reply."""

import re
import time

import pytest

LIMIT = 1024


@pytest.fixture(scope="module")
def responses(module_functions):
    return module_functions.start("responses", FUNC_TIMEOUT="1", FUNC_MEMFILE_MAX=str(LIMIT))


def test_a_string_is_the_body(responses):
    reply = responses.call("GET", "/")

    assert (reply.status, reply.text) == (200, "hello")


def test_a_dict_is_json(responses):
    reply = responses.call("GET", "/created")

    assert reply.headers["content-type"] == "application/json"
    assert reply.json() == {"id": 7}


def test_a_list_is_json(responses):
    reply = responses.call("GET", "/list")

    assert reply.headers["content-type"] == "application/json"
    assert reply.json() == [1, 2, 3]


def test_none_is_an_empty_200(responses):
    reply = responses.call("GET", "/nothing")

    assert (reply.status, reply.body) == (200, b"")


def test_an_http_response_sets_status_and_headers(responses):
    reply = responses.call("POST", "/created")

    assert reply.status == 201
    assert reply.headers["location"] == "/orders/7"


def test_a_raised_http_error_gives_its_status(responses):
    reply = responses.call("GET", "/missing")

    assert reply.status == 404
    assert "no order 8" in reply.text


def test_an_exception_is_500_internal_server_error_and_its_text_only_on_stderr(responses):
    reply = responses.call("POST", "/secret?token=t0")

    # Kyma's body: the exception's text may hold what the caller must not see.
    assert (reply.status, reply.text) == (500, "Internal server error")
    assert reply.headers["content-type"] == "text/plain; charset=utf-8"
    assert "secret" not in reply.text
    assert responses.stderr.wait_for(lambda line: line == "ValueError: secret", 5)
    lines = responses.stderr.all()
    failed = lines.index("gitfn python runtime: the handler failed on POST /secret")
    assert lines[failed + 1] == "Traceback (most recent call last):"
    assert lines.index("ValueError: secret") > failed
    assert not any("secret" in line for line in responses.stdout.all())


def test_system_exit_in_the_handler_is_500_and_the_server_goes_on(responses):
    reply = responses.call("GET", "/exit")

    assert (reply.status, reply.text) == (500, "Internal server error")
    assert responses.stderr.wait_for(lambda line: line == "gitfn python runtime: the handler failed on GET /exit", 5)
    assert responses.call("GET", "/").status == 200


def test_a_handler_past_func_timeout_is_408_and_the_server_goes_on(responses):
    started = time.monotonic()
    # The handler would take a minute, longer than the call's own 30 s: only the runtime's timeout can answer it.
    reply = responses.call("GET", "/slow?seconds=60")
    elapsed = time.monotonic() - started

    assert reply.status == 408
    assert reply.text == "the function did not finish within 1 s (FUNC_TIMEOUT)\n"
    assert elapsed >= 1  # not before FUNC_TIMEOUT
    assert responses.call("GET", "/").status == 200


def test_a_body_at_the_limit_is_served(responses):
    assert responses.call("POST", "/", body=b"x" * LIMIT).status == 200


def test_a_body_over_the_limit_is_413(responses):
    reply = responses.call("POST", "/", body=b"x" * (LIMIT + 1))

    assert reply.status == 413
    assert reply.text == f"the request body is larger than FUNC_MEMFILE_MAX ({LIMIT} bytes)\n"


def test_a_chunked_body_over_the_limit_is_413(responses):
    chunks = iter([b"x" * 600, b"x" * 600])

    assert responses.call("POST", "/", body=chunks, chunked=True).status == 413


def test_a_chunked_body_within_the_limit_is_served(responses):
    assert responses.call("POST", "/", body=iter([b"x" * 500, b"x" * 500]), chunked=True).status == 200


def test_handlers_that_open_tracing_spans_run_unchanged(responses):
    assert responses.call("GET", "/traced").text == "traced"


def test_healthz_is_ok(responses):
    reply = responses.call("GET", "/healthz")

    assert (reply.status, reply.text) == (200, "OK")


def test_favicon_is_204(responses):
    assert responses.call("GET", "/favicon.ico").status == 204


def test_metrics_count_calls_failures_and_durations_per_method(functions):
    function = functions.start("responses", FUNC_TIMEOUT="1")
    function.call("GET", "/")
    function.call("GET", "/list")
    function.call("POST", "/fail")
    function.call("GET", "/slow?seconds=2")  # a timeout is a failure too
    function.call("GET", "/healthz")  # the runtime's own routes are not calls

    reply = function.call("GET", "/metrics")

    assert reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    samples = dict(re.findall(r"^(\S+) (\S+)$", reply.text, re.MULTILINE))
    assert samples['function_calls_total{method="GET"}'] == "3"
    assert samples['function_calls_total{method="POST"}'] == "1"
    assert samples['function_failures_total{method="GET"}'] == "1"
    assert samples['function_failures_total{method="POST"}'] == "1"
    assert samples['function_duration_seconds_count{method="GET"}'] == "3"
    assert samples['function_duration_seconds_bucket{method="GET",le="+Inf"}'] == "3"
    assert samples['function_duration_seconds_bucket{method="GET",le="0.5"}'] == "2"  # all but the timeout
    assert float(samples['function_duration_seconds_sum{method="GET"}']) >= 1.0
    assert "# TYPE function_duration_seconds histogram" in reply.text
