// OpenTelemetry, set up as Kyma's runtime does: the trace context of a request (W3C traceparent or B3) goes on
// in the Function's outgoing calls through node:http and node:https (axios included), with a new span of the
// Function's as their parent; spans go to TRACE_COLLECTOR_ENDPOINT over OTLP/HTTP when it is set.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AlwaysOnSampler, NodeTracerProvider, ParentBasedSampler } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

// The runtime's own routes make no spans (as in Kyma): probes and scrapes would drown the Function's traces.
const UNTRACED = new Set(['/healthz', '/metrics', '/favicon.ico']);
// What the client of a failed call was told, on its response (see failSpan).
const FAILURE = Symbol('gitfn.failure');

/** `event.tracer`, as in Kyma: a handler's spans are children of the request's span. */
export const tracer = trace.getTracer('io.kyma-project.serverless');

/**
 * Registers the tracer provider, the propagators and the http/https instrumentation. Call it once, before the
 * handler is imported and before the server is created.
 */
export async function setupTracing(settings) {
  const spanProcessors = [];
  if (settings.traceCollector) {
    // Loaded only when there is somewhere to send spans: the exporter is the largest part of OpenTelemetry.
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    spanProcessors.push(new SimpleSpanProcessor(new OTLPTraceExporter({ url: settings.traceCollector })));
  }
  const provider = new NodeTracerProvider({
    // The Function's name wins over the default's `unknown_service:<node>` (merge() lets the resource given win).
    resource: defaultResource().merge(
      resourceFromAttributes(settings.functionName ? { [ATTR_SERVICE_NAME]: settings.functionName } : {}),
    ),
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors,
  });
  provider.register({
    propagator: new CompositePropagator({
      propagators: [
        new W3CTraceContextPropagator(),
        new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER }),
      ],
    }),
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? '').split('?')[0]),
        // Runs when the response has finished, after the instrumentation set the span's status from its code.
        applyCustomAttributesOnSpan: (span, request, response) => {
          const message = response?.[FAILURE];
          if (message !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message });
        },
      }),
    ],
  });
  // The instrumentation patches http and https when they are next required: now, so that the server, the
  // handler's require() and its `import http from 'node:http'` (the same object) all get the patched functions.
  // An ES module's named import (`import { get } from 'node:http'`) is a copy, brought up to date by
  // syncBuiltinESMExports; the handler is imported after this.
  const require = createRequire(import.meta.url);
  require('http');
  require('https');
  syncBuiltinESMExports();
}

/**
 * Marks the request's span as failed with what the client was told, as Kyma means to: status ERROR with that
 * message, and an `error` attribute. The status is set when the response finishes: the instrumentation sets it
 * then from the status code, without a message, over whatever was set before (which is how Kyma's loses it).
 */
export function failSpan(span, res, message) {
  span?.setAttribute('error', message);
  res[FAILURE] = message;
}

/** The span of the request being served, if it is traced. */
export const currentSpan = () => trace.getSpan(context.active());
