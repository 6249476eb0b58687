"""Kyma's three handler metrics, counted per HTTP method and written as Prometheus text."""

import bisect
import collections
import threading

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# prometheus_client's default buckets, which Kyma's runtime uses.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0)


class Metrics:
    """function_calls_total, function_failures_total and function_duration_seconds, safe across threads."""

    def __init__(self):
        self._lock = threading.Lock()  # cheroot serves requests on many threads
        self._calls = collections.Counter()
        self._failures = collections.Counter()
        self._buckets = collections.defaultdict(lambda: [0] * len(BUCKETS))
        self._sum = collections.defaultdict(float)

    def record(self, method: str, seconds: float, failed: bool) -> None:
        with self._lock:
            self._calls[method] += 1
            if failed:
                self._failures[method] += 1
            self._sum[method] += seconds
            buckets = self._buckets[method]
            for index in range(bisect.bisect_left(BUCKETS, seconds), len(BUCKETS)):
                buckets[index] += 1

    def exposition(self) -> str:
        with self._lock:
            methods = sorted(self._calls)  # a method that was called but never failed shows 0 failures
            lines = _counter("function_calls_total", "Number of calls to user function", self._calls, methods)
            lines += _counter(
                "function_failures_total", "Number of exceptions in user function", self._failures, methods
            )
            lines += [
                "# HELP function_duration_seconds Duration of user function in seconds",
                "# TYPE function_duration_seconds histogram",
            ]
            for method in methods:
                for bound, count in zip(BUCKETS, self._buckets[method]):
                    lines.append(f'function_duration_seconds_bucket{{method="{method}",le="{bound}"}} {count}')
                calls = self._calls[method]  # every call is timed, so the +Inf bucket counts them all
                lines.append(f'function_duration_seconds_bucket{{method="{method}",le="+Inf"}} {calls}')
                lines.append(f'function_duration_seconds_count{{method="{method}"}} {calls}')
                lines.append(f'function_duration_seconds_sum{{method="{method}"}} {self._sum[method]}')
        return "\n".join(lines) + "\n"


def _counter(name: str, help_text: str, values: collections.Counter, methods: list) -> list:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} counter"]
    lines += [f'{name}{{method="{method}"}} {values[method]}' for method in methods]
    return lines
