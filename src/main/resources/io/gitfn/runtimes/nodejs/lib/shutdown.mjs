// Graceful shutdown: on SIGTERM (or SIGINT, for `gitfn up` in a terminal) stop accepting connections, let the
// requests in flight finish for up to DRAIN_SECONDS, then exit 0.
import net from 'node:net';

const DRAIN_SECONDS = 10;
// How long a kept-alive connection may stay idle once draining before it is closed. Closing a connection the moment
// it goes idle races with its client, which may already have sent the next request on it: that request gets no
// answer at all. A client that keeps sending gets its next answer with `Connection: close` instead, and opens its
// next connection elsewhere; one idle for this long takes the same chance as at any server's keep-alive timeout.
const IDLE_GRACE_MS = 1000;

export function drainOnSignals(server, log) {
  const inFlight = new Set(); // the responses not finished yet
  let draining = false;
  // Every open connection, with the number of requests it has in flight and whether it ever sent one.
  // Node's closeIdleConnections() only knows connections that have sent a request: one that connected and said
  // nothing (a proxy's spare, a health checker) would keep the process alive for the whole drain time.
  const connections = new Map();
  server.on('connection', (socket) => {
    connections.set(socket, { requests: 0, served: false, idleTimer: null });
    socket.on('close', () => {
      clearTimeout(connections.get(socket)?.idleTimer);
      connections.delete(socket);
    });
  });
  // Before the app's own listener, so that the header is set before any handler can send its answer.
  server.prependListener('request', (req, res) => {
    inFlight.add(res);
    const state = connections.get(req.socket);
    if (state) {
      state.requests++;
      state.served = true;
      clearTimeout(state.idleTimer);
    }
    if (draining) res.setHeader('Connection', 'close');
    res.on('close', () => {
      inFlight.delete(res);
      if (!state) return;
      state.requests--;
      if (draining) closeWhenIdle(req.socket, state);
    });
  });
  const closeWhenIdle = (socket, state) => {
    if (state.requests > 0) return;
    if (!state.served) {
      socket.destroy(); // never sent a request: nothing can be on its way
      return;
    }
    clearTimeout(state.idleTimer);
    state.idleTimer = setTimeout(() => {
      if (state.requests === 0) socket.destroy();
    }, IDLE_GRACE_MS);
  };
  const drain = (signal) => {
    if (draining) return;
    draining = true;
    log(`${signal}: no new connections; waiting up to ${DRAIN_SECONDS} s for ${inFlight.size} request(s) in flight`);
    // The answers in flight say `Connection: close`, if they have not started yet.
    for (const res of inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    // net.Server's close, not http.Server's: since Node 19 the latter also closes idle connections at once, which
    // is the race IDLE_GRACE_MS avoids. This one stops listening and calls back when the last connection closed.
    net.Server.prototype.close.call(server, () => {
      log('stopped');
      process.exit(0);
    });
    for (const [socket, state] of connections) closeWhenIdle(socket, state);
    setTimeout(() => {
      log(`stopped with ${inFlight.size} request(s) still in flight after ${DRAIN_SECONDS} s`);
      process.exit(0);
    }, DRAIN_SECONDS * 1000).unref();
  };
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
}
