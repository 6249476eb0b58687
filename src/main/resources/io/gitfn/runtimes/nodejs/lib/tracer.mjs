// A tracer with OpenTelemetry's Tracer and Span methods that records nothing. Kyma handlers may call
// `event.tracer.startActiveSpan(...)`; gitfn has no trace collector, and such a handler must still run.

const noopSpan = Object.freeze({
  spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
  isRecording: () => false,
  setAttribute: () => noopSpan,
  setAttributes: () => noopSpan,
  addEvent: () => noopSpan,
  addLink: () => noopSpan,
  addLinks: () => noopSpan,
  setStatus: () => noopSpan,
  updateName: () => noopSpan,
  recordException: () => {},
  end: () => {},
});

export const noopTracer = Object.freeze({
  startSpan: () => noopSpan,
  // startActiveSpan(name, [options], [context], fn): the callback is always the last argument.
  startActiveSpan: (...args) => args[args.length - 1](noopSpan),
});
