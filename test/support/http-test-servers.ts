// Real HTTP servers on 127.0.0.1 for the fetcher's tests, and a DNS stand-in that makes made-up public
// names (feeds.test) resolve to them. Not a test file itself: vitest only collects *.test.ts.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { HostLookup } from '../../services/runtime/outbound/outbound-url.ts';

export interface TestServer {
  port: number;
  /** Base URL under a given host name, e.g. `at('feeds.test')` = `http://feeds.test:PORT`. */
  at(hostname: string): string;
  /** Every request seen, in arrival order. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    at: (hostname) => `http://${hostname}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A port on 127.0.0.1 that refuses connections, for "nothing listens there". Not a port just closed:
 * on a busy machine another test file's server can be handed that port again between the close and
 * the connect, and the test then talks to it (CI saw a 401 from a stranger). Port 1 (tcpmux) is
 * privileged and below the ephemeral range, so no server started on port 0 can get it; the connect
 * below proves nothing serves it here.
 */
export async function refusingPort(): Promise<number> {
  const port = 1;
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
  if (!refused) throw new Error(`something listens on 127.0.0.1:${port}; the refusal tests need it free`);
  return port;
}

/** `refusingPort()` as a base URL. */
export async function refusingUrl(path = ''): Promise<string> {
  return `http://127.0.0.1:${await refusingPort()}${path}`;
}

/** Resolves every `*.test` name to 127.0.0.1 and fails like DNS for anything else; counts its calls. */
export function testLookup(): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 as const }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  return Object.assign(lookup, { calls });
}

/** A promise with its resolve function outside, for "wait until the server saw X". */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
