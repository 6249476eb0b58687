// Loading the handler: CommonJS or ESM, its own dependencies from its own node_modules, and a handler that
// cannot load stops the runtime at start with one line saying why.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { failedStart, fixture, startRuntime } from './support/runtime.mjs';

async function callOnce(handlerPath, env = {}, cwd = undefined) {
  const runtime = await startRuntime(handlerPath, env, cwd);
  try {
    const res = await fetch(`${runtime.url}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"n":1}',
    });
    return { status: res.status, body: await res.text() };
  } finally {
    await runtime.stop();
  }
}

describe('handler modules', () => {
  test('an ES module handler ("type": "module") is imported', async () => {
    const { status, body } = await callOnce(fixture('esm'), { FUNC_NAME: 'esm-fn' });
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body), { module: 'esm', file: 'handler.js', name: 'esm-fn', data: { n: 1 } });
  });

  test('a handler requires its dependency from the node_modules beside it', async () => {
    assert.deepEqual(await callOnce(fixture('with-dep')), { status: 200, body: 'HELLO FROM BESIDE!' });
  });

  test('a handler requires its dependency from the node_modules of an ancestor folder', async () => {
    assert.deepEqual(await callOnce(fixture('with-dep/nested')), { status: 200, body: 'HELLO FROM BELOW!' });
  });

  test('a relative HANDLER_PATH is taken from the working directory', async () => {
    const folder = path.dirname(fixture('with-dep'));
    assert.deepEqual(await callOnce('./handler.js', {}, folder), { status: 200, body: 'HELLO FROM BESIDE!' });
  });
});

describe('packages the runtime lends, as Kyma does', () => {
  // The handler calls the runtime's own /healthz with axios, to show that the package works, not only loads.
  async function callWithOwnUrl(handlerPath) {
    const runtime = await startRuntime(handlerPath);
    try {
      const res = await fetch(`${runtime.url}/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${runtime.url}/healthz` }),
      });
      return { status: res.status, body: await res.json() };
    } finally {
      await runtime.stop();
    }
  }

  test('a CommonJS handler requires axios, co and mz without declaring them', async () => {
    assert.deepEqual(await callWithOwnUrl(fixture('lent-cjs')), {
      status: 200,
      body: { health: 'OK', readsItself: true, co: 3 },
    });
  });

  test('an ES module handler imports axios, cloudevents and mz without declaring them', async () => {
    assert.deepEqual(await callWithOwnUrl(fixture('lent-esm')), {
      status: 200,
      body: { health: 'OK', readsItself: true, ce: '1.0' },
    });
  });

  test("a CommonJS handler's own package of the same name wins over the runtime's", async () => {
    const { status, body } = await callOnce(fixture('own-axios'));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body), { whose: "the function's own axios" });
  });

  test("an ES module handler's own package of the same name wins over the runtime's", async () => {
    const { status, body } = await callOnce(fixture('own-axios/esm'));
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(body), { whose: "the function's own axios" });
  });
});

describe('a handler that cannot load', () => {
  const cases = [
    ['has a syntax error', 'broken-syntax', /: SyntaxError: Unexpected token ';' \(\S+broken-syntax\/handler\.js:3\)$/],
    ['requires a module it lacks', 'missing-dep', /: Error: Cannot find module 'gitfn-test-absent-package'$/],
    ['imports a package it lacks (ESM)', 'esm-missing-dep', /: Error: Cannot find package 'gitfn-test-absent-package' imported from \S+$/],
    ['exports no main', 'no-main', /: it does not export a function main\(event, context\)$/],
    ['throws while loading', 'throws-on-load', /: Error: DB_URL is not set$/],
    ['does not exist', 'no-such-folder', /: no such file$/],
  ];
  for (const [what, name, reason] of cases) {
    test(`${what}: the runtime exits 1 at start with one line on stderr`, async () => {
      const handlerPath = fixture(name);
      const { code, stdout, stderr } = await failedStart(handlerPath);
      assert.equal(code, 1);
      assert.equal(stdout, '', 'nothing on stdout, so no listening line');
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.ok(lines[0].startsWith(`gitfn nodejs runtime: cannot load handler ${handlerPath}: `), lines[0]);
      assert.match(lines[0], reason);
    });
  }

  test('it loads once what it lacked is there', async () => {
    assert.deepEqual(await callOnce(fixture('throws-on-load'), { DB_URL: 'postgres://db' }), {
      status: 200,
      body: 'connected',
    });
  });
});
