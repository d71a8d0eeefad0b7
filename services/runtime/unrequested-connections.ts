// Connections that never carried a request: a browser's speculative preconnect, a client that opened
// one and went away, an HTTP client reconnecting once it aborted a request (undici does). Node's
// server.close() waits for them: closeIdleConnections() closes only connections between two requests,
// and close() stops the check that times out a request's headers, so the API's stop waited until the
// socket's idle timeout (API_IDLE_TIMEOUT_MS, 60 s) ran out, past the process's grace period (30 s),
// and the process then exited as failed; the WebSub callback server's, for ever (it sets no idle
// timeout). Closing them loses nothing: no request of theirs has been read.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface UnrequestedConnections {
  /** Destroys every connection on which no request has arrived yet. */
  close(): void;
}

export function trackUnrequestedConnections(server: Server): UnrequestedConnections {
  const waiting = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  server.on('request', (request: { socket: Socket }) => waiting.delete(request.socket));
  return {
    close() {
      for (const socket of waiting) socket.destroy();
      waiting.clear();
    },
  };
}
