"""Kyma's tracing, with OpenTelemetry: the caller's trace context crosses the handler.

As Kyma's python312 runtime does (its lib/tracing.py and Dockerfile):
- the context comes from the request's headers with the propagators of OTEL_PROPAGATORS, by default
  `tracecontext,baggage,b3multi` (W3C traceparent and B3's x-b3-* headers), and the handler's thread runs in it;
- `requests` is instrumented, so each call the handler makes with it is a span, child of the caller's, whose
  context goes out in the same headers: the same trace id, a new parent span id;
- `event.tracer` is the tracer "io.kyma-project.serverless", so the handler's own spans are children of the
  caller's span too;
- spans go to TRACE_COLLECTOR_ENDPOINT over OTLP/HTTP, each as it ends; with the variable unset or empty, there is
  no exporter: nothing is sent and nothing is logged.
Like Kyma, the runtime makes no span of its own for an incoming request: the request's span is the caller's.

OpenTelemetry and `requests` take about 0.1 s to import (0.25 s where they have no bytecode cache, as in an image),
so the server sets them up on a thread of their own once it listens; a handler call waits until that is done. When
a part cannot be set up (a Function that ships its own, incompatible `opentelemetry` or `requests`, say), the rest
runs without it and stderr says so in one line.
"""

import contextlib
import sys
import threading
from typing import MutableMapping, Optional

PROPAGATORS = "tracecontext,baggage,b3multi"
# Kyma's: outgoing calls whose URL has one of these are not traced.
REQUESTS_EXCLUDED_URLS = "healthz,favicon.ico,metrics"
TRACER_NAME = "io.kyma-project.serverless"


def apply_env_defaults(environ: MutableMapping[str, str]) -> None:
    """Kyma's image sets these; OpenTelemetry reads them when it is first imported, maybe by the handler module."""
    for name, value in (
        ("OTEL_PROPAGATORS", PROPAGATORS),
        ("OTEL_PYTHON_REQUESTS_EXCLUDED_URLS", REQUESTS_EXCLUDED_URLS),
    ):
        if not environ.get(name, "").strip():  # OpenTelemetry fails on an empty OTEL_PROPAGATORS
            environ[name] = value


class Tracing:
    """Set up once by `start`; then `tracer`, and `context_of` and `attached` for each request."""

    def __init__(self, collector_endpoint: Optional[str], prefix: str):
        self._collector_endpoint = collector_endpoint
        self._prefix = prefix
        self._ready = threading.Event()
        self._context = None  # opentelemetry.context, once set up
        self._propagate = None
        self.tracer = None  # OpenTelemetry's tracer, once set up; None if OpenTelemetry cannot be used

    def start(self) -> None:
        threading.Thread(target=self._set_up, name="tracing", daemon=True).start()

    def wait(self) -> None:
        self._ready.wait()

    def context_of(self, headers) -> Optional[object]:
        """The trace context in the request's headers (an empty one when they have none); waits for the set-up."""
        self.wait()
        return self._propagate.extract(headers) if self._propagate is not None else None

    @contextlib.contextmanager
    def attached(self, context):
        """Runs the block, on the handler's thread, in `context`, as Kyma's set_req_context does."""
        if context is None or self._context is None:
            yield
            return
        token = self._context.attach(context)
        try:
            yield
        finally:
            self._context.detach(token)

    def _set_up(self) -> None:
        try:
            self._set_up_tracer()
        except Exception as error:  # noqa: BLE001 (whatever a Function's own OpenTelemetry raises)
            self._say(f"tracing is off: {_describe(error)}")
        finally:
            self._ready.set()

    def _set_up_tracer(self) -> None:
        from opentelemetry import context, propagate, trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.sampling import DEFAULT_ON

        provider = TracerProvider(resource=Resource.create(), sampler=DEFAULT_ON)
        if self._collector_endpoint:
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
                from opentelemetry.sdk.trace.export import SimpleSpanProcessor

                provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=self._collector_endpoint)))
            except Exception as error:  # noqa: BLE001
                self._say(f"spans are not exported to TRACE_COLLECTOR_ENDPOINT: {_describe(error)}")
        trace.set_tracer_provider(provider)
        try:
            from opentelemetry.instrumentation.requests import RequestsInstrumentor

            RequestsInstrumentor().instrument(raise_exception_on_conflict=True)
        except Exception as error:  # noqa: BLE001
            self._say(f"calls made with requests are not traced: {_describe(error)}")
        self.tracer = trace.get_tracer(TRACER_NAME)
        self._context = context
        self._propagate = propagate

    def _say(self, message: str) -> None:
        print(f"{self._prefix} {message}", file=sys.stderr, flush=True)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}".replace("\n", " ")

