// Sends CloudEvents to Kyma's eventing publisher proxy (PUBLISHER_PROXY_ADDRESS) in structured mode, as Kyma's
// runtime does: one JSON document, Content-Type application/cloudevents+json.
import http from 'node:http';
import https from 'node:https';

/**
 * Builds a CloudEvent with the `cloudevents` package, as Kyma's emitCloudEvent does: a new UUID as `id`, now as
 * `time`, specversion 1.0, `datacontenttype` from the data unless given, and the optional attributes; then POSTs
 * it. Rejects when the event is invalid (no type, an attribute name CloudEvents forbids), as publish() does.
 */
export async function emit(proxy, timeoutSeconds, type, source, data, attributes) {
  // Loaded on the first emit, not at start: most Functions never emit.
  const { CloudEvent, HTTP } = await import('cloudevents');
  let event;
  try {
    event = new CloudEvent({
      type,
      source,
      data,
      ...attributes,
      datacontenttype: attributes?.datacontenttype ?? contentTypeOf(data),
    });
  } catch (err) {
    const reasons = Array.isArray(err.errors) ? `: ${err.errors.map((e) => e.message).join('; ')}` : '';
    // cloudevents' message goes on with the JSON of its reasons on further lines; one line says it all.
    throw new Error(`cannot publish a CloudEvent: ${err.message.split('\n')[0].trim()}${reasons}`);
  }
  const message = HTTP.structured(event);
  return publish(proxy, timeoutSeconds, type, message.headers, message.body);
}

/** Kyma's rule: an object is JSON, a string text; gitfn adds bytes (a Buffer goes out as data_base64). */
function contentTypeOf(data) {
  if (Buffer.isBuffer(data)) return 'application/octet-stream';
  switch (typeof data) {
    case 'object':
      return 'application/json';
    case 'string':
      return 'text/plain';
    default:
      return undefined;
  }
}

/**
 * POSTs `body` to the publisher proxy through node:http, so the call carries the request's trace context as the
 * handler's own calls do. Resolves with { status, statusText, headers, data }, the shape of axios' response, which
 * Kyma's runtime returns; rejects when there is no proxy, it does not answer 2xx, or it has not answered within
 * `timeoutSeconds` (FUNC_TIMEOUT: by then the caller has had its 408).
 */
export function publish(proxy, timeoutSeconds, type, headers, body) {
  if (!proxy) {
    return Promise.reject(new Error('cannot publish a CloudEvent: PUBLISHER_PROXY_ADDRESS is not set'));
  }
  const failed = (reason) => new Error(`cannot publish CloudEvent ${type}: ${proxy} ${reason}`);
  return new Promise((resolve, reject) => {
    let url;
    try {
      url = new URL(proxy);
    } catch {
      reject(failed('is not a URL'));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body ?? '');
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': payload.length },
    });
    // A promise settles once: whatever comes after the first outcome (an error of the destroyed request) is dropped.
    const timer = setTimeout(() => {
      reject(failed(`did not answer within ${timeoutSeconds} s`));
      request.destroy();
    }, timeoutSeconds * 1000);
    const broken = (err) => {
      clearTimeout(timer);
      reject(failed(`cannot be reached: ${err.message}`));
    };
    request.on('error', broken);
    request.on('response', (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', broken);
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode;
        if (status < 200 || status > 299) {
          reject(failed(`answered ${status}`));
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        let data = text;
        if (/json/.test(response.headers['content-type'] ?? '')) {
          try {
            data = JSON.parse(text);
          } catch {
            // not JSON after all: the text as it is
          }
        }
        resolve({ status, statusText: response.statusMessage, headers: response.headers, data });
      });
    });
    request.end(payload);
  });
}
