// The HTTP contract of a Kyma handler, against a CommonJS handler: return values, helpers, errors, the body
// limit, the runtime's own routes and its metrics.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixture, startRuntime } from './support/runtime.mjs';

describe('a CommonJS handler', () => {
  let runtime;
  const get = (path, init) => fetch(runtime.url + path, init);

  before(async () => {
    runtime = await startRuntime(fixture('cjs'), {
      SERVICE_NAMESPACE: 'shop',
      FUNC_RUNTIME: 'nodejs22',
      FUNC_TIMEOUT: '30',
      REQ_MB_LIMIT: '1',
    });
  });
  after(() => runtime.stop());

  test('a returned object is sent as JSON', async () => {
    const res = await get('/object');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^application\/json/);
    assert.deepEqual(await res.json(), { hello: 'world' });
  });

  test('a returned string is the body', async () => {
    const res = await get('/string');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'plain text');
  });

  test('a returned number is the body as text', async () => {
    const res = await get('/number');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '42');
  });

  test('undefined is an empty 200', async () => {
    const res = await get('/undefined');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  test('a returned promise is awaited', async () => {
    const res = await get('/promise');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { late: true });
  });

  test('sendResponse sets the body, status and headers', async () => {
    const res = await get('/send-response');
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-sent-by'), 'sendResponse');
    assert.deepEqual(await res.json(), { created: true });
  });

  test('sendResponse with a status and no body sends the status', async () => {
    const res = await get('/send-status');
    assert.equal(res.status, 404);
    assert.equal(await res.text(), 'Not Found');
  });

  test('the event helpers set status, header and content type', async () => {
    const res = await get('/helpers');
    assert.equal(res.status, 202);
    assert.equal(res.headers.get('x-helper'), 'yes');
    assert.match(res.headers.get('content-type'), /^text\/csv/);
    assert.equal(await res.text(), 'a,b\n1,2\n');
  });

  test('a handler may answer through extensions.response itself', async () => {
    const res = await get('/response');
    assert.equal(res.status, 207);
    assert.equal(await res.text(), 'written directly');
  });

  test('a thrown error is a 500 Internal server error; its message and stack go to stderr only', async () => {
    const res = await get('/throw?order=7');
    assert.equal(res.status, 500);
    assert.equal(await res.text(), 'Internal server error');
    const line = await runtime.waitForStderr(/^gitfn nodejs runtime: GET \/throw\?order=7 failed: Error: boom: thrown$/m);
    const stack = /^ {4}at .*fixtures\/cjs\/handler\.js:\d+:\d+/m;
    assert.match(runtime.stderr.slice(line.index), stack, 'the stack follows');
  });

  test('a rejected promise is a 500 Internal server error; its message goes to stderr only', async () => {
    const res = await get('/reject', { method: 'POST', body: 'x' });
    assert.equal(res.status, 500);
    assert.equal(await res.text(), 'Internal server error');
    await runtime.waitForStderr(/^gitfn nodejs runtime: POST \/reject failed: Error: boom: rejected$/m);
  });

  test('a thrown string is a 500 with that string', async () => {
    const res = await get('/throw-string');
    assert.equal(res.status, 500);
    assert.equal(await res.text(), 'boom: a string');
  });

  test('an error after sendResponse keeps the answer sent; the error is logged', async () => {
    const res = await get('/send-then-throw');
    assert.equal(res.status, 409);
    assert.deepEqual(await res.json(), { kept: true });
    await runtime.waitForStderr(/^gitfn nodejs runtime: GET \/send-then-throw failed: Error: boom: after sendResponse/m);
  });

  test('a rejection after answering through extensions.response keeps that answer', async () => {
    const res = await get('/respond-then-reject');
    assert.equal(res.status, 418);
    assert.equal(await res.text(), 'kept as written');
    await runtime.waitForStderr(/failed: Error: boom: after extensions\.response$/m);
  });

  test('the server keeps serving after handler errors', async () => {
    await get('/throw').then((res) => res.text());
    const res = await get('/string');
    assert.equal(await res.text(), 'plain text');
  });

  test('context names the function, namespace, runtime, timeout and body size limit', async () => {
    const res = await get('/context');
    assert.deepEqual(await res.json(), {
      'function-name': 'test-fn',
      namespace: 'shop',
      runtime: 'nodejs22',
      timeout: 30,
      'body-size-limit': 1,
    });
  });

  test('event.tracer takes spans without a trace collector', async () => {
    const res = await get('/tracer');
    assert.equal(await res.text(), 'traced');
  });

  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    test(`${method} goes to the handler`, async () => {
      const res = await get('/echo', { method });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).method, method);
    });
  }

  test('HEAD goes to the handler and gets no body', async () => {
    const res = await get('/echo', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });

  test('an OPTIONS request that is no CORS preflight goes to the handler', async () => {
    const res = await get('/echo', { method: 'OPTIONS' });
    assert.equal((await res.json()).method, 'OPTIONS');
  });

  test('a CORS preflight is answered for any origin, method and headers', async () => {
    const res = await get('/echo', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'x-token',
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-methods'), 'PUT');
    assert.equal(res.headers.get('access-control-allow-headers'), 'x-token');
  });

  test("the handler's responses allow any origin", async () => {
    const res = await get('/object', { headers: { Origin: 'https://app.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('a JSON body is parsed into data', async () => {
    const res = await post('/echo', 'application/json', '{"order":7}');
    assert.deepEqual(await res.json(), { method: 'POST', kind: 'object', data: { order: 7 }, ce: {} });
  });

  test('a JSON body need not be an object', async () => {
    const res = await post('/echo', 'application/json', '"just a string"');
    assert.deepEqual((await res.json()).data, 'just a string');
  });

  test('a text body is a string', async () => {
    const res = await post('/echo', 'text/plain', 'hello');
    assert.deepEqual(await res.json(), { method: 'POST', kind: 'string', data: 'hello', ce: {} });
  });

  test('a form body is parsed into an object', async () => {
    const res = await post('/echo', 'application/x-www-form-urlencoded', 'a=1&b[c]=2');
    assert.deepEqual((await res.json()).data, { a: '1', b: { c: '2' } });
  });

  test('any other body is a Buffer', async () => {
    const res = await post('/echo', 'application/octet-stream', 'bytes');
    const body = await res.json();
    assert.equal(body.kind, 'buffer');
    assert.equal(body.data, 'bytes');
  });

  test('a request without a body has no data', async () => {
    const res = await get('/echo');
    assert.equal((await res.json()).kind, 'undefined');
  });

  test('malformed JSON is a 400', async () => {
    const res = await post('/echo', 'application/json', '{"order":');
    assert.equal(res.status, 400);
  });

  test('a body of exactly REQ_MB_LIMIT is accepted', async () => {
    const res = await post('/size', 'application/octet-stream', Buffer.alloc(1024 * 1024));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { bytes: 1024 * 1024 });
  });

  test('a body over REQ_MB_LIMIT is a 413', async () => {
    const res = await post('/size', 'application/octet-stream', Buffer.alloc(1024 * 1024 + 1));
    assert.equal(res.status, 413);
    assert.equal(await res.text(), 'the request body is larger than REQ_MB_LIMIT (1 MB)');
  });

  test('GET /healthz is 200 OK', async () => {
    const res = await get('/healthz');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'OK');
  });

  test('GET /favicon.ico is 204', async () => {
    const res = await get('/favicon.ico');
    assert.equal(res.status, 204);
  });

  test('GET /metrics counts calls and failures and times them', async () => {
    const before = parseMetrics(await (await get('/metrics')).text());
    await (await get('/object')).text();
    await (await get('/throw')).text();
    await (await get('/healthz')).text();

    const res = await get('/metrics');
    assert.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const now = parseMetrics(await res.text());
    assert.equal(now.function_calls_total - before.function_calls_total, 2);
    assert.equal(now.function_failures_total - before.function_failures_total, 1);
    assert.equal(now.function_duration_seconds_count - before.function_duration_seconds_count, 2);
    assert.equal(now['function_duration_seconds_bucket{le="+Inf"}'], now.function_duration_seconds_count);
    assert.ok(now.function_duration_seconds_sum > before.function_duration_seconds_sum);
  });

  function post(path, contentType, body) {
    return get(path, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  }
});

/** Prometheus text as { 'name{labels}': value }, comments left out. */
function parseMetrics(text) {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const at = line.lastIndexOf(' ');
        return [line.slice(0, at), Number(line.slice(at + 1))];
      }),
  );
}
