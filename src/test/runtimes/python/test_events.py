"""What the handler receives: Kyma's event (CloudEvents, data, the request) and context."""

import base64
import json

import pytest


@pytest.fixture(scope="module")
def echo(module_functions):
    return module_functions.start(
        "echo",
        FUNC_NAME="orders",
        SERVICE_NAMESPACE="shop",
        FUNC_RUNTIME="python312",
        FUNC_TIMEOUT="30",
        FUNC_MEMFILE_MAX="4096",
        FUNC_MEMORY_LIMIT="128Mi",
    )


def test_context_has_kyma_keys_from_the_environment(echo):
    assert echo.call("GET", "/").json()["context"] == {
        "function-name": "orders",
        "namespace": "shop",
        "runtime": "python312",
        "timeout": 30.0,
        "body-size-limit": 4096,
        "memory-limit": "128Mi",
    }


def test_json_body_is_parsed_into_data(echo):
    reply = echo.call("POST", "/orders", body='{"id": 7}', headers={"Content-Type": "application/json"})

    assert reply.status == 200
    assert reply.json()["data"] == {"id": 7}
    assert reply.json()["cloudevent"] == {}


def test_other_bodies_are_data_as_text(echo):
    body = "grüße".encode("latin-1")
    reply = echo.call("POST", "/", body=body, headers={"Content-Type": "text/plain; charset=latin-1"})

    assert reply.json()["data"] == "grüße"


def test_no_body_gives_none_data(echo):
    assert echo.call("GET", "/").json()["data"] is None


def test_invalid_json_is_refused_before_the_handler(echo):
    reply = echo.call("POST", "/", body="{not json", headers={"Content-Type": "application/json"})

    assert reply.status == 400
    assert reply.text.startswith("the body is not valid JSON (application/json)")


def test_binary_cloudevent_headers_become_ce_fields(echo):
    headers = {
        "Content-Type": "application/json",
        "ce-specversion": "1.0",
        "ce-type": "order.created",
        "ce-source": "shop",
        "ce-id": "a1",
        "ce-time": "2026-01-02T03:04:05Z",
        "ce-eventtypeversion": "v1",
    }
    reply = echo.call("POST", "/", body='{"id": 7}', headers=headers)

    assert reply.json()["cloudevent"] == {
        "ce-specversion": "1.0",
        "ce-type": "order.created",
        "ce-source": "shop",
        "ce-id": "a1",
        "ce-time": "2026-01-02T03:04:05Z",
        "ce-eventtypeversion": "v1",
    }
    assert reply.json()["data"] == {"id": 7}


def test_structured_cloudevent_attributes_become_ce_fields_and_its_data_is_data(echo):
    event = {
        "specversion": "1.0",
        "type": "order.created",
        "source": "shop",
        "id": "a2",
        "eventtypeversion": "v1",
        "data": {"id": 8},
    }
    headers = {"Content-Type": "application/cloudevents+json; charset=utf-8"}
    reply = echo.call("POST", "/", body=json.dumps(event), headers=headers)

    assert reply.json()["cloudevent"] == {
        "ce-specversion": "1.0",
        "ce-type": "order.created",
        "ce-source": "shop",
        "ce-id": "a2",
        "ce-eventtypeversion": "v1",
    }
    assert reply.json()["data"] == {"id": 8}


def test_structured_cloudevent_with_binary_data_gives_bytes(echo):
    event = {"specversion": "1.0", "type": "t", "source": "s", "id": "a3", "data_base64": base64.b64encode(b"hi").decode()}
    reply = echo.call("POST", "/", body=json.dumps(event), headers={"Content-Type": "application/cloudevents+json"})

    assert reply.json()["data"] == str(b"hi")  # bytes reach the handler; the JSON reply shows their repr


def test_structured_cloudevent_must_be_a_json_object(echo):
    reply = echo.call("POST", "/", body="[1]", headers={"Content-Type": "application/cloudevents+json"})

    assert reply.status == 400
    assert "must be a JSON object" in reply.text


def test_the_request_is_in_extensions(echo):
    seen = echo.call("PUT", "/orders/7?dry=1", body="raw text").json()

    assert (seen["method"], seen["path"], seen["query"], seen["body"]) == ("PUT", "/orders/7", {"dry": "1"}, "raw text")


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
def test_each_handler_method_reaches_the_handler_on_any_path(echo, method):
    reply = echo.call(method, "/any/path")

    assert reply.status == 200
    assert reply.json()["method"] == method


def test_other_methods_are_not_allowed(echo):
    assert echo.call("OPTIONS", "/").status == 405


@pytest.fixture(scope="module")
def ce_headers(module_functions):
    return module_functions.start("ce_headers")


def test_event_ce_headers_of_a_binary_cloudevent_are_kymas_fields(ce_headers):
    headers = {
        "Content-Type": "application/json",
        "ce-specversion": "1.0",
        "ce-type": "order.created",
        "ce-source": "shop",
        "ce-id": "b1",
        "ce-eventtypeversion": "v1",
    }
    seen = ce_headers.call("POST", "/orders", body='{"id": 7}', headers=headers).json()

    assert (seen["ce-type"], seen["ce-source"], seen["ce-id"], seen["data"]) == ("order.created", "shop", "b1", {"id": 7})
    assert (seen["method"], seen["path"]) == ("POST", "/orders")  # event.ceHeaders['extensions']['request']


def test_event_ce_headers_of_a_structured_cloudevent_are_kymas_fields(ce_headers):
    event = {"specversion": "1.0", "type": "order.paid", "source": "till", "id": "s1", "data": {"id": 8}}
    headers = {"Content-Type": "application/cloudevents+json"}
    seen = ce_headers.call("PUT", "/paid", body=json.dumps(event), headers=headers).json()

    assert (seen["ce-type"], seen["ce-source"], seen["ce-id"], seen["data"]) == ("order.paid", "till", "s1", {"id": 8})
    assert (seen["method"], seen["path"]) == ("PUT", "/paid")


def test_event_and_its_ce_headers_are_one_mapping_written_through_either(ce_headers):
    headers = {"Content-Type": "text/plain", "ce-type": "t", "ce-source": "s", "ce-id": "w1"}
    seen = ce_headers.call("POST", "/", body="x", headers=headers).json()

    assert seen["event-sees"] == "seen by event[...]"
    assert seen["ce-headers-sees"] == "seen by event.ceHeaders[...]"
    assert "extensions" not in seen["keys-left"]  # popped through event.ceHeaders, gone from event


def test_event_req_is_the_request_and_build_response_cloud_event_is_kymas(ce_headers):
    headers = {
        "Content-Type": "application/json",
        "ce-specversion": "1.0",
        "ce-type": "order.created",
        "ce-source": "shop",
        "ce-id": "r0",
        "ce-eventtypeversion": "v1",
    }
    seen = ce_headers.call("POST", "/req", body="{}", headers=headers).json()

    assert seen["req"] == ["POST", "/req"]
    assert seen["response-event"] == {
        "type": "order.answered",
        "source": "shop",
        "eventtypeversion": "v1",
        "specversion": "1.0",
        "id": "r1",
        "data": {"ok": True},
        "datacontenttype": "application/json",
    }
