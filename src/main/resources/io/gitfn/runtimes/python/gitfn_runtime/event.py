"""The `event` argument of a Kyma handler, built from one HTTP request."""

import base64
import codecs
import contextlib
import datetime
import io
import json
import sys
import uuid
from typing import Optional

import bottle

STRUCTURED_CLOUDEVENT = "application/cloudevents+json"


class InvalidRequest(ValueError):
    """The request body does not match its content type; the message says how."""


class Event(dict):
    """A dict with Kyma's keys: `ce-*`, `data` and `extensions.request`; plus Kyma's members: `ceHeaders`, `req`,
    `tracer`, `emitCloudEvent` and the deprecated `publishCloudEvent` and `buildResponseCloudEvent`.

    Kyma's Event keeps its fields in a dict attribute, `ceHeaders`, and `event[key]` reads that dict. Here the event
    is that dict: `event.ceHeaders` is the event itself, so a field written or removed through either is seen
    through the other. Being a dict, the event also allows `get`, `in` and iteration.
    """

    def __init__(self, fields: dict, publisher_proxy_address: Optional[str]):
        super().__init__(fields)
        self.tracer = NoopTracer()
        # Kyma's is `bottle.request`, which the handler's thread cannot read; this is the request it can read.
        self.req = fields.get("extensions", {}).get("request")
        self._publisher_proxy_address = publisher_proxy_address

    @property
    def ceHeaders(self) -> "Event":  # noqa: N802 (Kyma's name)
        return self

    @ceHeaders.setter
    def ceHeaders(self, fields: dict) -> None:  # noqa: N802
        # As if Kyma's attribute were bound to another dict: from then on the event reads that dict's fields.
        if fields is not self:
            self.clear()
            self.update(fields)

    def emitCloudEvent(self, type, source, data, optionalCloudEventAttributes=None):  # noqa: N802 (Kyma's name)
        """Posts a structured CloudEvent to PUBLISHER_PROXY_ADDRESS and returns the HTTP status of the reply.

        With `requests`, as Kyma does: the call is traced, and the request's trace context goes to the proxy."""
        cloud_event = {
            "specversion": "1.0",
            "id": str(uuid.uuid4()),
            "time": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "type": type,
            "source": source,
            **(optionalCloudEventAttributes or {}),
        }
        if isinstance(data, (bytes, bytearray)):  # as the CloudEvents SDK's to_structured writes bytes
            cloud_event["data_base64"] = base64.b64encode(data).decode()
        else:
            cloud_event["data"] = data
        # Like Kyma's requests.post: a refusal by the proxy is an answer, not an exception.
        return self._post("emitCloudEvent", json.dumps(cloud_event, default=str)).status_code

    def publishCloudEvent(self, data):  # noqa: N802 (Kyma's name)
        """Kyma's deprecated way: posts `data`, a CloudEvent as a dict, and returns the `requests` Response."""
        _deprecated("publishCloudEvent")
        return self._post("publishCloudEvent", json.dumps(data, default=str))

    def _post(self, caller: str, body: str):
        if not self._publisher_proxy_address:
            raise RuntimeError(f"{caller} needs PUBLISHER_PROXY_ADDRESS, which is not set")
        import requests  # the Function's own, if it ships one, as in Kyma; lent by the runtime otherwise

        return requests.post(
            self._publisher_proxy_address,
            data=body.encode(),
            headers={"Content-Type": STRUCTURED_CLOUDEVENT},
            timeout=30,
        )

    def buildResponseCloudEvent(self, event_id, event_type, event_data):  # noqa: N802 (Kyma's name)
        """Kyma's deprecated helper: a CloudEvent's fields as a dict, with this event's source and versions."""
        _deprecated("buildResponseCloudEvent")
        return {
            "type": event_type,
            "source": self.get("ce-source"),
            "eventtypeversion": self.get("ce-eventtypeversion"),
            "specversion": self.get("ce-specversion"),
            "id": event_id,
            "data": event_data,
            "datacontenttype": _data_content_type(event_data),
        }


def _deprecated(name: str) -> None:
    print(f'gitfn python runtime: "{name}" is deprecated. Use "emitCloudEvent"', file=sys.stderr, flush=True)


def _data_content_type(data) -> Optional[str]:
    if type(data) is dict:  # Kyma's exact test: a dict subclass or a list gives None, as there
        return "application/json"
    if type(data) is str:
        return "text/plain"
    return None


def event_from_request(request: bottle.BaseRequest, body: bytes, publisher_proxy_address: Optional[str]) -> Event:
    """Reads a CloudEvent in structured or binary mode, or a plain request, into an Event."""
    media_type = request.content_type.split(";")[0].strip().lower()
    fields = {"extensions": {"request": _detached_copy(request, body)}}
    if media_type == STRUCTURED_CLOUDEVENT:
        fields.update(_structured_cloudevent(body))
    else:
        # Binary mode: the attributes are ce-* headers, the body is the data. Kyma needs type and source.
        headers = {name.lower(): value for name, value in request.headers.items()}
        if "ce-type" in headers and "ce-source" in headers:
            fields.update({name: value for name, value in headers.items() if name.startswith("ce-")})
        fields["data"] = _data(media_type, request.content_type, body)
    return Event(fields, publisher_proxy_address)


def _structured_cloudevent(body: bytes) -> dict:
    document = _json(body, STRUCTURED_CLOUDEVENT)
    if not isinstance(document, dict):
        raise InvalidRequest(f"a {STRUCTURED_CLOUDEVENT} body must be a JSON object")
    fields = {f"ce-{name}": value for name, value in document.items() if name not in ("data", "data_base64")}
    if "data_base64" in document:
        fields["data"] = base64.b64decode(document["data_base64"])
    else:
        fields["data"] = document.get("data")
    return fields


def _data(media_type: str, content_type: str, body: bytes):
    """JSON content types give parsed JSON, anything else gives text; an empty body gives None."""
    if not body:
        return None
    if media_type == "application/json" or media_type.endswith("+json"):
        return _json(body, media_type)
    return body.decode(_charset(content_type), errors="replace")


def _json(body: bytes, media_type: str):
    try:
        return json.loads(body)
    except ValueError as error:
        raise InvalidRequest(f"the body is not valid JSON ({media_type}): {error}") from None


def _charset(content_type: str) -> str:
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            with contextlib.suppress(LookupError):
                return codecs.lookup(value.strip().strip('"')).name
    return "utf-8"


def _detached_copy(request: bottle.BaseRequest, body: bytes) -> bottle.BaseRequest:
    """A request the handler's own thread can read: bottle.request is bound to the serving thread."""
    environ = dict(request.environ)
    # Bottle reads the body from here first; the socket has been read already.
    environ["bottle.request.body"] = io.BytesIO(body)
    return bottle.BaseRequest(environ)


class NoopTracer:
    """`event.tracer` when OpenTelemetry cannot be used (see tracing.py), so that handlers that open spans run."""

    @contextlib.contextmanager
    def start_as_current_span(self, name, *args, **kwargs):
        yield _NoopSpan()

    def start_span(self, name, *args, **kwargs):
        return _NoopSpan()


class _NoopSpan:
    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def __getattr__(self, name):
        # set_attribute, add_event, set_status, record_exception, end, ...: all do nothing.
        return lambda *args, **kwargs: None
