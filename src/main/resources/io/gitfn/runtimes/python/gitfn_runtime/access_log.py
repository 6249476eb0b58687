"""Apache-style access log lines on stdout, which KYMA_INTERNAL_LOGGER_ENABLED turns on."""

import sys
import time


def with_access_log(app, stream=sys.stdout):
    """Wraps a WSGI app so that each response writes one line in the Apache combined format."""

    def logged(environ, start_response):
        seen = {}

        def recording_start_response(status, headers, exc_info=None):
            seen["status"] = status.split(" ", 1)[0]
            seen["length"] = next((value for name, value in headers if name.lower() == "content-length"), "-")
            return start_response(status, headers, exc_info)

        body = app(environ, recording_start_response)
        request_line = " ".join(
            (
                environ.get("REQUEST_METHOD", "-"),
                environ.get("PATH_INFO", "") + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else ""),
                environ.get("SERVER_PROTOCOL", "-"),
            )
        )
        stamp = time.strftime("%d/%b/%Y:%H:%M:%S %z")
        print(
            f'{environ.get("REMOTE_ADDR", "-")} - - [{stamp}] "{request_line}" {seen.get("status", "-")} '
            f'{seen.get("length", "-")} "{environ.get("HTTP_REFERER", "-")}" "{environ.get("HTTP_USER_AGENT", "-")}"',
            file=stream,
            flush=True,
        )
        return body

    return logged
