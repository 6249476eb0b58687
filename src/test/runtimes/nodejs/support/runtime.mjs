// Starts gitfn's Node.js runtime as a child process, as `gitfn up` does, on a port the system picks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const runtimeDir = process.env.GITFN_NODEJS_RUNTIME;
if (!runtimeDir || !fs.existsSync(path.join(runtimeDir, 'node_modules', 'express'))) {
  throw new Error(
    'GITFN_NODEJS_RUNTIME must name a copy of src/main/resources/io/gitfn/runtimes/nodejs with `npm ci` run in ' +
      `it (got ${runtimeDir ?? 'nothing'}); mvn -B test prepares target/runtimes/nodejs and sets it`,
  );
}
const serverPath = path.join(runtimeDir, 'server.mjs');
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** The absolute path of a fixture's handler.js, e.g. fixture('cjs') or fixture('with-dep/nested'). */
export const fixture = (name) => path.join(fixtures, name, 'handler.js');

/**
 * Starts the runtime with `env` (FUNC_PORT=0 unless given; an undefined value leaves a variable out) in the
 * working directory `cwd`, without waiting for it.
 */
export const launch = (env, cwd = undefined) => new Runtime(env, cwd);

/** A running runtime process with its output so far. */
class Runtime {
  stdout = '';
  stderr = '';
  exited;

  constructor(env, cwd) {
    // A clean environment: only what the test sets reaches the runtime, as with a container's env.
    this.child = spawn(process.execPath, [serverPath], {
      cwd,
      env: Object.fromEntries(
        Object.entries({ PATH: process.env.PATH, FUNC_PORT: '0', ...env }).filter(([, value]) => value !== undefined),
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk) => (this.stdout += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk) => (this.stderr += chunk));
    this.exited = once(this.child, 'exit').then(([code, signal]) => ({ code, signal }));
  }

  /** Resolves once stdout has a line matching `pattern`, with its match; rejects if the process exits first. */
  waitForOutput(pattern, timeoutMs = 10_000) {
    return this.#waitFor('stdout', pattern, timeoutMs);
  }

  /** The same for stderr. */
  waitForStderr(pattern, timeoutMs = 10_000) {
    return this.#waitFor('stderr', pattern, timeoutMs);
  }

  async #waitFor(stream, pattern, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this[stream]);
      if (match) return match;
      if (this.child.exitCode !== null) {
        throw new Error(`runtime exited with ${this.child.exitCode} before printing ${pattern}; stderr: ${this.stderr}`);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `runtime printed no ${pattern} on ${stream} within ${timeoutMs} ms; stdout: ${this.stdout}; stderr: ${this.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * Starts the runtime for `handlerPath` with `env` added, in the working directory `cwd` (the test's if not
 * given), and waits for its listening line. Resolves with the runtime and its base URL (http://127.0.0.1:<port>).
 */
export async function startRuntime(handlerPath, env = {}, cwd = undefined) {
  const runtime = launch({ HANDLER_PATH: handlerPath, FUNC_NAME: 'test-fn', ...env }, cwd);
  const [, port] = await runtime.waitForOutput(/^gitfn nodejs runtime: function \S+ listening on (\d+)$/m);
  runtime.port = Number(port);
  runtime.url = `http://127.0.0.1:${port}`;
  return runtime;
}

/** Runs the runtime for `handlerPath` expecting it to fail at start; resolves with its exit and output. */
export async function failedStart(handlerPath, env = {}) {
  const runtime = launch({ HANDLER_PATH: handlerPath, FUNC_NAME: 'test-fn', ...env });
  const timeout = setTimeout(() => runtime.child.kill('SIGKILL'), 10_000);
  const exit = await runtime.exited;
  clearTimeout(timeout);
  return { ...exit, stdout: runtime.stdout, stderr: runtime.stderr };
}
