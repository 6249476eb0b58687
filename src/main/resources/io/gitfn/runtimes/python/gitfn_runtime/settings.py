"""The runtime's configuration: read once from the environment, with Kyma's names and defaults."""

import dataclasses
from pathlib import Path
from typing import Mapping, Optional

MIB = 1024 * 1024

# How long SIGTERM waits for in-flight requests before the process exits anyway.
DRAIN_SECONDS = 10.0
# After SIGTERM, how long kept-alive connections are answered with `Connection: close` before idle ones are closed.
IDLE_GRACE_SECONDS = 1.0


class SettingsError(ValueError):
    """An environment variable has a value the runtime cannot use."""


@dataclasses.dataclass(frozen=True)
class Settings:
    function_path: Path
    module_name: str
    handler_name: str
    bind: str
    port: int
    function_name: Optional[str]
    namespace: Optional[str]
    runtime: Optional[str]
    timeout: float
    body_limit: int
    threads: int
    memory_limit: Optional[str]
    access_log: bool
    publisher_proxy_address: Optional[str]
    trace_collector_endpoint: Optional[str]

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "Settings":
        def text(name: str, default: Optional[str] = None) -> Optional[str]:
            # Kubernetes and shells often pass an unset variable as an empty one.
            value = env.get(name, "").strip()
            return value or default

        return cls(
            function_path=Path(text("FUNCTION_PATH", "/kubeless")),
            module_name=text("MOD_NAME", "handler"),
            handler_name=text("FUNC_HANDLER", "main"),
            bind=text("FUNC_BIND", "0.0.0.0"),
            port=_number(int, "FUNC_PORT", text("FUNC_PORT", "8080"), minimum=0, maximum=65535),
            function_name=text("FUNC_NAME"),
            namespace=text("SERVICE_NAMESPACE"),
            runtime=text("FUNC_RUNTIME"),
            timeout=_number(float, "FUNC_TIMEOUT", text("FUNC_TIMEOUT", "180"), minimum=0.001),
            body_limit=_number(int, "FUNC_MEMFILE_MAX", text("FUNC_MEMFILE_MAX", str(100 * MIB)), minimum=1),
            threads=_number(int, "CHERRYPY_NUMTHREADS", text("CHERRYPY_NUMTHREADS", "50"), minimum=1),
            memory_limit=text("FUNC_MEMORY_LIMIT"),
            # Kyma turns the access log on for any value; "false" and "0" meaning on would surprise.
            access_log=text("KYMA_INTERNAL_LOGGER_ENABLED", "").lower() not in ("", "0", "false", "no"),
            publisher_proxy_address=text("PUBLISHER_PROXY_ADDRESS"),
            trace_collector_endpoint=text("TRACE_COLLECTOR_ENDPOINT"),
        )

    def function_context(self) -> dict:
        """The `context` argument of the handler, with Kyma's keys."""
        return {
            "function-name": self.function_name,
            "namespace": self.namespace,
            "runtime": self.runtime,
            "timeout": self.timeout,
            "body-size-limit": self.body_limit,
            "memory-limit": self.memory_limit,
        }

    def display_name(self) -> str:
        return self.function_name or f"{self.module_name}.{self.handler_name}"


def _number(kind, name: str, raw: str, minimum=None, maximum=None):
    try:
        value = kind(raw)
    except ValueError:
        unit = "a whole number" if kind is int else "a number"
        raise SettingsError(f"{name} must be {unit}, got {raw!r}") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"between {minimum} and {maximum}"
        raise SettingsError(f"{name} must be {bounds}, got {raw!r}")
    return value
