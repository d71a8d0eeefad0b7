// The endpoint every request of the webhook benchmark goes to: node:http on 127.0.0.1, 204 as soon as the
// body has arrived, and of each request only what the figures need: who sent it (its user-agent, so the
// dispatcher under test, the undici baseline and any other dispatcher on the stack are told apart), its
// webhook-id and when it arrived. Nothing is parsed or verified: the receiver must cost as little as
// possible, since it shares the machine with what it measures.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingReceiver {
  /** The URL of `path` on this receiver, e.g. `url('/hooks/3')`. */
  url(path: string): string;
  /** Arrival times (epoch ms) per webhook-id, of the requests sent with this user-agent. */
  arrivals(userAgent: string): ReadonlyMap<string, readonly number[]>;
  /** Distinct webhook-ids received with this user-agent (a cheap progress count). */
  distinctIds(userAgent: string): number;
  /** Requests received per user-agent. */
  requestsByAgent(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/**
 * `host` is the name in the URLs handed out (the server listens on 127.0.0.1 whatever it is): `localhost`
 * has the dispatcher resolve a name for each delivery, as it does for real receivers.
 */
export async function startCountingReceiver(host = '127.0.0.1'): Promise<CountingReceiver> {
  const byAgent = new Map<string, Map<string, number[]>>();
  const counts = new Map<string, number>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume(); // the body is not needed, only its end
    request.once('end', () => {
      const at = Date.now();
      const agent = request.headers['user-agent'] ?? '';
      const id = request.headers['webhook-id'];
      counts.set(agent, (counts.get(agent) ?? 0) + 1);
      if (typeof id === 'string') {
        let ids = byAgent.get(agent);
        if (!ids) byAgent.set(agent, (ids = new Map<string, number[]>()));
        const times = ids.get(id);
        if (times) times.push(at);
        else ids.set(id, [at]);
      }
      response.writeHead(204).end();
    });
  });
  // Connections outlive node's default 5 s of idleness: the dispatcher under test is frozen (SIGSTOP) for
  // as long as its backlog takes to append, and must find its connections open when it is thawed.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path) => `http://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`,
    arrivals: (userAgent) => byAgent.get(userAgent) ?? new Map<string, number[]>(),
    distinctIds: (userAgent) => byAgent.get(userAgent)?.size ?? 0,
    requestsByAgent: () => counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
