"""gitfn's python312 runtime: serves one Kyma-style Function handler, `main(event, context)`, over HTTP.

Start: python3 server.py, with PYTHONPATH=<this folder>/site:<the Function's dependencies> and the
environment described in gitfn_runtime/settings.py (Kyma's names: FUNCTION_PATH, MOD_NAME, FUNC_PORT, ...).
Exits 1 with one line on stderr when it cannot start; exits 0 after SIGTERM or SIGINT.
"""

import os
import signal
import sys
import threading

PREFIX = "gitfn python runtime:"


def main() -> int:
    try:
        from cheroot import wsgi

        from gitfn_runtime.access_log import with_access_log
        from gitfn_runtime.app import build_app
        from gitfn_runtime.loader import HandlerLoadError, load_handler
        from gitfn_runtime.metrics import Metrics
        from gitfn_runtime.settings import DRAIN_SECONDS, Settings, SettingsError
    except ImportError as error:
        return fail(f"{error}; PYTHONPATH must include the folder that `pip install --target` filled "
                    "from this runtime's requirements.txt")

    try:
        settings = Settings.from_env(os.environ)
        handler = load_handler(settings.function_path, settings.module_name, settings.handler_name)
    except (SettingsError, HandlerLoadError) as error:
        return fail(str(error))

    app = build_app(settings, handler, Metrics())
    if settings.access_log:
        app = with_access_log(app)
    server = wsgi.Server(
        (settings.bind, settings.port),
        app,
        numthreads=settings.threads,
        server_name="gitfn-python",
        shutdown_timeout=DRAIN_SECONDS,
    )
    try:
        server.prepare()  # binds: /healthz answers only now, after the handler imported
    except OSError as error:
        return fail(f"cannot listen on {settings.bind}:{settings.port}: {error}")

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    threading.Thread(target=server.serve, name="serve", daemon=True).start()
    port = server.bind_addr[1]
    print(f"{PREFIX} function {settings.display_name()} listening on {port}", flush=True)

    stop.wait()
    print(f"{PREFIX} stopping: no new requests, up to {DRAIN_SECONDS:g} s for those in flight", flush=True)
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
