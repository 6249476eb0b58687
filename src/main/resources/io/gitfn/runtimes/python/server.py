"""gitfn's python312 runtime: serves one Kyma-style Function handler, `main(event, context)`, over HTTP.

Start: python3 server.py, with PYTHONPATH=<the Function's dependencies>:<this folder>/site and the
environment described in gitfn_runtime/settings.py (Kyma's names: FUNCTION_PATH, MOD_NAME, FUNC_PORT, ...).
Exits 1 with one line on stderr when it cannot start; exits 0 after SIGTERM or SIGINT.
"""

import os
import signal
import sys
import threading
import time
from pathlib import Path

PREFIX = "gitfn python runtime:"
HERE = Path(__file__).resolve().parent


def main() -> int:
    try:
        from gitfn_runtime.server_packages import import_server_packages

        # Before anything imports Bottle: the server's own, even when the Function ships one (see the module).
        server_packages = import_server_packages(HERE / "requirements.txt")
        from gitfn_runtime.access_log import with_access_log
        from gitfn_runtime.app import build_app
        from gitfn_runtime.loader import HandlerLoadError, load_handler
        from gitfn_runtime.metrics import Metrics
        from gitfn_runtime.settings import DRAIN_SECONDS, IDLE_GRACE_SECONDS, Settings, SettingsError
        from gitfn_runtime.shutdown import DrainingServer
        from gitfn_runtime.tracing import Tracing, apply_env_defaults
    except ImportError as error:
        return fail(f"{error}; PYTHONPATH must include the folder that `pip install --target` filled "
                    "from this runtime's requirements.txt")

    try:
        settings = Settings.from_env(os.environ)
        apply_env_defaults(os.environ)  # before the handler module, which may import OpenTelemetry
        handler = load_handler(
            settings.function_path,
            settings.module_name,
            settings.handler_name,
            before_import=server_packages.yield_to_function,
        )
    except (SettingsError, HandlerLoadError) as error:
        return fail(str(error))

    tracing = Tracing(settings.trace_collector_endpoint, PREFIX)
    app = build_app(settings, handler, Metrics(), tracing)
    if settings.access_log:
        app = with_access_log(app)
    server = DrainingServer(
        (settings.bind, settings.port),
        app,
        numthreads=settings.threads,
        server_name="gitfn-python",
        shutdown_timeout=DRAIN_SECONDS,
    )
    # The signals are taken synchronously by the main thread. A Python handler would run only in the main thread,
    # when it next runs Python code; blocked in a wait while a worker thread received the signal, it could sleep
    # through a SIGTERM for seconds under load, serving on as if nothing happened. Blocked here, before any thread
    # starts, the signals stay pending for sigwait: cheroot's threads inherit the mask.
    stop_signals = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    try:
        server.prepare()  # binds: /healthz answers only now, after the handler imported
    except OSError as error:
        return fail(f"cannot listen on {settings.bind}:{settings.port}: {error}")

    threading.Thread(target=server.serve, name="serve", daemon=True).start()
    port = server.bind_addr[1]
    print(f"{PREFIX} function {settings.display_name()} listening on {port}", flush=True)
    # Not before: importing OpenTelemetry would delay the listening line; handler calls wait for it instead.
    tracing.start()

    signal.sigwait(stop_signals)
    print(f"{PREFIX} stopping: no new connections in {IDLE_GRACE_SECONDS:g} s, then up to {DRAIN_SECONDS:g} s "
          "for the requests in flight", flush=True)
    # Clients still sending leave after their next answer; only connections idle for the whole grace are closed.
    server.draining = True
    time.sleep(IDLE_GRACE_SECONDS)
    # cheroot's stop closes the socket and idle connections, then waits for busy workers up to its
    # shutdown_timeout, but after that it waits for a stuck worker without a limit: bound it here.
    stopping = threading.Thread(target=server.stop, name="stop", daemon=True)
    stopping.start()
    stopping.join(DRAIN_SECONDS + 1)
    if stopping.is_alive():
        print(f"{PREFIX} requests still running after {DRAIN_SECONDS:g} s; exiting without them", flush=True)
        sys.stderr.flush()
        os._exit(0)  # cheroot's workers are not daemon threads: a stuck one would hold a normal exit
    print(f"{PREFIX} stopped", flush=True)
    return 0


def fail(reason: str) -> int:
    print(f"{PREFIX} {reason}", file=sys.stderr, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
