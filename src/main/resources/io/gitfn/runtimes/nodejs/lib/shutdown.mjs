// Graceful shutdown: on SIGTERM (or SIGINT, for `gitfn up` in a terminal) stop accepting connections, let the
// requests in flight finish for up to DRAIN_SECONDS, then exit 0.

const DRAIN_SECONDS = 10;

export function drainOnSignals(server, log) {
  let inFlight = 0;
  let draining = false;
  // Every open connection, with the number of requests it has in flight. A connection with none holds
  // server.close() open until it times out, and Node's closeIdleConnections() only knows connections that have
  // sent a request: one that connected and said nothing (a proxy's spare, a health checker) would keep the
  // process alive for the whole drain time.
  const connections = new Map();
  server.on('connection', (socket) => {
    connections.set(socket, 0);
    socket.on('close', () => connections.delete(socket));
  });
  server.on('request', (req, res) => {
    inFlight++;
    const socket = req.socket;
    connections.set(socket, (connections.get(socket) ?? 0) + 1);
    res.on('close', () => {
      inFlight--;
      if (connections.has(socket)) connections.set(socket, connections.get(socket) - 1);
      if (draining) closeIdle();
    });
  });
  const closeIdle = () => {
    server.closeIdleConnections();
    for (const [socket, requests] of connections) {
      if (requests === 0) socket.destroy();
    }
  };
  const drain = (signal) => {
    if (draining) return;
    draining = true;
    log(`${signal}: no new connections; waiting up to ${DRAIN_SECONDS} s for ${inFlight} request(s) in flight`);
    server.close(() => {
      log('stopped');
      process.exit(0);
    });
    closeIdle();
    setTimeout(() => {
      log(`stopped with ${inFlight} request(s) still in flight after ${DRAIN_SECONDS} s`);
      process.exit(0);
    }, DRAIN_SECONDS * 1000).unref();
  };
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
}
