// The `event` argument of a Kyma handler: CloudEvent attributes, the body as `data`, the Express request and
// response, and the helpers Kyma's runtime offers.
import { emit, publish } from './publish.mjs';
import { tracer } from './tracer.mjs';

/** Builds the event for one request. `req.body` has been parsed already. */
export function buildEvent(req, res, settings) {
  const fields = cloudEventOf(req);
  const { publisherProxy: proxy, timeoutSeconds } = settings;
  return {
    ...fields,
    tracer,
    extensions: { request: req, response: res },
    setResponseHeader: (name, value) => res.set(name, value),
    setResponseContentType: (type) => res.type(type),
    setResponseStatus: (status) => res.status(status),
    emitCloudEvent: (type, source, data, attributes) => emit(proxy, timeoutSeconds, type, source, data, attributes),
    // Deprecated in Kyma, kept as Kyma has them so that older handlers run: build an event whose source, version
    // and specversion are the request's, then POST it as it is.
    buildResponseCloudEvent: (id, type, data) => {
      deprecated('buildResponseCloudEvent');
      return {
        type,
        source: fields['ce-source'],
        eventtypeversion: fields['ce-eventtypeversion'],
        specversion: fields['ce-specversion'],
        id,
        data,
        datacontenttype: { object: 'application/json', string: 'text/plain' }[typeof data],
      };
    },
    publishCloudEvent: (event) => {
      deprecated('publishCloudEvent');
      const body = typeof event === 'string' || Buffer.isBuffer(event) ? event : JSON.stringify(event);
      return publish(proxy, timeoutSeconds, event?.type, { 'content-type': 'application/cloudevents+json' }, body);
    },
  };
}

const warned = new Set();

/** Says once per process that a handler uses a deprecated helper, as Kyma's runtime says at every call. */
function deprecated(name) {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(`gitfn nodejs runtime: ${name} is deprecated: use emitCloudEvent`);
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
