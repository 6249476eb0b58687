// Trace context across a Function, through OpenTelemetry as in Kyma's runtime: a caller's W3C traceparent or B3
// headers go on in the Function's outgoing calls (node:http, axios) with the same trace id and a new parent span,
// in W3C and B3 multi-header form; spans go to TRACE_COLLECTOR_ENDPOINT over OTLP/HTTP when it is set, and
// nowhere when it is not.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixture, startRuntime } from './support/runtime.mjs';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

/** A local HTTP server that records every request (method, path, headers, body) and answers 200. */
async function recorder() {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { requests, url: `http://127.0.0.1:${server.address().port}`, close };
}

/** POSTs { url } to the Function at `path` with `headers`, and returns the request the downstream server saw. */
async function callThrough(runtime, downstream, path, headers) {
  downstream.requests.length = 0;
  const res = await fetch(runtime.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ url: `${downstream.url}/downstream` }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(await res.json(), { called: 200 });
  assert.equal(downstream.requests.length, 1);
  return downstream.requests[0].headers;
}

/** The downstream call continues trace `traceId` under a new span of the Function's, in W3C and B3 form. */
function assertContinues(headers, traceId, callerSpanId) {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(headers.traceparent ?? '');
  assert.ok(match, `traceparent ${headers.traceparent}`);
  const [, sentTraceId, sentSpanId] = match;
  assert.equal(sentTraceId, traceId, 'the same trace');
  assert.notEqual(sentSpanId, callerSpanId, "a new parent span: the Function's");
  assert.notEqual(sentSpanId, '0'.repeat(16));
  assert.equal(headers['x-b3-traceid'], traceId);
  assert.equal(headers['x-b3-spanid'], sentSpanId, 'B3 names the same parent span');
  assert.equal(headers['x-b3-sampled'], '1');
  return sentSpanId;
}

describe('trace context through a Function', () => {
  let runtime;
  let esm;
  let downstream;

  before(async () => {
    downstream = await recorder();
    runtime = await startRuntime(fixture('trace'));
    esm = await startRuntime(fixture('trace-esm'));
  });
  after(async () => {
    downstream?.close();
    await runtime?.stop();
    await esm?.stop();
  });

  test('from traceparent: http.get carries the trace on, in W3C and B3 multi-header form', async () => {
    const headers = await callThrough(runtime, downstream, '/http-get', { traceparent: TRACEPARENT });
    assertContinues(headers, TRACE_ID, PARENT_ID);
  });

  test('from traceparent: axios carries the trace on', async () => {
    const headers = await callThrough(runtime, downstream, '/axios', { traceparent: TRACEPARENT });
    assertContinues(headers, TRACE_ID, PARENT_ID);
  });

  test('from B3 multi headers: the trace goes on', async () => {
    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const b3 = { 'x-b3-traceid': traceId, 'x-b3-spanid': 'b7ad6b7169203331', 'x-b3-sampled': '1' };
    assertContinues(await callThrough(runtime, downstream, '/http-get', b3), traceId, 'b7ad6b7169203331');
    assertContinues(await callThrough(runtime, downstream, '/axios', b3), traceId, 'b7ad6b7169203331');
  });

  test('from a single b3 header: the trace goes on', async () => {
    const traceId = '80f198ee56343ba864fe8b2a57d3eff7';
    const b3 = { b3: `${traceId}-e457b5a2e4d86bd1-1` };
    assertContinues(await callThrough(runtime, downstream, '/http-get', b3), traceId, 'e457b5a2e4d86bd1');
  });

  test("a caller's trace that is not sampled stays not sampled", async () => {
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-00`;
    const headers = await callThrough(runtime, downstream, '/http-get', { traceparent });
    assert.match(headers.traceparent, new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`));
    assert.equal(headers['x-b3-traceid'], TRACE_ID);
    assert.equal(headers['x-b3-sampled'], '0');
  });

  test('two requests of the same trace give two different parent spans', async () => {
    const call = () => callThrough(runtime, downstream, '/http-get', { traceparent: TRACEPARENT });
    const first = assertContinues(await call(), TRACE_ID, PARENT_ID);
    const second = assertContinues(await call(), TRACE_ID, PARENT_ID);
    assert.notEqual(first, second);
  });

  test('without a trace to continue, the call starts one of its own', async () => {
    const headers = await callThrough(runtime, downstream, '/http-get', {});
    const [, traceId] = /^00-([0-9a-f]{32})-/.exec(headers.traceparent);
    assertContinues(headers, traceId, undefined);
  });

  test("a handler's own span is the parent of its calls", async () => {
    const call = (path) => callThrough(runtime, downstream, path, { traceparent: TRACEPARENT });
    const viaRequest = assertContinues(await call('/http-get'), TRACE_ID, PARENT_ID);
    const viaOwnSpan = assertContinues(await call('/own-span'), TRACE_ID, PARENT_ID);
    assert.notEqual(viaOwnSpan, viaRequest);
  });

  for (const [what, path] of [
    ['a named import of node:http (get)', '/named-get'],
    ['the default import of node:http (request)', '/default-request'],
    ['axios', '/axios'],
  ]) {
    test(`an ES module handler: ${what} carries the trace on`, async () => {
      assertContinues(await callThrough(esm, downstream, path, { traceparent: TRACEPARENT }), TRACE_ID, PARENT_ID);
    });
  }
});

describe('TRACE_COLLECTOR_ENDPOINT', () => {
  test("set: spans go there over OTLP/HTTP, the handler's own under the request's; the probes make none", async () => {
    const collector = await recorder();
    const downstream = await recorder();
    const runtime = await startRuntime(fixture('trace'), { TRACE_COLLECTOR_ENDPOINT: `${collector.url}/v1/traces` });
    try {
      for (const path of ['/healthz', '/metrics', '/favicon.ico']) await (await fetch(runtime.url + path)).text();
      await sleep(300);
      assert.equal(collector.requests.length, 0, 'no spans for /healthz, /metrics, /favicon.ico');

      await callThrough(runtime, downstream, '/own-span', { traceparent: TRACEPARENT });
      const spans = await spansOf(collector, 3); // the request's, the handler's `work`, the outgoing call's
      for (const request of collector.requests) {
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/v1/traces');
        assert.match(request.headers['content-type'], /^application\/json/);
        assert.ok(request.body.length > 0);
      }
      assert.ok(spans.every((span) => span.traceId === TRACE_ID), 'all in the caller\'s trace');
      const server = spans.find((span) => span.parentSpanId === PARENT_ID);
      assert.ok(server, "the request's span is a child of the caller's");
      const work = spans.find((span) => span.name === 'work');
      assert.equal(work?.parentSpanId, server.spanId, "the handler's span is a child of the request's");
      const client = spans.find((span) => span.parentSpanId === work.spanId);
      assert.ok(client, "the outgoing call's span is a child of the handler's");
      assert.equal(collector.resource['service.name'], 'test-fn', 'FUNC_NAME names the service');
    } finally {
      await runtime.stop();
      collector.close();
      downstream.close();
    }
  });

  test("a handler's error marks the request's span as failed", async () => {
    const collector = await recorder();
    const runtime = await startRuntime(fixture('trace'), { TRACE_COLLECTOR_ENDPOINT: `${collector.url}/v1/traces` });
    try {
      const res = await fetch(`${runtime.url}/throw`, { headers: { traceparent: TRACEPARENT } });
      assert.equal(res.status, 500);
      const [span] = await spansOf(collector, 1);
      assert.equal(span.status.code, 2, 'STATUS_CODE_ERROR');
      assert.equal(span.status.message, 'Internal server error');
      const error = span.attributes.find(({ key }) => key === 'error');
      assert.deepEqual(error?.value, { stringValue: 'Internal server error' });
    } finally {
      await runtime.stop();
      collector.close();
    }
  });

  test('unset: nothing is sent and nothing is logged, even where OpenTelemetry\'s own variables point', async () => {
    const collector = await recorder();
    const downstream = await recorder();
    // A default OTLP exporter would send to these; the runtime makes none without TRACE_COLLECTOR_ENDPOINT.
    const runtime = await startRuntime(fixture('trace'), {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
    });
    try {
      await callThrough(runtime, downstream, '/own-span', { traceparent: TRACEPARENT });
      await (await fetch(`${runtime.url}/throw`)).text();
      await sleep(500);
      assert.equal(collector.requests.length, 0);
      assert.equal(runtime.stdout, `gitfn nodejs runtime: function test-fn listening on ${runtime.port}\n`);
      assert.doesNotMatch(runtime.stderr, /opentelemetry|otlp|export/i);
    } finally {
      await runtime.stop();
      collector.close();
      downstream.close();
    }
  });
});

/**
 * Waits until the collector has `count` spans, and returns them with hex ids, flattened from OTLP/JSON
 * (resourceSpans[].scopeSpans[].spans[]); sets collector.resource to the resource's attributes.
 */
async function spansOf(collector, count) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const spans = [];
    for (const request of collector.requests) {
      for (const resourceSpans of JSON.parse(request.body).resourceSpans ?? []) {
        collector.resource = Object.fromEntries(
          (resourceSpans.resource?.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]),
        );
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) spans.push(...scopeSpans.spans);
      }
    }
    if (spans.length >= count) return spans;
    if (Date.now() > deadline) throw new Error(`the collector got ${spans.length} spans, not ${count}`);
    await sleep(50);
  }
}
