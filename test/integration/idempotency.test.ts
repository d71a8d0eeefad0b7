// Idempotency-Key on the real API, Redis, Kafka and ClickHouse: a retry gets the first answer again and
// does nothing twice; another request with the key is refused (422), one at the same time waits (409);
// failures that are not the request's (5xx, 401, 409) are not kept; keys are per client; the answers
// kept in Redis are sealed (a registration's answer holds the webhook secret); and with Redis away a
// request with a key is refused (503) rather than run unprotected.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../api-client/schema.d.ts';
import { loadApiConfig } from '../../services/api/config.ts';
import { startApi, type RunningApi } from '../../services/api/server.ts';
import { startApiStack, type ApiStack, type ErrorAnswer } from './support/api-stack.ts';
import { stack as infrastructure, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type WebhookList = components['schemas']['WebhookList'];
type SecretRotated = components['schemas']['WebhookSecretRotated'];
type Documentary = components['schemas']['Documentary'];
type DocumentaryList = components['schemas']['DocumentaryList'];

interface Sent<T> {
  status: number;
  bytes: Buffer;
  body: T;
  headers: Headers;
}

describe('Idempotency-Key', () => {
  let stack: ApiStack;
  let redis: Redis;
  let run: string;
  const prefix = `test:idempotency:${randomUUID().slice(0, 8)}:`;
  const extraApis: RunningApi[] = [];
  const hook = (name: string) => `http://127.0.0.1:9/${run}/${name}`;
  const newKey = () => randomUUID();

  beforeAll(async () => {
    stack = await startApiStack('idempotency', { REDIS_KEY_PREFIX: prefix });
    run = stack.run;
    redis = new Redis(infrastructure.REDIS_URL);
  }, 120_000);

  afterAll(async () => {
    for (const api of extraApis) await api.close().catch(() => undefined);
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await stack?.close();
  }, 60_000);

  /** Another API process on the same stack, changed by `env` (another database, an unreachable Redis). */
  const anotherApi = async (env: Record<string, string>) => {
    const config = loadApiConfig({
      ...process.env,
      PORT: '0',
      CLICKHOUSE_DATABASE: stack.database,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      REDIS_KEY_PREFIX: prefix,
      ...env,
    });
    const api = await startApi(config, testLogger);
    extraApis.push(api);
    return api;
  };

  const send = async <T = ErrorAnswer>(
    method: string,
    path: string,
    body: unknown,
    options: { key?: string; apiKey?: string | null; url?: string } = {},
  ): Promise<Sent<T>> => {
    const apiKey = options.apiKey === undefined ? stack.client.apiKey : options.apiKey;
    const response = await fetch(`${options.url ?? stack.api.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
        ...(options.key === undefined ? {} : { 'idempotency-key': options.key }),
      },
      body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    return {
      status: response.status,
      bytes,
      body: (text ? JSON.parse(text) : undefined) as T,
      headers: response.headers,
    };
  };

  const webhooksAt = async (url: string, apiKey = stack.client.apiKey) => {
    const list = await send<WebhookList>('GET', '/api/v1/webhooks?limit=100', undefined, { apiKey });
    expect(list.status).toBe(200);
    return list.body.webhooks.filter((w) => w.url === url);
  };

  /** Every Idempotency-Key record of this run, as Redis holds it. */
  const storedRecords = async () => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}idempotency:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    return Promise.all(keys.map(async (key) => ({ key, value: (await redis.get(key)) ?? '' })));
  };

  it('replays the first answer byte for byte to a retry, and registers one webhook', async () => {
    const key = newKey();
    const body = { url: hook('replay'), events: ['news.alert', 'article.published'] };
    const first = await send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key });
    expect(first.status, first.bytes.toString()).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.bytes.equals(first.bytes)).toBe(true);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    // The same JSON written another way is the same request.
    const reordered = `{ "events": ["news.alert", "article.published"],\n  "url": "${hook('replay')}" }`;
    const again = await send<WebhookCreated>('POST', '/api/v1/webhooks', reordered, { key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.webhook.id).toBe(first.body.webhook.id);

    expect((await webhooksAt(hook('replay'))).map((w) => w.id)).toEqual([first.body.webhook.id]);
  });

  it('answers 422 idempotency_key_reused for the key with another body or another path, and does nothing', async () => {
    const key = newKey();
    const first = await send<WebhookCreated>(
      'POST',
      '/api/v1/webhooks',
      { url: hook('reused'), events: ['documentary.ready'] },
      { key },
    );
    expect(first.status).toBe(201);
    const other = await send(
      'POST',
      '/api/v1/webhooks',
      { url: hook('reused-other'), events: ['documentary.ready'] },
      { key },
    );
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(other.body.error.message).toMatch(/Idempotency-Key was used for a different request/);
    expect(await webhooksAt(hook('reused-other'))).toEqual([]);

    // One route, another resource: a different request too.
    const a = await send<WebhookCreated>(
      'POST',
      '/api/v1/webhooks',
      { url: hook('rotate-a'), events: ['documentary.ready'] },
      {},
    );
    const rotateKey = newKey();
    const path = (id: string) => `/api/v1/webhooks/${id}/secret/rotate`;
    expect((await send('POST', path(a.body.webhook.id), {}, { key: rotateKey })).status).toBe(200);
    const elsewhere = await send('POST', path(first.body.webhook.id), {}, { key: rotateKey });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.code).toBe('idempotency_key_reused');
  });

  it('refuses a malformed key with 400 naming the header, before doing anything', async () => {
    const body = { url: hook('malformed'), events: ['documentary.ready'] };
    for (const [key, problem] of [
      ['k'.repeat(256), /^Idempotency-Key: header must be at most 255 characters/],
      ['clé', /^Idempotency-Key: header must be printable ASCII/],
    ] as const) {
      const answer = await send('POST', '/api/v1/webhooks', body, { key });
      expect(answer.status, key).toBe(400);
      expect(answer.body.error.code).toBe('invalid_parameter');
      expect(answer.body.error.message).toMatch(problem);
    }
    expect(await webhooksAt(hook('malformed'))).toEqual([]);
  });

  it('runs one of two requests sent at once with the same key; the other gets 409 or the replay', async () => {
    const key = newKey();
    const body = { url: hook('concurrent'), events: ['documentary.ready'] };
    const answers = await Promise.all([
      send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key }),
      send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key }),
    ]);
    const ran = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(ran).toHaveLength(1);
    const other = answers.find((a) => a !== ran[0])!;
    if (other.status === 409) {
      expect((other.body as unknown as ErrorAnswer).error.code).toBe('idempotency_key_in_progress');
      expect(other.headers.get('retry-after')).toMatch(/^\d+$/);
    } else {
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBe('true');
      expect(other.bytes.equals(ran[0]!.bytes)).toBe(true);
    }
    expect((await webhooksAt(hook('concurrent'))).map((w) => w.id)).toEqual([ran[0]!.body.webhook.id]);
  });

  it('keeps keys per client: two tenants with the same key each get their own webhook', async () => {
    const key = newKey();
    const body = { url: hook('tenants'), events: ['documentary.ready'] };
    const mine = await send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key });
    const theirs = await send<WebhookCreated>('POST', '/api/v1/webhooks', body, {
      key,
      apiKey: stack.otherClient.apiKey,
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.webhook.id).not.toBe(mine.body.webhook.id);
    expect(theirs.body.secret).not.toBe(mine.body.secret);
    expect((await webhooksAt(hook('tenants'))).map((w) => w.id)).toEqual([mine.body.webhook.id]);
    expect((await webhooksAt(hook('tenants'), stack.otherClient.apiKey)).map((w) => w.id)).toEqual([
      theirs.body.webhook.id,
    ]);
    // Each retry gets its own client's answer.
    const theirRetry = await send('POST', '/api/v1/webhooks', body, {
      key,
      apiKey: stack.otherClient.apiKey,
    });
    expect(theirRetry.headers.get('idempotent-replayed')).toBe('true');
    expect(theirRetry.bytes.equals(theirs.bytes)).toBe(true);
    const myRetry = await send('POST', '/api/v1/webhooks', body, { key });
    expect(myRetry.bytes.equals(mine.bytes)).toBe(true);
  });

  it('does not keep a 401: the same key with a valid credential runs', async () => {
    const key = newKey();
    const body = { url: hook('unauthorized'), events: ['documentary.ready'] };
    const refused = await send('POST', '/api/v1/webhooks', body, { key, apiKey: 'nik_not-a-key' });
    expect(refused.status).toBe(401);
    const accepted = await send<WebhookCreated>('POST', '/api/v1/webhooks', body, { key });
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('idempotent-replayed')).toBeNull();
    const retried = await send('POST', '/api/v1/webhooks', body, { key });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await webhooksAt(hook('unauthorized'))).toHaveLength(1);
  });

  it("keeps a 404 (a property of the request) but not a 409 (the webhook's state, which changes)", async () => {
    const missing = newKey();
    const first = await send('POST', '/api/v1/webhooks/wh_missing/test', undefined, { key: missing });
    expect(first.status).toBe(404);
    const again = await send('POST', '/api/v1/webhooks/wh_missing/test', undefined, { key: missing });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.bytes.equals(first.bytes)).toBe(true);

    const created = await send<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('paused'),
      events: ['documentary.ready'],
    });
    const id = created.body.webhook.id;
    expect((await send('PATCH', `/api/v1/webhooks/${id}`, { active: false })).status).toBe(200);
    const key = newKey();
    const paused = await send('POST', `/api/v1/webhooks/${id}/test`, undefined, { key });
    expect(paused.status).toBe(409);
    expect(paused.body.error.code).toBe('conflict');
    expect((await send('PATCH', `/api/v1/webhooks/${id}`, { active: true })).status).toBe(200);
    const resumed = await send('POST', `/api/v1/webhooks/${id}/test`, undefined, { key });
    expect(resumed.status).toBe(202);
    expect(resumed.headers.get('idempotent-replayed')).toBeNull();
    const retried = await send('POST', `/api/v1/webhooks/${id}/test`, undefined, { key });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not keep a 400 about what the request met: a feed that could not be read, a source not yet added', async () => {
    const feedKey = newKey();
    // Nothing listens on port 9: the feed cannot be read now, and may be at the retry.
    const source = {
      url: `http://127.0.0.1:9/${run}/feed.xml`,
      category: 'general',
      language: 'en',
      country: 'gb',
    };
    const unread = await send('POST', '/v1/sources', source, { key: feedKey });
    expect([unread.status, unread.body.error.message], unread.bytes.toString()).toEqual([
      400,
      expect.stringMatching(/^url: could not be read as a feed/) as unknown,
    ]);
    const unreadAgain = await send('POST', '/v1/sources', source, { key: feedKey });
    expect(unreadAgain.status).toBe(400);
    expect(unreadAgain.headers.get('idempotent-replayed')).toBeNull();

    const hookKey = newKey();
    const filtered = {
      url: hook('filtered'),
      events: ['article.published'],
      filter: { source_ids: [`not yet added ${run}`] },
    };
    const unknown = await send('POST', '/api/v1/webhooks', filtered, { key: hookKey });
    expect(unknown.status, unknown.bytes.toString()).toBe(400);
    const unknownAgain = await send('POST', '/api/v1/webhooks', filtered, { key: hookKey });
    expect(unknownAgain.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not keep a 5xx: a retry runs again', async () => {
    const created = await send<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('failing'),
      events: ['documentary.ready'],
    });
    const path = `/api/v1/webhooks/${created.body.webhook.id}/test`;
    // An API whose database has no tables: its handlers fail with a 5xx after the key is claimed.
    const broken = await anotherApi({ CLICKHOUSE_DATABASE: `${stack.database}_bare` });
    try {
      const key = newKey();
      const failed = await send('POST', path, undefined, { key, url: broken.url });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const failedAgain = await send('POST', path, undefined, { key, url: broken.url });
      expect(failedAgain.status).toBeGreaterThanOrEqual(500);
      expect(failedAgain.headers.get('idempotent-replayed')).toBeNull();
      const retried = await send<{ delivery_id: string }>('POST', path, undefined, { key });
      expect(retried.status).toBe(202);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      const replayed = await send<{ delivery_id: string }>('POST', path, undefined, { key });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.delivery_id).toBe(retried.body.delivery_id);
    } finally {
      await stack.clickhouse.command(`DROP DATABASE IF EXISTS ${stack.database}_bare`);
    }
  });

  it('replays a documentary request without starting a second documentary', async () => {
    const key = newKey();
    const topic = `idempotent documentary ${run}`;
    const first = await send<Documentary>('POST', '/api/v1/documentaries', { topic }, { key });
    expect(first.status, first.bytes.toString()).toBe(202);
    const retry = await send<Documentary>('POST', '/api/v1/documentaries', { topic }, { key });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(`/api/v1/documentaries/${first.body.id}`);
    expect(retry.bytes.equals(first.bytes)).toBe(true);
    const list = await send<DocumentaryList>('GET', '/api/v1/documentaries?limit=100', undefined);
    expect(list.body.documentaries.filter((d) => d.topic === topic).map((d) => d.id)).toEqual([
      first.body.id,
    ]);
  });

  it('keeps the answer of a request that ended after its deadline: a retry gets it, nothing runs twice', async () => {
    // 100 ms is less than a documentary request takes to become visible: the API answers 503
    // deadline_exceeded while the request goes on.
    const hurried = await anotherApi({ API_REQUEST_DEADLINE_MS: '100' });
    const key = newKey();
    const topic = `late documentary ${run}`;
    const first = await send<Documentary>(
      'POST',
      '/api/v1/documentaries',
      { topic },
      { key, url: hurried.url },
    );
    expect([202, 503], first.bytes.toString()).toContain(first.status);
    let retry: Sent<Documentary> | undefined;
    await waitFor(async () => {
      retry = await send<Documentary>('POST', '/api/v1/documentaries', { topic }, { key });
      return retry.status !== 409;
    }, 'the first request to end');
    expect(retry!.status, retry!.bytes.toString()).toBe(202);
    expect(retry!.headers.get('idempotent-replayed')).toBe('true');
    const list = await send<DocumentaryList>('GET', '/api/v1/documentaries?limit=100', undefined);
    expect(list.body.documentaries.filter((d) => d.topic === topic).map((d) => d.id)).toEqual([
      retry!.body.id,
    ]);
  });

  it('keeps no webhook secret in clear in Redis: the stored answers are sealed', async () => {
    const key = newKey();
    const created = await send<WebhookCreated>(
      'POST',
      '/api/v1/webhooks',
      { url: hook('sealed'), events: ['documentary.ready'] },
      { key },
    );
    expect(created.status).toBe(201);
    const rotateKey = newKey();
    const path = `/api/v1/webhooks/${created.body.webhook.id}/secret/rotate`;
    const rotated = await send<SecretRotated>('POST', path, {}, { key: rotateKey });
    expect(rotated.status).toBe(200);
    const replayed = await send<SecretRotated>('POST', path, {}, { key: rotateKey });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('cache-control')).toBe('no-store');
    expect(replayed.body.secret).toBe(rotated.body.secret);

    const records = await storedRecords();
    expect(records.length).toBeGreaterThanOrEqual(2);
    const secrets = [created.body.secret, rotated.body.secret];
    const inClear = [
      ...secrets,
      ...secrets.map((s) => s.slice('whsec_'.length)),
      ...secrets.map((s) => Buffer.from(s).toString('base64')),
      hook('sealed'),
      created.body.webhook.id,
    ];
    for (const { key: name, value } of records) {
      expect(name).not.toContain(key);
      expect(value).toMatch(/^sb1:/);
      for (const text of inClear) expect(value).not.toContain(text);
    }
  });

  it('answers 503 to a request with a key while Redis is unreachable, and runs none', async () => {
    const offline = await anotherApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    const body = { url: hook('redis-down'), events: ['documentary.ready'] };
    const refused = await send('POST', '/api/v1/webhooks', body, { key: newKey(), url: offline.url });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('service_unavailable');
    expect(refused.body.error.message).toMatch(/Idempotency-Key cannot be checked/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await webhooksAt(hook('redis-down'))).toEqual([]);
    // Without a key the request is served as ever (the rate limiter fails open).
    const served = await send('POST', '/api/v1/webhooks', body, { url: offline.url });
    expect(served.status).toBe(201);
  });
});
