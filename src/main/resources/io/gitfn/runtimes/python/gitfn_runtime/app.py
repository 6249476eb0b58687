"""The Bottle application: Kyma's routes, and one handler call per request under FUNC_TIMEOUT."""

import contextlib
import json
import sys
import threading
import time
import traceback

import bottle

from .event import InvalidRequest, event_from_request
from .metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from .metrics import Metrics
from .settings import Settings
from .tracing import Tracing

HANDLER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
# Kyma's body for a handler that raised: the exception's text may hold what the caller must not see.
INTERNAL_ERROR = "Internal server error"


def build_app(settings: Settings, handler, metrics: Metrics, tracing: Tracing) -> bottle.Bottle:
    app = bottle.Bottle()
    # For bottle's own parsing (request.json, forms) in the handler: the body is within the limit by then.
    bottle.BaseRequest.MEMFILE_MAX = settings.body_limit
    context = settings.function_context()

    @app.get("/healthz")
    def healthz():
        return "OK"

    @app.get("/metrics")
    def metrics_text():
        bottle.response.content_type = METRICS_CONTENT_TYPE
        return metrics.exposition() + _handler_metrics()

    @app.get("/favicon.ico")
    def favicon():
        return bottle.HTTPResponse(status=204)

    @app.route("/<:re:.*>", method=HANDLER_METHODS)
    def call_handler():
        request = bottle.request
        body = _read_body(request.environ, settings.body_limit)
        if body is None:
            return _text(413, f"the request body is larger than FUNC_MEMFILE_MAX ({settings.body_limit} bytes)")
        try:
            event = event_from_request(request, body, settings.publisher_proxy_address)
        except InvalidRequest as error:
            return _text(400, str(error))

        trace_context = tracing.context_of(request.headers)  # waits for the tracing set-up, right after start
        if tracing.tracer is not None:
            event.tracer = tracing.tracer
        started = time.monotonic()
        outcome = HandlerCall(
            handler, event, dict(context), f"{request.method} {request.path}", tracing.attached(trace_context)
        )
        finished = outcome.run(settings.timeout)
        failed = not finished or outcome.error is not None
        metrics.record(request.method, time.monotonic() - started, failed)

        if not finished:
            return _text(408, f"the function did not finish within {settings.timeout:g} s (FUNC_TIMEOUT)")
        raised = _as_server_response(outcome.error)
        if raised is not None:  # raised for its status, e.g. HTTPError(404)
            return _response(raised)
        if outcome.error is not None:  # HandlerCall wrote it to stderr
            return bottle.HTTPResponse(INTERNAL_ERROR, 500, {"Content-Type": "text/plain; charset=utf-8"})
        return _response(outcome.result)

    def plain_error(error: bottle.HTTPError) -> str:
        """Bottle's own errors (404 for no route, 405, a bug of ours) as plain text, not an HTML page."""
        bottle.response.content_type = "text/plain; charset=utf-8"
        if error.status_code == 500:  # Bottle wrote the traceback to stderr; the client gets Kyma's body
            return INTERNAL_ERROR
        return f"{error.body}\n"

    app.default_error_handler = plain_error
    return app


class HandlerCall:
    """One handler call on its own thread, so that a request can give up on it after FUNC_TIMEOUT.

    `request_line` (method and path, no query) names the request when the handler raises; the handler runs within
    `trace_context`, a context manager that attaches the request's trace context to the handler's thread."""

    def __init__(self, handler, event, context, request_line: str, trace_context=None):
        self._handler = handler
        self._event = event
        self._context = context
        self._request_line = request_line
        self._trace_context = trace_context or contextlib.nullcontext()
        self.result = None
        self.error = None

    def run(self, timeout: float) -> bool:
        """True when the handler returned or raised within the timeout."""
        # A daemon thread: Python cannot stop a thread, so a handler past its timeout runs on, unanswered,
        # and must not keep the process alive at exit.
        thread = threading.Thread(target=self._call, name="handler", daemon=True)
        thread.start()
        thread.join(timeout)
        return not thread.is_alive()

    def _call(self):
        try:
            with self._trace_context:
                self.result = self._handler(self._event, self._context)
        except BaseException as error:  # SystemExit too: one request must not end the server
            self.error = error
            if _as_server_response(error) is None:
                # One write, so that two failing requests do not interleave their lines; written even when the
                # request has given up on the handler (FUNC_TIMEOUT), so a late failure still shows.
                sys.stderr.write(
                    f"gitfn python runtime: the handler failed on {self._request_line}\n{traceback.format_exc()}"
                )
                sys.stderr.flush()


def _handler_metrics() -> str:
    """What the handler registered with prometheus_client's default registry, which Kyma's /metrics shows (with
    the process_* and python_* metrics it collects by default); only once something has imported prometheus_client:
    the runtime counts its own metrics without it."""
    prometheus = sys.modules.get("prometheus_client")
    if prometheus is None:
        return ""
    return prometheus.generate_latest(prometheus.REGISTRY).decode()


def _read_body(environ, limit: int):
    """The request body, or None when it is larger than the limit; chunked bodies arrive de-chunked."""
    if int(environ.get("CONTENT_LENGTH") or 0) > limit:
        return None  # not read at all: cheroot closes the connection after a 413
    body = environ["wsgi.input"].read(limit + 1)
    return None if len(body) > limit else body


def _as_server_response(value):
    """`value` as the server's bottle.HTTPResponse, when it is one of the server's Bottle or of the Function's own
    (a Function that ships Bottle gets its own, see server_packages.py); otherwise None."""
    if isinstance(value, bottle.HTTPResponse):
        return value
    theirs = sys.modules.get("bottle")
    foreign = getattr(theirs, "HTTPResponse", None) if theirs is not bottle else None
    if isinstance(foreign, type) and isinstance(value, foreign):
        try:
            return bottle.HTTPResponse(value.body, value.status_line, list(value.headerlist))
        except (AttributeError, TypeError, ValueError):  # not shaped like Bottle's: the handler's value as it is
            return None
    return None


def _response(result):
    """The handler's value as Bottle's return value: dict and list as JSON, the rest as Bottle takes it."""
    converted = _as_server_response(result)
    if converted is not None:
        result = converted
    if isinstance(result, bottle.HTTPResponse):
        if isinstance(result.body, (dict, list)):
            result.body = json.dumps(result.body, default=str)
            result.content_type = "application/json"
        return result
    if isinstance(result, (dict, list)):
        return bottle.HTTPResponse(json.dumps(result, default=str), 200, {"Content-Type": "application/json"})
    if result is None:
        return ""
    return result


def _text(status: int, message: str) -> bottle.HTTPResponse:
    return bottle.HTTPResponse(message + "\n", status, {"Content-Type": "text/plain; charset=utf-8"})
