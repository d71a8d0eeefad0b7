// The customers' webhook endpoint of a chaos run: a real HTTP server on 127.0.0.1 that answers most
// deliveries 204 but, chosen by the run's seeded generator, some 500, some never (it holds the request
// past the dispatcher's timeout, then drops it) and some by closing the connection without an answer.
// Every request is recorded with its webhook-id and whether its signature verifies with the monitor's
// secret, which is what the ledger counts deliveries by.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../support/webhook-receiver.ts';

export type FlakyAnswer = 204 | 500 | 'timeout' | 'closed';

export interface Delivery {
  path: string;
  webhookId: string;
  /** The signature verified against the path's secret (false also when no secret is known for it). */
  verified: boolean;
  answer: FlakyAnswer;
  /** The alert's article URL (data.article_url), if the body was a news.alert. */
  articleUrl: string | null;
  receivedAt: number;
}

export interface FlakyReceiver {
  url(path: string): string;
  /** The signing secret of the webhook at `path` (the monitor's, shown once when it was created). */
  setSecret(path: string, secret: string): void;
  readonly deliveries: readonly Delivery[];
  close(): Promise<void>;
}

export interface FlakyShares {
  /** Of all requests: answered 500, held until the sender gives up, closed without an answer. */
  error: number;
  timeout: number;
  closed: number;
}

export async function startFlakyReceiver(options: {
  random: () => number;
  shares: FlakyShares;
  /** How long a "timeout" request is held: longer than the dispatcher waits. */
  holdMs: number;
}): Promise<FlakyReceiver> {
  const { random, shares, holdMs } = options;
  const secrets = new Map<string, string>();
  const deliveries: Delivery[] = [];
  const held = new Set<ServerResponse>();

  const choose = (): FlakyAnswer => {
    const r = random();
    if (r < shares.error) return 500;
    if (r < shares.error + shares.timeout) return 'timeout';
    if (r < shares.error + shares.timeout + shares.closed) return 'closed';
    return 204;
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = new URL(incoming.url ?? '/', 'http://receiver').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      const receivedAt = Date.now();
      const secret = secrets.get(path);
      const headers = incoming.headers as Record<string, string | undefined>;
      const verified =
        secret !== undefined && verifySignature({ headers, body }, secret, { now: new Date(receivedAt) }).ok;
      let articleUrl: string | null = null;
      try {
        const parsed = JSON.parse(body) as { data?: { article_url?: unknown } };
        if (typeof parsed.data?.article_url === 'string') articleUrl = parsed.data.article_url;
      } catch {
        // not JSON: recorded, and counted as nothing
      }
      const answer = choose();
      deliveries.push({
        path,
        webhookId: headers['webhook-id'] ?? '',
        verified,
        answer,
        articleUrl,
        receivedAt,
      });
      if (answer === 'closed') return void incoming.socket.destroy();
      if (answer === 'timeout') {
        held.add(response);
        setTimeout(() => {
          held.delete(response);
          incoming.socket.destroy();
        }, holdMs).unref();
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
