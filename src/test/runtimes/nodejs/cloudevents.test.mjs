// CloudEvents in and out: binary and structured events become ce-* fields and data; emitCloudEvent posts a
// structured-mode event to PUBLISHER_PROXY_ADDRESS, as Kyma's runtime does.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { fixture, startRuntime } from './support/runtime.mjs';

describe('CloudEvents', () => {
  let runtime;
  let proxy;
  const published = [];

  before(async () => {
    // A stand-in for Kyma's eventing publisher proxy: records each request and answers 204.
    proxy = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        published.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    runtime = await startRuntime(fixture('cjs'), {
      PUBLISHER_PROXY_ADDRESS: `http://127.0.0.1:${proxy.address().port}/publish`,
    });
  });
  after(async () => {
    await runtime.stop();
    proxy.close();
  });

  test('a binary-mode event gives its ce-* headers as fields and its body as data', async () => {
    const res = await fetch(`${runtime.url}/echo`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'ce-specversion': '1.0',
        'ce-type': 'sap.kyma.custom.shop.order.created.v1',
        'ce-source': 'shop',
        'ce-id': 'A234-1234-1234',
        'ce-time': '2026-01-02T03:04:05Z',
        'ce-eventtypeversion': 'v1',
      },
      body: JSON.stringify({ orderId: 7 }),
    });
    assert.deepEqual(await res.json(), {
      method: 'POST',
      kind: 'object',
      data: { orderId: 7 },
      ce: {
        'ce-specversion': '1.0',
        'ce-type': 'sap.kyma.custom.shop.order.created.v1',
        'ce-source': 'shop',
        'ce-id': 'A234-1234-1234',
        'ce-time': '2026-01-02T03:04:05Z',
        'ce-eventtypeversion': 'v1',
      },
    });
  });

  test('a structured-mode event gives its attributes as ce-* fields and its data as data', async () => {
    const res = await fetch(`${runtime.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/cloudevents+json; charset=utf-8' },
      body: JSON.stringify({
        specversion: '1.0',
        type: 'order.created',
        source: 'shop',
        id: 'B-1',
        time: '2026-01-02T03:04:05Z',
        eventtypeversion: 'v1',
        datacontenttype: 'application/json',
        data: { orderId: 8 },
      }),
    });
    assert.deepEqual(await res.json(), {
      method: 'POST',
      kind: 'object',
      data: { orderId: 8 },
      ce: {
        'ce-specversion': '1.0',
        'ce-type': 'order.created',
        'ce-source': 'shop',
        'ce-id': 'B-1',
        'ce-time': '2026-01-02T03:04:05Z',
        'ce-eventtypeversion': 'v1',
        'ce-datacontenttype': 'application/json',
      },
    });
  });

  test('a structured-mode event with data_base64 gives the decoded bytes as data', async () => {
    const res = await fetch(`${runtime.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/cloudevents+json' },
      body: JSON.stringify({
        specversion: '1.0',
        type: 'blob.stored',
        source: 'shop',
        id: 'C-1',
        data_base64: Buffer.from('raw bytes').toString('base64'),
      }),
    });
    const body = await res.json();
    assert.equal(body.kind, 'buffer');
    assert.equal(body.data, 'raw bytes');
    assert.equal(body.ce['ce-type'], 'blob.stored');
  });

  test('emitCloudEvent posts one structured-mode CloudEvent to the publisher proxy', async () => {
    published.length = 0;
    const res = await fetch(`${runtime.url}/emit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId: 9 }),
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'emitted: 204', 'the promise resolves with the response, as axios does');

    assert.equal(published.length, 1);
    const [request] = published;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/publish');
    assert.match(request.headers['content-type'], /^application\/cloudevents\+json(;|$)/);
    assert.equal(request.headers['ce-type'], undefined, 'no binary-mode headers');
    const { id, time, ...event } = JSON.parse(request.body);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(Math.abs(Date.parse(time) - Date.now()) < 60_000, time);
    assert.deepEqual(event, {
      specversion: '1.0',
      type: 'order.created',
      source: 'gitfn-test',
      eventtypeversion: 'v1',
      datacontenttype: 'application/json',
      data: { orderId: 9 },
    });
  });

  test('emitCloudEvent: string data is text/plain unless the handler gives a datacontenttype', async () => {
    published.length = 0;
    const res = await fetch(`${runtime.url}/emit-text`);
    assert.equal(await res.text(), 'emitted');

    const events = published.map((request) => JSON.parse(request.body));
    assert.deepEqual(
      events.map(({ datacontenttype, data }) => ({ datacontenttype, data })),
      [
        { datacontenttype: 'text/plain', data: 'a note' },
        { datacontenttype: 'application/xml', data: '<note/>' },
      ],
    );
    assert.notEqual(events[0].id, events[1].id, 'each event gets its own id');
  });

  test('the deprecated buildResponseCloudEvent and publishCloudEvent publish as in Kyma', async () => {
    published.length = 0;
    const res = await fetch(`${runtime.url}/publish-deprecated`, {
      headers: {
        'ce-source': 'shop',
        'ce-specversion': '1.0',
        'ce-eventtypeversion': 'v2',
        'ce-type': 'in',
        'ce-id': 'i',
      },
    });
    assert.equal(await res.text(), 'published');

    assert.equal(published.length, 1);
    const [request] = published;
    assert.equal(request.headers['content-type'], 'application/cloudevents+json');
    assert.deepEqual(JSON.parse(request.body), {
      type: 'order.updated',
      source: 'shop',
      eventtypeversion: 'v2',
      specversion: '1.0',
      id: 'id-1',
      data: { n: 1 },
      datacontenttype: 'application/json',
    });
    assert.match(runtime.stderr, /buildResponseCloudEvent is deprecated: use emitCloudEvent/);
  });
});

describe('emitCloudEvent failures', () => {
  test('without PUBLISHER_PROXY_ADDRESS the handler gets an error saying so', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    try {
      const res = await fetch(`${runtime.url}/emit`, { method: 'POST', body: 'x' });
      assert.equal(res.status, 500);
      await runtime.waitForStderr(/failed: Error: cannot publish a CloudEvent: PUBLISHER_PROXY_ADDRESS is not set$/m);
    } finally {
      await runtime.stop();
    }
  });

  test('an event without a type is refused before anything is sent', async () => {
    const runtime = await startRuntime(fixture('cjs'), { PUBLISHER_PROXY_ADDRESS: 'http://127.0.0.1:9/publish' });
    try {
      const res = await fetch(`${runtime.url}/emit-no-type`);
      assert.equal(res.status, 500);
      const [, reason] = await runtime.waitForStderr(/failed: Error: (.*)$/m);
      assert.equal(reason, "cannot publish a CloudEvent: invalid payload: must have required property 'type'");
    } finally {
      await runtime.stop();
    }
  });

  test('a proxy that does not answer 2xx fails the emit', async () => {
    const proxy = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(503).end()));
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const address = `http://127.0.0.1:${proxy.address().port}/publish`;
    const runtime = await startRuntime(fixture('cjs'), { PUBLISHER_PROXY_ADDRESS: address });
    try {
      const res = await fetch(`${runtime.url}/emit`, { method: 'POST', body: 'x' });
      assert.equal(res.status, 500);
      const line = await runtime.waitForStderr(/failed: Error: (.*)$/m);
      assert.equal(line[1], `cannot publish CloudEvent order.created: ${address} answered 503`);
    } finally {
      await runtime.stop();
      proxy.close();
    }
  });

  test('a proxy that does not answer fails the emit after FUNC_TIMEOUT', async () => {
    // Reads the request and never answers.
    const proxy = http.createServer((req) => req.resume());
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const address = `http://127.0.0.1:${proxy.address().port}/publish`;
    const runtime = await startRuntime(fixture('cjs'), { PUBLISHER_PROXY_ADDRESS: address, FUNC_TIMEOUT: '1' });
    try {
      const res = await fetch(`${runtime.url}/emit-logged`);
      assert.equal(await res.text(), 'emitting');
      const started = Date.now();
      const [, reason] = await runtime.waitForOutput(/^emit ended: (.*)$/m, 5_000);
      assert.equal(reason, `cannot publish CloudEvent order.created: ${address} did not answer within 1 s`);
      assert.ok(Date.now() - started < 3_000);
    } finally {
      await runtime.stop();
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});
