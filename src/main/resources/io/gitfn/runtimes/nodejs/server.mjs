// gitfn's Node.js runtime: serves one Function's `main(event, context)` over HTTP on Kyma's runtime contract.
// Start: node server.mjs, with HANDLER_PATH and the other settings of docs/runtimes.md in the environment.
import http from 'node:http';
import { createApp } from './lib/app.mjs';
import { loadHandler } from './lib/handler.mjs';
import { Metrics } from './lib/metrics.mjs';
import { lendRuntimePackages } from './lib/packages.mjs';
import { readSettings } from './lib/settings.mjs';
import { drainOnSignals } from './lib/shutdown.mjs';
import { setupTracing } from './lib/tracer.mjs';

const log = (line) => console.log(`gitfn nodejs runtime: ${line}`);
const fatal = (line) => {
  console.error(`gitfn nodejs runtime: ${line}`);
  process.exit(1);
};

// The handler loads before the port opens, so /healthz never answers for a Function that cannot serve.
let settings;
let main;
try {
  settings = readSettings(process.env);
  // Before the handler loads and the server starts: both must get the instrumented node:http.
  await setupTracing(settings);
  lendRuntimePackages();
  main = await loadHandler(settings.handlerPath);
} catch (err) {
  fatal(err.message);
}

// An error thrown in a handler's stray callback or unawaited promise must not stop the server (as in Kyma).
process.on('uncaughtException', (err) => console.error('gitfn nodejs runtime: uncaught exception:', err));
process.on('unhandledRejection', (err) => console.error('gitfn nodejs runtime: unhandled rejection:', err));

const server = http.createServer(createApp(main, settings, new Metrics()));
server.on('error', (err) => fatal(`cannot listen on port ${settings.port}: ${err.message}`));
server.listen(settings.port, settings.bind, () => {
  log(`function ${settings.functionName ?? '-'} listening on ${server.address().port}`);
});
drainOnSignals(server, log);
