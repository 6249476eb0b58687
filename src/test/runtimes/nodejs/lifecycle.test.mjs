// The process around the handler: start-up and its failures, where it listens, the timeout, the access log,
// and graceful shutdown.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { failedStart, fixture, launch, startRuntime } from './support/runtime.mjs';

describe('start-up', () => {
  test('prints one listening line with the function name and the port FUNC_PORT asks for', async () => {
    const port = await freePort();
    const runtime = await startRuntime(fixture('cjs'), { FUNC_NAME: 'orders', FUNC_PORT: String(port) });
    try {
      assert.equal(runtime.port, port);
      assert.equal(runtime.stdout, `gitfn nodejs runtime: function orders listening on ${port}\n`);
      assert.equal((await fetch(`${runtime.url}/healthz`)).status, 200);
    } finally {
      await runtime.stop();
    }
  });

  test('/healthz does not answer until the handler has loaded', async () => {
    const port = await freePort();
    const runtime = launch({ HANDLER_PATH: fixture('slow-load'), FUNC_PORT: String(port) });
    try {
      // The handler tries the port itself, at the end of its load: nothing may listen there yet.
      const [, during] = await runtime.waitForOutput(/^slow-load: port \d+ (answered|refused) while the handler loaded$/m);
      assert.equal(during, 'refused');
      let status;
      while (status === undefined) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.status, () => undefined);
        if (status === undefined) await sleep(50);
      }
      assert.equal(status, 200);
    } finally {
      await runtime.stop();
    }
  });

  const settingErrors = [
    ['HANDLER_PATH is unset', { HANDLER_PATH: undefined }, "HANDLER_PATH is not set: it names the Function's handler.js"],
    ['FUNC_PORT is no number', { FUNC_PORT: 'eighty' }, 'FUNC_PORT=eighty is not a port number (0-65535)'],
    ['FUNC_TIMEOUT is zero', { FUNC_TIMEOUT: '0' }, 'FUNC_TIMEOUT=0 is not a positive number'],
    ['REQ_MB_LIMIT is negative', { REQ_MB_LIMIT: '-1' }, 'REQ_MB_LIMIT=-1 is not a positive number'],
  ];
  for (const [what, env, message] of settingErrors) {
    test(`exits 1 with one line when ${what}`, async () => {
      const { code, stderr } = await failedStart(fixture('cjs'), env);
      assert.equal(code, 1);
      assert.equal(stderr, `gitfn nodejs runtime: ${message}\n`);
    });
  }

  test('exits 1 with one line when the port is taken', async () => {
    const holder = await startRuntime(fixture('cjs'));
    try {
      const { code, stderr } = await failedStart(fixture('cjs'), { FUNC_PORT: String(holder.port) });
      assert.equal(code, 1);
      assert.match(stderr, new RegExp(`^gitfn nodejs runtime: cannot listen on port ${holder.port}: .*EADDRINUSE.*\\n$`));
    } finally {
      await holder.stop();
    }
  });
});

describe('listening address', () => {
  // Linux routes all of 127.0.0.0/8 to loopback: a server on every interface answers 127.0.0.2, one bound to
  // 127.0.0.1 does not.
  test('FUNC_BIND=127.0.0.1 listens on that address only', async () => {
    const runtime = await startRuntime(fixture('cjs'), { FUNC_BIND: '127.0.0.1' });
    try {
      assert.equal(await connects('127.0.0.1', runtime.port), true);
      assert.equal(await connects('127.0.0.2', runtime.port), false);
    } finally {
      await runtime.stop();
    }
  });

  test('without FUNC_BIND it listens on every interface', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    try {
      assert.equal(await connects('127.0.0.2', runtime.port), true);
    } finally {
      await runtime.stop();
    }
  });
});

describe('FUNC_TIMEOUT', () => {
  test('a handler that does not answer in time gets a 408, counted as a failure', async () => {
    const runtime = await startRuntime(fixture('cjs'), { FUNC_TIMEOUT: '1' });
    try {
      const started = Date.now();
      // The handler would take a minute, longer than this call waits: only the runtime's timeout can answer it.
      const res = await fetch(`${runtime.url}/slow?ms=60000`, { signal: AbortSignal.timeout(30_000) });
      const took = Date.now() - started;
      assert.equal(res.status, 408);
      assert.equal(await res.text(), 'the function did not answer within FUNC_TIMEOUT (1 s)');
      assert.ok(took >= 1000, `answered after ${took} ms, before FUNC_TIMEOUT`);

      const metrics = await (await fetch(`${runtime.url}/metrics`)).text();
      assert.match(metrics, /^function_calls_total 1$/m);
      assert.match(metrics, /^function_failures_total 1$/m);
    } finally {
      await runtime.stop();
    }
  });
});

describe('access log', () => {
  test('KYMA_INTERNAL_LOGGER_ENABLED prints a combined log line per request', async () => {
    const runtime = await startRuntime(fixture('cjs'), { KYMA_INTERNAL_LOGGER_ENABLED: 'true' });
    try {
      await (await fetch(`${runtime.url}/object?x=1`, { headers: { 'User-Agent': 'probe/1.0' } })).text();
      await runtime.waitForOutput(
        /^\S+ - - \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\] "GET \/object\?x=1 HTTP\/1\.1" 200 17 "-" "probe\/1\.0"$/m,
      );
    } finally {
      await runtime.stop();
    }
  });

  test('without it requests print nothing', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    try {
      await (await fetch(`${runtime.url}/object`)).text();
      assert.equal(runtime.stdout.split('\n').filter(Boolean).length, 1, runtime.stdout);
    } finally {
      await runtime.stop();
    }
  });
});

describe('SIGTERM', () => {
  test('stops accepting connections, finishes the request in flight and exits 0', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    try {
      const inFlight = fetch(`${runtime.url}/slow?ms=1500`);
      await runtime.waitForOutput(/^slow request started/m);
      runtime.child.kill('SIGTERM');
      await runtime.waitForOutput(/SIGTERM: no new connections; waiting up to 10 s for 1 request\(s\) in flight/);

      assert.equal(await connects('127.0.0.1', runtime.port), false, 'a new connection after SIGTERM');
      const res = await inFlight;
      assert.equal(res.status, 200);
      assert.equal(await res.text(), 'done');
      const answered = Date.now();
      // The response's keep-alive connection must not hold the exit until it goes idle long enough to be closed:
      // by fetch after 4 s (the server's 5 s keep-alive timeout, less fetch's margin of a second), or by the server
      // after 5 s. A bound under those is the behaviour under test, not a speed.
      assert.deepEqual(await runtime.exited, { code: 0, signal: null });
      assert.ok(Date.now() - answered < 3000, `exited ${Date.now() - answered} ms after the response`);
    } finally {
      await runtime.stop();
    }
  });

  test('a client that keeps sending on one kept-alive connection gets every answer, the last one saying Connection: close', async () => {
    // As a Service's clients do while a rollout ends the old Pod: the connection outlives the endpoint. Closing it
    // between two of its requests would leave the second one with no answer at all.
    const runtime = await startRuntime(fixture('cjs'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [];
      let signalled = false;
      for (let i = 0; i < 2000; i++) {
        const res = await get(agent, `${runtime.url}/string`);
        answers.push(res);
        if (res.connection === 'close') break;
        if (!signalled && i === 50) {
          runtime.child.kill('SIGTERM');
          signalled = true;
        }
      }
      assert.ok(signalled);
      assert.ok(answers.every((res) => res.status === 200 && res.body === 'plain text'), JSON.stringify(answers.at(-1)));
      assert.equal(answers.at(-1).connection, 'close', `${answers.length} answers, none said Connection: close`);
      assert.equal(new Set(answers.map((res) => res.socket)).size, 1, 'every answer came on the one connection');
      assert.deepEqual(await runtime.exited, { code: 0, signal: null });
    } finally {
      agent.destroy();
      await runtime.stop();
    }
  });

  test('closes a connection kept alive but idle a second after SIGTERM, and exits', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const res = await get(agent, `${runtime.url}/string`);
      assert.equal(res.connection, 'keep-alive');
      const signalled = Date.now();
      runtime.child.kill('SIGTERM');

      assert.deepEqual(await runtime.exited, { code: 0, signal: null });
      const took = Date.now() - signalled;
      // Not at once (a request may be on its way), and long before the server's 5 s keep-alive timeout.
      assert.ok(took >= 900 && took < 4000, `exited ${took} ms after SIGTERM`);
      assert.equal(runtime.stdout.split('\n').filter(Boolean).at(-1), 'gitfn nodejs runtime: stopped', runtime.stdout);
    } finally {
      agent.destroy();
      await runtime.stop();
    }
  });

  test('closes a connection that never sent a request, and exits at once', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    const silent = net.connect({ host: '127.0.0.1', port: runtime.port });
    try {
      await new Promise((resolve, reject) => silent.on('connect', resolve).on('error', reject));
      const closed = new Promise((resolve) => silent.on('close', resolve));
      const output = once(runtime.child, 'close'); // after its stdout was read to the end
      runtime.child.kill('SIGTERM');

      assert.deepEqual(await runtime.exited, { code: 0, signal: null });
      await closed;
      await output;
      // Held by the connection, the server could not close, and the drain's 10 s timer would end the process.
      assert.equal(runtime.stdout.split('\n').filter(Boolean).at(-1), 'gitfn nodejs runtime: stopped', runtime.stdout);
    } finally {
      silent.destroy();
      await runtime.stop();
    }
  });

  test('gives up on a request still running after 10 s and exits 0', async () => {
    const runtime = await startRuntime(fixture('cjs'));
    try {
      const inFlight = fetch(`${runtime.url}/slow?ms=60000`).then(
        (res) => res.status,
        (err) => err.cause?.code ?? err.message,
      );
      await runtime.waitForOutput(/^slow request started/m);
      const signalled = Date.now();
      runtime.child.kill('SIGTERM');

      assert.deepEqual(await runtime.exited, { code: 0, signal: null });
      const took = Date.now() - signalled;
      assert.ok(took >= 9500, `exited ${took} ms after SIGTERM, before the 10 s drain was over`);
      assert.match(runtime.stdout, /stopped with 1 request\(s\) still in flight after 10 s/);
      assert.notEqual(await inFlight, 200);
    } finally {
      await runtime.stop();
    }
  });
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** One GET through `agent`: its status, body, Connection header and a name for the connection it came on. */
function get(agent, url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      const socket = `${res.socket.localPort}`;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({
        status: res.statusCode,
        body,
        connection: res.headers.connection,
        socket,
      }));
    }).on('error', reject);
  });
}

/** Whether a TCP connection to host:port is accepted. */
function connects(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
