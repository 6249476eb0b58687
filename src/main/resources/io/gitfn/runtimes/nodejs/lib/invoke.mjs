// Calls the Function's main for one request, and turns what it returns, throws or never does into the response.
import { buildEvent } from './event.mjs';
import { currentSpan, failSpan } from './tracer.mjs';

/** The Express handler that serves every request the runtime itself does not answer. */
export function invoker(main, settings, metrics) {
  const context = Object.freeze({
    'function-name': settings.functionName,
    namespace: settings.namespace,
    runtime: settings.runtime,
    timeout: settings.timeoutSeconds,
    'body-size-limit': settings.bodyLimitMb,
  });
  return async (req, res) => {
    res.set('Access-Control-Allow-Origin', '*');
    metrics.calls++;
    const started = process.hrtime.bigint();
    let failed = false;
    const fail = () => {
      if (!failed) metrics.failures++;
      failed = true;
    };
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      fail();
      res.status(408).type('text')
        .send(`the function did not answer within FUNC_TIMEOUT (${settings.timeoutSeconds} s)`);
    }, settings.timeoutSeconds * 1000);
    res.on('close', () => {
      clearTimeout(timer);
      metrics.observeDuration(Number(process.hrtime.bigint() - started) / 1e9);
    });

    const span = currentSpan();
    const sendResponse = (body, status, headers) => send(res, body, status, headers);
    try {
      sendResponse(await main(buildEvent(req, res, settings), context, sendResponse));
    } catch (err) {
      fail();
      // The details stay in the log: an error's message or stack may name files, hosts or secrets. A thrown
      // string is the handler's own answer, as in Kyma.
      console.error(`gitfn nodejs runtime: ${req.method} ${req.originalUrl} failed:`, err);
      const answer = typeof err === 'string' ? err : 'Internal server error';
      failSpan(span, res, answer);
      sendResponse(answer, 500);
    }
  };
}

/**
 * Kyma's sendResponse: an object goes out as JSON, anything else as the body text; no body means an empty
 * 200, or the status with its reason phrase. Only the first answer counts.
 */
function send(res, body, status, headers) {
  // Answered already: by an earlier sendResponse, through extensions.response, or by the timeout.
  if (res.writableEnded) return;
  // The handler wrote part of a response through extensions.response; finish it as it is.
  if (res.headersSent) {
    res.end();
    return;
  }
  if (headers) res.set(headers);
  if (body === undefined || body === null) {
    if (status) res.sendStatus(status);
    else res.end();
    return;
  }
  if (status) res.status(status);
  if (typeof body === 'object' && !Buffer.isBuffer(body)) res.json(body);
  else res.end(Buffer.isBuffer(body) ? body : String(body));
}
