// The runtime's settings, read once from the environment the platform (or `gitfn up`) sets.
import path from 'node:path';

/**
 * Reads the settings from `env`. Throws an Error whose message is one line naming the variable at fault.
 * Relative HANDLER_PATH values are taken from the working directory, as Kyma's `./function/handler.js` is.
 */
export function readSettings(env) {
  if (!env.HANDLER_PATH) {
    throw new Error("HANDLER_PATH is not set: it names the Function's handler.js");
  }
  return Object.freeze({
    handlerPath: path.resolve(env.HANDLER_PATH),
    port: port(env, 'FUNC_PORT', 8080),
    // Unset means every interface, as in a container; `gitfn up` passes 127.0.0.1.
    bind: env.FUNC_BIND || undefined,
    functionName: env.FUNC_NAME,
    namespace: env.SERVICE_NAMESPACE,
    runtime: env.FUNC_RUNTIME,
    timeoutSeconds: positive(env, 'FUNC_TIMEOUT', 180),
    bodyLimitMb: positive(env, 'REQ_MB_LIMIT', 1),
    accessLog: flag(env.KYMA_INTERNAL_LOGGER_ENABLED),
    publisherProxy: env.PUBLISHER_PROXY_ADDRESS || undefined,
    traceCollector: env.TRACE_COLLECTOR_ENDPOINT || undefined,
  });
}

function port(env, name, fallback) {
  const value = number(env, name, fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name}=${env[name]} is not a port number (0-65535)`);
  }
  return value;
}

function positive(env, name, fallback) {
  const value = number(env, name, fallback);
  if (!(value > 0)) {
    throw new Error(`${name}=${env[name]} is not a positive number`);
  }
  return value;
}

function number(env, name, fallback) {
  const text = env[name];
  return text === undefined || text.trim() === '' ? fallback : Number(text);
}

function flag(text) {
  return text !== undefined && !['', '0', 'false', 'no', 'off'].includes(text.trim().toLowerCase());
}
