"""Trace context crosses a Function through OpenTelemetry, as in Kyma: from the caller's W3C or B3 headers to the
handler's own spans and its outgoing calls with requests; spans go to TRACE_COLLECTOR_ENDPOINT over OTLP/HTTP."""

import http.server
import threading
import time
import urllib.parse

import pytest

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
SPAN_ID = "00f067aa0ba902b7"
W3C = {"traceparent": f"00-{TRACE_ID}-{SPAN_ID}-01"}
B3 = {"X-B3-TraceId": TRACE_ID, "X-B3-SpanId": SPAN_ID, "X-B3-Sampled": "1"}


class Recorder:
    """An HTTP server on loopback that keeps each request's path, headers and body, and answers 200."""

    def __init__(self):
        self.requests = []
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self._record()

            def do_POST(self):
                self._record()

            def _record(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {name.lower(): value for name, value in self.headers.items()}
                recorder.requests.append((self.path, headers, body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def wait_for(self, count: int, seconds: float = 10) -> list:
        deadline = time.monotonic() + seconds
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.requests

    def close(self):
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def downstream():
    recorder = Recorder()
    yield recorder
    recorder.close()


@pytest.fixture
def collector():
    recorder = Recorder()
    yield recorder
    recorder.close()


def call_out(function, url, headers, **query):
    path = "/?" + urllib.parse.urlencode({"url": url, **query})
    reply = function.call("GET", path, headers=headers)
    assert reply.status == 200, function.stderr.all()
    return reply.json()


def traceparent(headers) -> tuple:
    version, trace_id, span_id, flags = headers["traceparent"].split("-")
    return trace_id, span_id, flags


def test_a_w3c_caller_s_trace_reaches_the_functions_calls_with_a_new_parent_span_in_w3c_and_b3(functions, downstream):
    function = functions.start("calls_out")

    call_out(function, downstream.url + "/next", W3C)

    [(path, headers, _)] = downstream.wait_for(1)
    assert path == "/next"
    trace_id, span_id, flags = traceparent(headers)
    assert (trace_id, flags) == (TRACE_ID, "01")
    assert span_id != SPAN_ID and int(span_id, 16) != 0
    assert (headers["x-b3-traceid"], headers["x-b3-spanid"], headers["x-b3-sampled"]) == (TRACE_ID, span_id, "1")
    assert function.stderr.all() == []


def test_a_b3_caller_s_trace_reaches_the_functions_calls_too(functions, downstream):
    function = functions.start("calls_out")

    call_out(function, downstream.url, B3)

    [(_, headers, _)] = downstream.wait_for(1)
    trace_id, span_id, _ = traceparent(headers)
    assert trace_id == TRACE_ID and span_id != SPAN_ID
    assert (headers["x-b3-traceid"], headers["x-b3-spanid"]) == (TRACE_ID, span_id)


def test_the_handlers_own_span_is_a_child_of_the_callers_and_parent_of_its_calls(functions, downstream):
    function = functions.start("calls_out")

    seen = call_out(function, downstream.url, W3C, span="1")

    assert (seen["trace-id"], seen["parent-span-id"]) == (TRACE_ID, SPAN_ID)
    [(_, headers, _)] = downstream.wait_for(1)
    trace_id, span_id, _ = traceparent(headers)
    assert trace_id == TRACE_ID and span_id not in (SPAN_ID, seen["span-id"])  # the call's own span, under "work"


def test_event_tracer_is_an_opentelemetry_tracer(functions):
    function = functions.start("calls_out")

    assert call_out(function, "", {})["tracer"].startswith("opentelemetry.")


def test_without_a_callers_trace_the_calls_start_a_trace_of_their_own(functions, downstream):
    function = functions.start("calls_out")

    call_out(function, downstream.url, {})

    [(_, headers, _)] = downstream.wait_for(1)
    trace_id, span_id, flags = traceparent(headers)
    assert int(trace_id, 16) != 0 and trace_id != TRACE_ID and int(flags, 16) & 1  # sampled


def test_the_trace_reaches_the_publisher_proxy_with_emit_cloud_event(functions, downstream):
    function = functions.start("calls_out", PUBLISHER_PROXY_ADDRESS=downstream.url + "/publish")

    assert call_out(function, "", W3C, emit="1") == {"proxy-status": 200}

    [(path, headers, _)] = downstream.wait_for(1)
    assert path == "/publish"
    assert traceparent(headers)[0] == TRACE_ID


def test_otel_propagators_chooses_the_headers(functions, downstream):
    function = functions.start("calls_out", OTEL_PROPAGATORS="tracecontext")

    call_out(function, downstream.url, W3C)

    [(_, headers, _)] = downstream.wait_for(1)
    assert traceparent(headers)[0] == TRACE_ID
    assert "x-b3-traceid" not in headers


def test_spans_go_to_trace_collector_endpoint_over_otlp_http(functions, downstream, collector):
    function = functions.start("calls_out", TRACE_COLLECTOR_ENDPOINT=collector.url + "/v1/traces")

    call_out(function, downstream.url, W3C, span="1")

    # The call's span, then the handler's: each is sent as it ends.
    exports = collector.wait_for(2)
    assert len(exports) == 2
    for path, headers, body in exports:
        assert (path, headers["content-type"]) == ("/v1/traces", "application/x-protobuf")
        assert bytes.fromhex(TRACE_ID) in body  # protobuf: the trace id's 16 bytes
    assert function.stderr.all() == []


@pytest.mark.parametrize("endpoint", [None, ""])
def test_without_trace_collector_endpoint_nothing_is_sent_and_nothing_logged(functions, downstream, collector, endpoint):
    env = {} if endpoint is None else {"TRACE_COLLECTOR_ENDPOINT": endpoint}
    # OpenTelemetry's own variable does not make an exporter either: only Kyma's does.
    function = functions.start("calls_out", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=collector.url + "/v1/traces", **env)

    call_out(function, downstream.url, W3C, span="1")

    assert len(downstream.wait_for(1)) == 1
    time.sleep(0.5)
    assert collector.requests == []
    assert function.stderr.all() == []


def test_healthz_metrics_and_favicon_make_no_spans(functions, collector):
    function = functions.start("calls_out", TRACE_COLLECTOR_ENDPOINT=collector.url + "/v1/traces")

    for path in ("/healthz", "/metrics", "/favicon.ico"):
        assert function.call("GET", path, headers=W3C).status in (200, 204)
    call_out(function, "", W3C)  # the handler, for the tracing set-up to be done

    time.sleep(0.5)
    assert collector.requests == []
