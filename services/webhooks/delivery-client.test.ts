import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { refusingPort, deferred, startServer, testLookup } from '../../test/support/http-test-servers.ts';
import type { TestServer } from '../../test/support/http-test-servers.ts';
import { createOutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { createDeliveryClient } from './delivery-client.ts';
import type { DeliveryClient, DeliveryClientOptions } from './delivery-client.ts';
import { signatureHeaders } from './signing.ts';

const body = JSON.stringify({ type: 'news.alert', data: { alert_id: 'al_1' } });
const headers = {
  ...signatureHeaders({ id: 'msg_1', timestamp: new Date(), body }, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
};

const servers: TestServer[] = [];
const clients: DeliveryClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

/** A client that may reach 127.0.0.1 (allow-listed, as tests and the demo do) and `*.test` names. */
function client(overrides: Partial<DeliveryClientOptions> = {}): DeliveryClient {
  const c = createDeliveryClient({
    policy: createOutboundUrlPolicy({ allow: ['127.0.0.1'], lookup: testLookup() }),
    connectTimeoutMs: 1_000,
    totalTimeoutMs: 2_000,
    maxResponseBytes: 4 * 1024,
    userAgent: 'news-intelligence-webhooks/test',
    ...overrides,
  });
  clients.push(c);
  return c;
}

function readText(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

const answer = (status: number, extra: Record<string, string> = {}) =>
  server((_request, response) => {
    response.writeHead(status, extra);
    response.end(status === 204 ? undefined : 'ok');
  });

describe('createDeliveryClient', () => {
  it('POSTs the exact body with the JSON content type, user agent and signature headers', async () => {
    const received = deferred<string>();
    const receiver = await server((request, response) => {
      void readText(request).then((text) => {
        received.resolve(text);
        response.end('thanks');
      });
    });
    const outcome = await client().deliver({ url: `${receiver.at('127.0.0.1')}/hooks?x=1`, headers, body });
    expect(outcome).toMatchObject({ kind: 'delivered', status: 200 });
    expect(await received.promise).toBe(body);
    const request = receiver.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks?x=1');
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'news-intelligence-webhooks/test',
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it.each([200, 204])('counts HTTP %i as delivered', async (status) => {
    const receiver = await answer(status);
    const outcome = await client().deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toEqual({ kind: 'delivered', status, durationMs: expect.any(Number) as number });
  });

  it('reports 410 as gone (the receiver asks to be disabled)', async () => {
    const receiver = await answer(410);
    const outcome = await client().deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toEqual({ kind: 'gone', status: 410, durationMs: expect.any(Number) as number });
  });

  it('reports 500 as a retryable failure', async () => {
    const receiver = await answer(500);
    const outcome = await client().deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toMatchObject({ kind: 'failed', status: 500, error: 'HTTP 500', retryable: true });
  });

  it('passes a Retry-After on a failure on as sent, for the retry plan to read', async () => {
    const receiver = await answer(503, { 'retry-after': '120' });
    const outcome = await client().deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toMatchObject({ kind: 'failed', status: 503, error: 'HTTP 503', retryAfter: '120' });
    const plain = await answer(500);
    expect(await client().deliver({ url: plain.at('127.0.0.1'), headers, body })).not.toHaveProperty(
      'retryAfter',
    );
  });

  it.each([301, 302, 307, 308])('does not follow a %i: the target sees no request', async (status) => {
    const target = await answer(200);
    const receiver = await answer(status, { location: `${target.at('elsewhere.test')}/secret?token=t` });
    const outcome = await client().deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status,
      error: `redirect not followed (HTTP ${status} to elsewhere.test:${target.port})`,
    });
    expect(receiver.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it('gives up waiting for headers at the total timeout, retryably', async () => {
    const receiver = await server(() => undefined); // never answers
    const outcome = await client({ totalTimeoutMs: 200 }).deliver({
      url: receiver.at('127.0.0.1'),
      headers,
      body,
    });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status: null,
      error: 'timeout after 200 ms',
      retryable: true,
    });
    if (outcome.kind !== 'failed') throw new Error('unreachable');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('reads an endless response body only up to the cap, then drops the connection', async () => {
    const dropped = deferred();
    const receiver = await server((_request, response) => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.on('close', () => dropped.resolve());
      response.on('error', () => undefined);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
    });
    // A total timeout far beyond the test's own: only the byte cap can end this delivery in time.
    const outcome = await client({ totalTimeoutMs: 60_000, maxResponseBytes: 1024 }).deliver({
      url: receiver.at('127.0.0.1'),
      headers,
      body,
    });
    expect(outcome).toMatchObject({ kind: 'delivered', status: 200 });
    await dropped.promise;
  });

  it('reports a refused connection as a retryable failure', async () => {
    const port = await refusingPort();
    const outcome = await client().deliver({ url: `http://127.0.0.1:${port}/`, headers, body });
    expect(outcome).toMatchObject({
      kind: 'failed',
      status: null,
      error: `connection refused by 127.0.0.1:${port}`,
      retryable: true,
    });
  });

  it('refuses a loopback URL that is not allow-listed, for good, without connecting', async () => {
    const receiver = await answer(200);
    const strict = client({ policy: createOutboundUrlPolicy({ allow: [] }) });
    const outcome = await strict.deliver({ url: receiver.at('127.0.0.1'), headers, body });
    expect(outcome).toMatchObject({ kind: 'failed', status: null, retryable: false });
    if (outcome.kind !== 'failed') throw new Error('unreachable');
    expect(outcome.error).toBe('refused: 127.0.0.1 is a loopback address, which is not allowed');
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a name resolving to a private address, and connects to the approved answer otherwise', async () => {
    const receiver = await answer(200);
    // hooks.test exists only in the policy's DNS: reaching it proves the connect used the checked answer.
    const outcome = await client().deliver({ url: `${receiver.at('hooks.test')}/in`, headers, body });
    expect(outcome).toMatchObject({ kind: 'delivered', status: 200 });

    const strict = client({ policy: createOutboundUrlPolicy({ allow: [], lookup: testLookup() }) });
    const refused = await strict.deliver({ url: receiver.at('hooks.test'), headers, body });
    expect(refused).toMatchObject({ kind: 'failed', retryable: false });
    expect(receiver.requests).toHaveLength(1);
  });

  it('treats an unresolvable host as retryable and a non-URL as final', async () => {
    const unresolved = await client().deliver({ url: 'http://no-such-host.invalid/', headers, body });
    expect(unresolved).toMatchObject({ kind: 'failed', status: null, retryable: true });
    if (unresolved.kind !== 'failed') throw new Error('unreachable');
    expect(unresolved.error).toMatch(/could not resolve no-such-host\.invalid/);

    const invalid = await client().deliver({ url: 'not a url', headers, body });
    expect(invalid).toMatchObject({
      kind: 'failed',
      status: null,
      retryable: false,
      error: 'invalid webhook URL',
    });
  });

  it('refuses settings that would disable a bound', () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
    expect(() => client({ totalTimeoutMs: Number.POSITIVE_INFINITY })).toThrow(/totalTimeoutMs/);
  });
});
