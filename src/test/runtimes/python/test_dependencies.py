"""Where the handler and its own dependencies come from, and what it may call out to."""

import http.server
import json
import threading

import pytest

from conftest import DEPS_DIR, FIXTURES


def test_a_dependency_comes_from_the_folder_on_pythonpath(functions):
    function = functions.start("with_dependency", extra_path=[DEPS_DIR])

    assert function.call("POST", "/", body="gitfn").text == "Hello, gitfn!"


def test_without_its_dependency_folder_the_handler_does_not_start(functions):
    process = functions.start("with_dependency", wait=False)

    assert process.exit_code(timeout=20) == 1
    assert "ModuleNotFoundError: No module named 'greeting' (at handler.py:1)" in process.stderr.all()[0]


def test_packages_kyma_lends_to_handlers_are_importable_without_being_declared(functions):
    function = functions.start("lent")

    reply = function.call("GET", "/")

    assert reply.status == 200, function.stderr.all()
    seen = reply.json()
    assert (seen["requests"], seen["cloudevents"]) == ("2.34.2", "1.12.1")  # Kyma's versions
    content_type, body = seen["structured"]
    assert content_type == "application/cloudevents+json"
    assert json.loads(body)["data"] == {"id": 7}
    assert "\norders_total 1.0\n" in seen["prometheus"]
    assert (seen["tracer-provider"], seen["session"]) == ("TracerProvider", "Session")


def test_metrics_the_handler_registers_with_prometheus_client_show_on_metrics_as_in_kyma(functions):
    function = functions.start("lent")
    function.call("GET", "/")

    text = function.call("GET", "/metrics").text

    assert "\nlent_calls_total 1.0\n" in text
    assert 'function_calls_total{method="GET"} 1' in text


def test_a_functions_own_package_wins_over_the_one_the_runtime_lends_and_the_server_keeps_its_own_bottle(
    functions,
):
    # own_deps has a `requests` and a `bottle` that are not the real ones, the latter unusable by the server.
    function = functions.start("own_packages", extra_path=[FIXTURES / "own_deps"])

    seen = function.call("POST", "/").json()

    assert seen == {"requests": "the Function's own requests", "bottle": "the Function's own bottle", "method": "POST"}


def test_a_response_of_the_functions_own_bottle_sets_status_and_headers(functions):
    function = functions.start("own_packages", extra_path=[FIXTURES / "own_deps"])

    returned = function.call("GET", "/teapot")
    raised = function.call("GET", "/gone")

    assert (returned.status, returned.headers["x-own"], returned.text) == (418, "yes", "short and stout")
    assert (raised.status, raised.text) == (410, "gone for good")


def test_mod_name_and_func_handler_choose_the_module_and_function(functions):
    function = functions.start("custom_names", MOD_NAME="orders", FUNC_HANDLER="handle")

    assert function.call("GET", "/").text == "handled by orders.handle"



@pytest.fixture
def publisher_proxy():
    """A stand-in for Kyma's eventing publisher proxy on loopback that keeps what it is sent."""
    received = []

    class Proxy(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, self.headers["Content-Type"], json.loads(body)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/publish", received
    server.shutdown()
    server.server_close()


def test_emit_cloud_event_posts_a_structured_cloudevent_to_the_publisher_proxy(functions, publisher_proxy):
    address, received = publisher_proxy
    function = functions.start("emit", PUBLISHER_PROXY_ADDRESS=address)

    assert function.call("POST", "/").json() == {"proxy-status": 204}

    [(path, content_type, event)] = received
    assert (path, content_type) == ("/publish", "application/cloudevents+json")
    assert {name: event[name] for name in ("specversion", "type", "source", "eventtypeversion", "data")} == {
        "specversion": "1.0",
        "type": "order.created.v1",
        "source": "orders",
        "eventtypeversion": "v1",
        "data": {"id": 7},
    }
    assert event["id"] and event["time"]


def test_publish_cloud_event_posts_its_dict_and_answers_the_response_as_kymas_deprecated_one_does(
    functions, publisher_proxy
):
    address, received = publisher_proxy
    function = functions.start("emit", PUBLISHER_PROXY_ADDRESS=address)

    assert function.call("POST", "/publish").json() == {"proxy-status": 204}

    assert received == [
        (
            "/publish",
            "application/cloudevents+json",
            {"specversion": "1.0", "type": "order.paid.v1", "source": "till", "id": "p1"},
        )
    ]
    assert function.stderr.wait_for(lambda line: "\"publishCloudEvent\" is deprecated" in line, 5)


def test_emit_cloud_event_without_a_publisher_proxy_is_a_500_whose_reason_is_on_stderr(functions):
    function = functions.start("emit")

    reply = function.call("POST", "/")

    assert (reply.status, reply.text) == (500, "Internal server error")
    assert function.stderr.wait_for(
        lambda line: line == "RuntimeError: emitCloudEvent needs PUBLISHER_PROXY_ADDRESS, which is not set", 5
    )
