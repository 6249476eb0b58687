// The HTTP routes of the runtime: probes and metrics of its own, everything else to the Function.
import express from 'express';
import { accessLog } from './access-log.mjs';
import { invoker } from './invoke.mjs';
import { CONTENT_TYPE } from './metrics.mjs';

export function createApp(main, settings, metrics) {
  const app = express();
  app.disable('x-powered-by');
  if (settings.accessLog) app.use(accessLog);

  // As Kyma parses bodies: JSON (CloudEvents included), text, forms, and raw bytes for anything else.
  const limit = Math.round(settings.bodyLimitMb * 1024 * 1024);
  app.use(express.json({ type: ['application/json', 'application/*+json'], limit, strict: false }));
  app.use(express.text({ type: 'text/*', limit }));
  app.use(express.urlencoded({ extended: true, limit }));
  app.use(express.raw({ type: () => true, limit }));

  app.get('/healthz', (req, res) => res.send('OK'));
  app.get('/metrics', (req, res) => res.type(CONTENT_TYPE).send(metrics.render()));
  app.get('/favicon.ico', (req, res) => res.status(204).end());
  app.use(corsPreflight);
  app.use(invoker(main, settings, metrics));
  app.use(requestError(settings));
  return app;
}

/** Answers a browser's CORS preflight for any origin, method and headers; other OPTIONS go to the Function. */
function corsPreflight(req, res, next) {
  const method = req.get('Access-Control-Request-Method');
  if (req.method !== 'OPTIONS' || !method) return next();
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Access-Control-Allow-Methods', method);
  const headers = req.get('Access-Control-Request-Headers');
  if (headers) res.set('Access-Control-Allow-Headers', headers);
  res.status(204).end();
}

/** Turns a request the body parsers refused (too large, malformed) into its 4xx status with a short reason. */
function requestError(settings) {
  return (err, req, res, next) => {
    const status = err.status ?? err.statusCode;
    if (!(status >= 400 && status < 500)) return next(err);
    const reason = err.type === 'entity.too.large'
      ? `the request body is larger than REQ_MB_LIMIT (${settings.bodyLimitMb} MB)`
      : err.message;
    res.status(status).type('text').send(reason);
  };
}
