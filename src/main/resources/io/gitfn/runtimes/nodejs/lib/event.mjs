// The `event` argument of a Kyma handler: CloudEvent attributes, the body as `data`, the Express request and
// response, and the helpers Kyma's runtime offers.
import { randomUUID } from 'node:crypto';
import { noopTracer } from './tracer.mjs';

/** Builds the event for one request. `req.body` has been parsed already. */
export function buildEvent(req, res, settings) {
  const publish = (cloudEvent) => publishCloudEvent(settings.publisherProxy, cloudEvent);
  return {
    ...cloudEventOf(req),
    // Kyma hands an OpenTelemetry tracer; gitfn traces nothing, so handlers that make spans get no-op ones.
    tracer: noopTracer,
    extensions: { request: req, response: res },
    setResponseHeader: (name, value) => res.set(name, value),
    setResponseContentType: (type) => res.type(type),
    setResponseStatus: (status) => res.status(status),
    emitCloudEvent: (type, source, data, attributes = {}) =>
      publish({ specversion: '1.0', id: randomUUID(), time: new Date(), ...attributes, type, source, data }),
    // Deprecated in Kyma, kept so that older handlers run: build an event, then publish it.
    buildResponseCloudEvent: (id, type, data) =>
      ({ specversion: '1.0', id, type, source: settings.functionName, data }),
    publishCloudEvent: publish,
  };
}

/**
 * The `ce-*` fields and `data` of a request. A structured CloudEvent (application/cloudevents+json) carries its
 * attributes in the body; a binary one in `ce-*` headers, with the body as its data; any other request only has
 * data.
 */
function cloudEventOf(req) {
  const body = req.body;
  if (req.is('application/cloudevents+json') && body !== null && typeof body === 'object') {
    const { data, data_base64: base64, ...attributes } = body;
    const fields = Object.fromEntries(Object.entries(attributes).map(([name, value]) => [`ce-${name}`, value]));
    return { ...fields, data: base64 !== undefined ? Buffer.from(base64, 'base64') : data };
  }
  const fields = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('ce-')));
  return { ...fields, data: body };
}

/**
 * POSTs a CloudEvent in binary mode to the publisher proxy, as Kyma's eventing expects. Resolves with the
 * proxy's response; rejects when there is no proxy or it does not answer 2xx.
 */
async function publishCloudEvent(proxy, { data, datacontenttype, ...attributes }) {
  if (!proxy) {
    throw new Error('cannot publish a CloudEvent: PUBLISHER_PROXY_ADDRESS is not set');
  }
  const headers = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) {
      headers[`ce-${name}`] = value instanceof Date ? value.toISOString() : String(value);
    }
  }
  const [body, contentType] = encode(data, datacontenttype);
  if (contentType) {
    headers['content-type'] = contentType;
  }
  const response = await fetch(proxy, { method: 'POST', headers, body });
  if (!response.ok) {
    throw new Error(`cannot publish CloudEvent ${headers['ce-type']}: ${proxy} answered ${response.status}`);
  }
  return response;
}

function encode(data, contentType) {
  if (data === undefined || data === null) {
    return [undefined, contentType];
  }
  if (Buffer.isBuffer(data)) {
    return [data, contentType ?? 'application/octet-stream'];
  }
  if (typeof data === 'string') {
    return [data, contentType ?? 'text/plain; charset=utf-8'];
  }
  return [JSON.stringify(data), contentType ?? 'application/json'];
}
