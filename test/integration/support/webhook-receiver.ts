// A webhook endpoint for the integration suites: a real HTTP server on 127.0.0.1 (ephemeral port) that
// records every request (headers, raw body, arrival time) and answers each path according to a script:
// succeed, fail N times then succeed, always fail, 410 Gone, answer slowly, or hold the request open
// until the test releases it (or the sender dies).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body exactly as received (what the signature covers). */
  body: string;
  /** Epoch ms when the whole body had arrived. */
  receivedAt: number;
  /** How the request ended: answered with a status, or closed by the sender before an answer. */
  answered: number | 'closed' | null;
}

/** What to do with one request: answer (optionally after a delay), or hold it until released. */
export type Answer =
  { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } | { hold: true };

/** Chooses the answer for the `n`-th request (1-based) to a path. */
export type Script = (n: number, request: ReceivedRequest) => Answer;

export const scripts = {
  ok:
    (status = 200): Script =>
    () => ({ status }),
  /** Fails `times` times with `status`, then answers 200. */
  failTimes:
    (times: number, status = 500): Script =>
    (n) => ({ status: n <= times ? status : 200 }),
  /** Answers the first request `status` with a Retry-After header, the later ones 200. */
  retryAfter:
    (status: number, retryAfter: string): Script =>
    (n) =>
      n === 1 ? { status, headers: { 'retry-after': retryAfter } } : { status: 200 },
  always:
    (status: number): Script =>
    () => ({ status }),
  gone: (): Script => () => ({ status: 410 }),
  slow:
    (delayMs: number, status = 200): Script =>
    () => ({ status, delayMs }),
  /** Holds the first `times` requests open, answers the later ones 200. */
  holdFirst:
    (times = 1): Script =>
    (n) =>
      n <= times ? { hold: true } : { status: 200 },
};

export interface WebhookReceiver {
  /** The URL of `path` on this receiver, e.g. `url('/hooks/a')`. */
  url(path: string): string;
  /** Sets the script of a path (default: answer 200). */
  script(path: string, script: Script): void;
  /** Requests received so far, in arrival order; only those to `path` if given. */
  requests(path?: string): ReceivedRequest[];
  /** Requests currently held open. */
  held(): ReceivedRequest[];
  /** Answers every held request with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const scriptsByPath = new Map<string, Script>();
  const counts = new Map<string, number>();
  const received: ReceivedRequest[] = [];
  const holding = new Map<ReceivedRequest, ServerResponse>();

  const answer = (
    request: ReceivedRequest,
    response: ServerResponse,
    status: number,
    body = '',
    headers: Record<string, string> = {},
  ) => {
    if (response.writableEnded || request.answered === 'closed') return;
    request.answered = status;
    response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = new URL(incoming.url ?? '/', 'http://receiver').pathname;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        answered: null,
      };
      received.push(request);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      response.on('close', () => {
        holding.delete(request);
        if (request.answered === null) request.answered = 'closed';
      });
      const decided = (scriptsByPath.get(path) ?? scripts.ok())(n, request);
      if ('hold' in decided) {
        holding.set(request, response);
      } else if (decided.delayMs) {
        setTimeout(
          () => answer(request, response, decided.status, decided.body, decided.headers),
          decided.delayMs,
        );
      } else {
        answer(request, response, decided.status, decided.body, decided.headers);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path) => `http://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`,
    script: (path, script) => scriptsByPath.set(path, script),
    requests: (path) => received.filter((r) => path === undefined || r.path === path),
    held: () => [...holding.keys()],
    release: (status = 200) => {
      for (const [request, response] of holding) answer(request, response, status);
      holding.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
