// CloudEvents in and out: binary and structured events become ce-* fields and data; emitCloudEvent posts a
// binary-mode event to PUBLISHER_PROXY_ADDRESS.
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

  test('emitCloudEvent posts a binary-mode event to the publisher proxy', async () => {
    published.length = 0;
    const res = await fetch(`${runtime.url}/emit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId: 9 }),
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'emitted');

    assert.equal(published.length, 1);
    const [event] = published;
    assert.equal(event.method, 'POST');
    assert.equal(event.url, '/publish');
    assert.equal(event.headers['ce-specversion'], '1.0');
    assert.equal(event.headers['ce-type'], 'order.created');
    assert.equal(event.headers['ce-source'], 'gitfn-test');
    assert.equal(event.headers['ce-eventtypeversion'], 'v1');
    assert.match(event.headers['ce-id'], /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(event.headers['ce-time'])), event.headers['ce-time']);
    assert.equal(event.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(event.body), { orderId: 9 });
  });

  test('the deprecated buildResponseCloudEvent and publishCloudEvent still publish', async () => {
    published.length = 0;
    const res = await fetch(`${runtime.url}/publish-deprecated`);
    assert.equal(await res.text(), 'published');

    assert.equal(published.length, 1);
    const [event] = published;
    assert.equal(event.headers['ce-id'], 'id-1');
    assert.equal(event.headers['ce-type'], 'order.updated');
    assert.equal(event.headers['ce-source'], 'test-fn');
    assert.deepEqual(JSON.parse(event.body), { n: 1 });
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
});
