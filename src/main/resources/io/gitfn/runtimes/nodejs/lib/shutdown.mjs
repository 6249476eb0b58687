// Graceful shutdown: on SIGTERM (or SIGINT, for `gitfn up` in a terminal) stop accepting connections, let the
// requests in flight finish for up to DRAIN_SECONDS, then exit 0.

const DRAIN_SECONDS = 10;

export function drainOnSignals(server, log) {
  let inFlight = 0;
  let draining = false;
  server.on('request', (req, res) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      // Keep-alive connections would otherwise hold server.close() open until they time out.
      if (draining) server.closeIdleConnections();
    });
  });
  const drain = (signal) => {
    if (draining) return;
    draining = true;
    log(`${signal}: no new connections; waiting up to ${DRAIN_SECONDS} s for ${inFlight} request(s) in flight`);
    server.close(() => {
      log('stopped');
      process.exit(0);
    });
    setTimeout(() => {
      log(`stopped with ${inFlight} request(s) still in flight after ${DRAIN_SECONDS} s`);
      process.exit(0);
    }, DRAIN_SECONDS * 1000).unref();
  };
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
}
