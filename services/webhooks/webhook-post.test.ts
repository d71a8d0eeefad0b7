import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/support/http-test-servers.ts';
import { sendWebhookPost, type AbortPost, type WebhookPost } from './webhook-post.ts';

const servers: TestServer[] = [];
const agent = new Agent();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function post(
  handler: Parameters<typeof startServer>[0],
  overrides: Partial<WebhookPost> = {},
  abortable: (abort: AbortPost) => void = () => {},
) {
  const server = await startServer(handler);
  servers.push(server);
  const url = new URL(server.at('127.0.0.1'));
  return sendWebhookPost(
    agent,
    { origin: url.origin, path: url.pathname, headers: {}, body: '{}', maxResponseBytes: 1024, ...overrides },
    abortable,
  );
}

describe('sendWebhookPost', () => {
  it('gives the status and the first value of a header, whatever the case it was sent in', async () => {
    const answer = await post((_request, response) => {
      response.writeHead(503, [
        ['Retry-After', '120'],
        ['retry-after', '5'],
      ]);
      response.end('busy');
    });
    expect(answer.status).toBe(503);
    expect(answer.header('retry-after')).toBe('120');
    expect(answer.header('location')).toBeUndefined();
  });

  it('keeps the status when the body is cut at the cap', async () => {
    const answer = await post(
      (_request, response) => {
        response.writeHead(200);
        response.end(Buffer.alloc(64 * 1024, 'x'));
      },
      { maxResponseBytes: 100 },
    );
    expect(answer.status).toBe(200);
  });

  it('rejects with the reason when aborted before the answer came', async () => {
    let abort!: AbortPost;
    const waiting = post(
      () => undefined,
      {},
      (a) => (abort = a),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
  });
});
