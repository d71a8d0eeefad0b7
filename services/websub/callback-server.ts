// The HTTP face of the WebSub callback (websub-callback.ts), served by the poller: GET and POST on
// {base}/websub/{sourceId}, and the process's /metrics. The body of a notification is bounded before
// it is read whole: a hub cannot make the poller hold more than WEBSUB_MAX_BODY_BYTES of it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../runtime/logger.ts';
import { trackUnrequestedConnections } from '../runtime/unrequested-connections.ts';
import type { WebsubCallback } from './websub-callback.ts';
import type { WebsubMetrics } from './websub-metrics.ts';

export interface RunningCallbackServer {
  /** http://host:port of the listening socket. */
  url: string;
  close(): Promise<void>;
}

/** The source id of a callback path; the public base URL may add a prefix a proxy keeps. */
const callbackPath = /(?:^|\/)websub\/([^/?]+)$/;

class TooLarge extends Error {}

async function readBounded(request: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > maxBytes) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new TooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startCallbackServer(options: {
  host: string;
  port: number;
  callback: WebsubCallback;
  maxBodyBytes: number;
  metrics: WebsubMetrics;
  registry: Registry;
  logger: Logger;
}): Promise<RunningCallbackServer> {
  const { callback, logger } = options;
  const send = (
    response: ServerResponse,
    status: number,
    body: string,
    type = 'text/plain; charset=utf-8',
  ) => {
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://callback');
    if (url.pathname === '/metrics' && request.method === 'GET') {
      return send(response, 200, await options.registry.metrics(), options.registry.contentType);
    }
    const match = callbackPath.exec(url.pathname);
    let sourceId: string | null = null;
    try {
      sourceId = match ? decodeURIComponent(match[1]!) : null;
    } catch {
      // a malformed escape: no such source
    }
    if (sourceId === null) return send(response, 404, 'not found\n');
    if (request.method === 'GET') {
      const answer = await callback.verify(sourceId, url.searchParams);
      return send(response, answer.status, answer.body);
    }
    if (request.method === 'POST') {
      let body: Uint8Array;
      try {
        body = await readBounded(request, options.maxBodyBytes);
      } catch (error) {
        if (!(error instanceof TooLarge)) throw error;
        options.metrics.notification('too_large');
        logger.warn(
          { sourceId, maxBytes: options.maxBodyBytes },
          'websub notification refused: body too large',
        );
        response.setHeader('connection', 'close');
        return send(response, 413, `body larger than ${options.maxBodyBytes} bytes\n`);
      }
      const signature = request.headers['x-hub-signature'];
      const answer = await callback.notify(
        sourceId,
        Array.isArray(signature) ? signature[0] : signature,
        request.headers['content-type'] ?? null,
        body,
      );
      return send(response, answer.status, answer.body);
    }
    response.setHeader('allow', 'GET, POST');
    return send(response, 405, 'method not allowed\n');
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Our own failure (Redis, Kafka): 500, so the hub delivers again later.
      logger.error({ err: error, path: request.url?.split('?')[0] }, 'websub callback failed');
      if (!response.headersSent) send(response, 500, 'internal error\n');
      else response.destroy();
    });
  });
  server.requestTimeout = 60_000;
  const unrequested = trackUnrequestedConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        unrequested.close();
      }),
  };
}
