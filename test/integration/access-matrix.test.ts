// The access-control matrix (OWASP API1 broken object-level authorisation, API5 broken function-level
// authorisation), driven by the running API's /openapi.json so that every operation is covered and a
// new one cannot slip past: each operation is either tenant-owned (another tenant's id answers 404,
// never 403, and changes nothing), a list (never shows another tenant's items), a create, shared
// (the same for every tenant), or on the short public list below. Every operation with a scope
// answers 403 naming it to a credential holding every other scope, and every operation answers 401
// to an expired access token and to a revoked API key. Credentials, tokens and rate limits as such are
// access-control.test.ts's.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientRegistry, kafkaClientStore } from '../../services/clients/client-registry.ts';
import type { Alert } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { openSse, type SseClient } from '../support/sse-client.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

const signingSecret = Buffer.from('an access-token signing key for the matrix test').toString('base64url');
const allScopes = ['read:feeds', 'write:sources', 'write:monitors', 'write:webhooks', 'use:ai', 'use:audio'];

/**
 * Operations a request may make without `Authorization: Bearer`, and why. Anything else in the document
 * without a scope fails the test.
 */
const publicOperations: Record<string, string> = {
  'post /oauth/token': 'the client authenticates with its client credentials: it is how a token is obtained',
  'get /v1/audio/{key}': 'a signed URL is the credential (an <audio> element cannot send headers)',
  'head /v1/audio/{key}': 'as GET',
  'get /v1/articles/{id}/audio':
    "a signed URL is the credential, as for a file: it is a webhook payload's audio_url, played as it is",
  'head /v1/articles/{id}/audio': 'as GET',
};

type Kind = 'subscription' | 'webhook' | 'delivery' | 'monitor' | 'documentary';

/** What each authenticated operation is, with respect to tenants. */
type Role =
  | { role: 'owned'; kind: Kind }
  | { role: 'list'; kind: Kind; items: (body: never) => { id: string }[] }
  | { role: 'create'; kind: Kind }
  | { role: 'stream' }
  | { role: 'shared'; why: string };

const listed =
  <K extends string>(key: K) =>
  (body: Record<K, { id: string }[]>) =>
    body[key];

const roles: Record<string, Role> = {
  'get /v1/articles': { role: 'shared', why: 'the article archive is the same for every tenant' },
  'get /v1/articles/{id}': { role: 'shared', why: 'as the archive' },
  'get /v1/stories': { role: 'shared', why: 'stories are built from the shared archive' },
  'get /v1/stories/{id}': { role: 'shared', why: 'as stories' },
  'get /v1/sources': { role: 'list', kind: 'subscription', items: listed('sources') },
  'get /v1/sources/{id}': {
    role: 'shared',
    why: 'every tenant sees every source, as in the list; `subscribed` is its own',
  },
  'post /v1/sources': { role: 'create', kind: 'subscription' },
  'delete /v1/sources/{id}/subscription': { role: 'owned', kind: 'subscription' },
  'get /api/v1/feeds/personalized': {
    role: 'shared',
    why: 'a ranking of the shared archive by the topics given',
  },
  'post /api/v1/feeds/personalized': { role: 'shared', why: 'as GET' },
  'post /v1/enhance': { role: 'shared', why: 'works on a shared article, keeps nothing per tenant' },
  'post /v1/analyze': { role: 'shared', why: 'works on the text given, keeps nothing' },
  'post /api/v1/summarize': { role: 'shared', why: 'works on the text given, keeps nothing' },
  'post /api/v1/webhooks': { role: 'create', kind: 'webhook' },
  'get /api/v1/webhooks': { role: 'list', kind: 'webhook', items: listed('webhooks') },
  'get /api/v1/webhooks/{id}': { role: 'owned', kind: 'webhook' },
  'patch /api/v1/webhooks/{id}': { role: 'owned', kind: 'webhook' },
  'delete /api/v1/webhooks/{id}': { role: 'owned', kind: 'webhook' },
  'post /api/v1/webhooks/{id}/secret/rotate': { role: 'owned', kind: 'webhook' },
  'post /api/v1/webhooks/{id}/test': { role: 'owned', kind: 'webhook' },
  'get /api/v1/webhooks/{id}/deliveries': { role: 'owned', kind: 'delivery' },
  'post /api/v1/webhooks/{id}/deliveries/{delivery_id}/resend': { role: 'owned', kind: 'delivery' },
  'post /api/v1/crm/monitor': { role: 'create', kind: 'monitor' },
  'get /api/v1/crm/monitors': { role: 'list', kind: 'monitor', items: listed('monitors') },
  'get /api/v1/crm/monitors/{id}': { role: 'owned', kind: 'monitor' },
  'patch /api/v1/crm/monitors/{id}': { role: 'owned', kind: 'monitor' },
  'delete /api/v1/crm/monitors/{id}': { role: 'owned', kind: 'monitor' },
  'get /v1/voices': { role: 'shared', why: 'the voices of the configured providers' },
  'post /v1/synthesize': { role: 'shared', why: 'content-addressed audio of the text given' },
  'post /api/v1/documentaries': { role: 'create', kind: 'documentary' },
  'get /api/v1/documentaries': { role: 'list', kind: 'documentary', items: listed('documentaries') },
  'get /api/v1/documentaries/{id}': { role: 'owned', kind: 'documentary' },
  'post /api/v1/documentaries/{id}/cancel': { role: 'owned', kind: 'documentary' },
  'get /v1/stream': { role: 'stream' },
  'post /v1/stream/tokens': { role: 'shared', why: "a token for the caller's own stream" },
};

interface Operation {
  key: string;
  method: string;
  path: string;
  scope: string | undefined;
}

/**
 * A body each operation accepts, so that a refusal comes from access control, not from validation: an
 * empty object for a POST, a pause for a PATCH (the one change it needs at least; that it did not happen
 * to another tenant's webhook or monitor, the snapshot shows), none otherwise.
 */
const bodyFor = (op: Pick<Operation, 'method'>) =>
  op.method === 'post' ? {} : op.method === 'patch' ? { active: false } : undefined;

interface Owned {
  sourceId: string;
  webhookId: string;
  deliveryId: string;
  monitorId: string;
  documentaryId: string;
}

describe('the access-control matrix', () => {
  let stack: ApiStack;
  let feeds: FeedServer;
  let operations: Operation[];
  const owned = new Map<string, Owned>();
  let tenantA: TestClient;
  let tenantB: TestClient;
  const streams: SseClient[] = [];

  const as = (client: TestClient) => ({ apiKey: client.apiKey });
  const call = (client: TestClient | string, method: string, path: string, body?: unknown) =>
    stack.call(method.toUpperCase(), path, body, {
      apiKey: typeof client === 'string' ? client : client.apiKey,
    });

  /** An access token of the client's for these scopes (OAuth client credentials). */
  const tokenOf = async (client: TestClient, scopes: readonly string[]): Promise<string> => {
    const issued = await fetch(`${stack.api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        scope: scopes.join(' '),
      }),
    });
    expect(issued.status).toBe(200);
    return ((await issued.json()) as { access_token: string }).access_token;
  };

  /** Everything one tenant owns, created through the API. */
  async function createEverything(client: TestClient, name: string): Promise<Owned> {
    feeds.setFeed(
      `${stack.run}-${name}`,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Matrix ${name}</title><link>${feeds.url}/</link><language>en</language></channel></rss>`,
    );
    const source = await stack.call<{ source: { id: string } }>(
      'POST',
      '/v1/sources',
      { url: `${feeds.url}/feeds/${stack.run}-${name}.xml`, category: 'business', country: 'gb' },
      as(client),
    );
    expect(source.status, source.text).toBe(201);
    const webhook = await stack.call<{ webhook: { id: string } }>(
      'POST',
      '/api/v1/webhooks',
      { url: `http://127.0.0.1:9/${stack.run}/${name}`, events: ['news.alert'] },
      as(client),
    );
    expect(webhook.status, webhook.text).toBe(201);
    const ping = await stack.call<{ delivery_id: string }>(
      'POST',
      `/api/v1/webhooks/${webhook.body.webhook.id}/test`,
      undefined,
      as(client),
    );
    expect(ping.status, ping.text).toBe(202);
    await waitFor(async () => {
      const log = await stack.call<{ deliveries: { id: string }[] }>(
        'GET',
        `/api/v1/webhooks/${webhook.body.webhook.id}/deliveries`,
        undefined,
        as(client),
      );
      return log.body.deliveries.some((d) => d.id === ping.body.delivery_id);
    }, 'the test delivery in the log');
    const monitor = await stack.call<{ monitor: { id: string } }>(
      'POST',
      '/api/v1/crm/monitor',
      {
        contact_id: `contact-${name}`,
        company: `Matrix ${name} Holdings`,
        alert_webhook: `http://127.0.0.1:9/${stack.run}/${name}/crm`,
      },
      as(client),
    );
    expect(monitor.status, monitor.text).toBe(201);
    const documentary = await stack.call<{ id: string }>(
      'POST',
      '/api/v1/documentaries',
      { topic: `matrix ${name}` },
      as(client),
    );
    expect(documentary.status, documentary.text).toBe(202);
    return {
      sourceId: source.body.source.id,
      webhookId: webhook.body.webhook.id,
      deliveryId: ping.body.delivery_id,
      monitorId: monitor.body.monitor.id,
      documentaryId: documentary.body.id,
    };
  }

  /** The path of an operation with `ids` in its parameters (a placeholder where no id matters). */
  const pathWith = (path: string, ids: Owned | null) =>
    path
      .replace('/sources/{id}', `/sources/${ids?.sourceId ?? 'src_none'}`)
      .replace('/webhooks/{id}', `/webhooks/${ids?.webhookId ?? 'wh_none'}`)
      .replace('{delivery_id}', ids?.deliveryId ?? 'dl_none')
      .replace('/monitors/{id}', `/monitors/${ids?.monitorId ?? 'mon_none'}`)
      .replace('/documentaries/{id}', `/documentaries/${ids?.documentaryId ?? 'doc_none'}`)
      .replace(/\{[a-z_]+\}/g, 'x');

  /** How A's things look to A: unchanged by anything B does. */
  const snapshot = async (ids: Owned) => ({
    subscribed: (
      await stack.call<{ sources: { id: string; subscribed: boolean }[] }>(
        'GET',
        '/v1/sources?subscribed=true&limit=100',
        undefined,
        as(tenantA),
      )
    ).body.sources.some((s) => s.id === ids.sourceId),
    webhook: (await call(tenantA, 'get', `/api/v1/webhooks/${ids.webhookId}`)).body,
    deliveries: (
      await stack.call<{ deliveries: { id: string }[] }>(
        'GET',
        `/api/v1/webhooks/${ids.webhookId}/deliveries`,
        undefined,
        as(tenantA),
      )
    ).body.deliveries
      .map((d) => d.id)
      .sort(),
    monitor: (await call(tenantA, 'get', `/api/v1/crm/monitors/${ids.monitorId}`)).body,
    documentary: (await call(tenantA, 'get', `/api/v1/documentaries/${ids.documentaryId}`)).body,
  });

  beforeAll(async () => {
    stack = await startApiStack('matrix', { API_TOKEN_KEYS: `k1:${signingSecret}` });
    feeds = await startFeedServer({ corpus: [] });
    tenantA = stack.client;
    tenantB = stack.otherClient;
    const document = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { 'x-required-scope'?: string }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        key: `${method} ${path}`,
        method,
        path,
        scope: op['x-required-scope'],
      })),
    );
    owned.set('A', await createEverything(tenantA, 'a'));
    owned.set('B', await createEverything(tenantB, 'b'));
  }, 180_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await feeds?.close();
    await stack?.close();
  }, 60_000);

  it('knows every operation of /openapi.json: each needs a scope and has a tenancy role, or is public for a stated reason', () => {
    expect(operations.length).toBeGreaterThan(25);
    for (const op of operations) {
      if (op.scope === undefined) {
        expect(
          publicOperations[op.key],
          `${op.key} has no scope and is not on the public list`,
        ).toBeDefined();
        continue;
      }
      expect(allScopes, `${op.key}: unknown scope ${op.scope}`).toContain(op.scope);
      expect(roles[op.key], `${op.key} has no tenancy role in this test: add it`).toBeDefined();
    }
    // And nothing listed here is gone from the document.
    const keys = new Set(operations.map((op) => op.key));
    for (const key of [...Object.keys(roles), ...Object.keys(publicOperations)])
      expect(keys.has(key), `${key} is no longer in /openapi.json`).toBe(true);
  });

  it("answers 404 (never 403) to every operation on another tenant's resources, and changes nothing", async () => {
    const ids = owned.get('A')!;
    const before = await snapshot(ids);
    expect(before.subscribed).toBe(true);
    expect(before.deliveries).toContain(ids.deliveryId);
    const tried: string[] = [];
    for (const op of operations) {
      if (roles[op.key]?.role !== 'owned') continue;
      const path = pathWith(op.path, ids);
      const answer = await call(tenantB, op.method, path, bodyFor(op));
      expect([answer.status, answer.body.error?.code], `${op.method} ${path} by another tenant`).toEqual([
        404,
        'not_found',
      ]);
      // Nothing of A's is echoed back.
      expect(answer.text).not.toContain(tenantA.tenantId);
      tried.push(op.key);
    }
    expect(tried).toHaveLength(Object.values(roles).filter((r) => r.role === 'owned').length);
    // Even B's own webhook cannot reach A's delivery through its id.
    const own = owned.get('B')!;
    const crossed = await call(
      tenantB,
      'post',
      `/api/v1/webhooks/${own.webhookId}/deliveries/${ids.deliveryId}/resend`,
      {},
    );
    expect(crossed.status).toBe(404);
    expect(await snapshot(ids)).toEqual(before);
  });

  it("leaves another tenant's items out of every list", async () => {
    const a = owned.get('A')!;
    const b = owned.get('B')!;
    const listPaths: Record<Kind, string> = {
      subscription: '/v1/sources?subscribed=true&limit=100',
      webhook: '/api/v1/webhooks?limit=100',
      delivery: `/api/v1/webhooks/${b.webhookId}/deliveries?limit=100`,
      monitor: '/api/v1/crm/monitors?limit=100',
      documentary: '/api/v1/documentaries?limit=100',
    };
    const idOf: Record<Kind, keyof Owned> = {
      subscription: 'sourceId',
      webhook: 'webhookId',
      delivery: 'deliveryId',
      monitor: 'monitorId',
      documentary: 'documentaryId',
    };
    const lists = operations.filter((op) => roles[op.key]?.role === 'list');
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const op of lists) {
      const role = roles[op.key] as Extract<Role, { role: 'list' }>;
      const path = listPaths[role.kind];
      const mine = await call(tenantB, 'get', path);
      expect(mine.status, `${path}: ${mine.text}`).toBe(200);
      const items = role.items(mine.body as never).map((item) => item.id);
      // B sees its own (the list works) and not A's.
      expect(items, `${path} lists the caller's own`).toContain(b[idOf[role.kind]]);
      expect(items, `${path} lists another tenant's`).not.toContain(a[idOf[role.kind]]);
      expect(mine.text).not.toContain(tenantA.tenantId);
    }
    // The delivery log is per webhook: B's log never shows A's deliveries.
    const deliveries = await stack.call<{ deliveries: { id: string }[] }>(
      'GET',
      listPaths.delivery,
      undefined,
      as(tenantB),
    );
    expect(deliveries.body.deliveries.map((d) => d.id)).toEqual([b.deliveryId]);
  });

  it("streams a tenant's alerts to that tenant only", async () => {
    const open = async (client: TestClient) => {
      const stream = await openSse(`${stack.api.url}/v1/stream?events=news.alert`, {
        authorization: `Bearer ${client.apiKey}`,
      });
      streams.push(stream);
      expect(stream.status).toBe(200);
      // Connected once the stream has sent its position.
      await waitFor(() => stream.lastId() !== null, 'the stream position');
      return stream;
    };
    const streamA = await open(tenantA);
    const streamB = await open(tenantB);
    // A's credential made to read the news alone: no alerts (CRM data) in its stream of every kind, and a
    // 403 naming the scope when it asks for them.
    const newsOnly = await tokenOf(tenantA, ['read:feeds']);
    const refused = await call(newsOnly, 'get', '/v1/stream?events=news.alert', undefined);
    expect([refused.status, refused.body.error?.code, refused.headers.get('www-authenticate')]).toEqual([
      403,
      'insufficient_scope',
      'Bearer realm="news-intelligence", error="insufficient_scope", scope="write:monitors"',
    ]);
    const everyKindA = await openSse(`${stack.api.url}/v1/stream`, { authorization: `Bearer ${newsOnly}` });
    streams.push(everyKindA);
    expect(everyKindA.status).toBe(200);
    await waitFor(() => everyKindA.lastId() !== null, 'the news-only stream position');
    const raise = async (client: TestClient, ids: Owned, name: string): Promise<Alert> => {
      const alert: Alert = {
        alert_id: `al_${stack.run}_${name}`,
        tenant_id: client.tenantId,
        monitor_id: ids.monitorId,
        contact_id: `contact-${name}`,
        company: `Matrix ${name} Holdings`,
        article_id: `art_${stack.run}_${name}`,
        article_title: `Matrix ${name} Holdings opens a plant`,
        article_url: `https://news.example/${stack.run}/${name}`,
        article_source_name: null,
        article_publisher_name: null,
        article_publisher_url: null,
        article_published_at: null,
        news_summary: `Matrix ${name} Holdings said it would open a plant.`,
        audio_url: null,
        audio_key: null,
        matched_terms: [`Matrix ${name} Holdings`],
        occurred_at: Date.now(),
      };
      await stack.producer.send(topicNames.alerts, [{ key: alert.alert_id, value: alert }]);
      return alert;
    };
    const alertA = await raise(tenantA, owned.get('A')!, 'a');
    const alertB = await raise(tenantB, owned.get('B')!, 'b');
    const alertIds = (stream: SseClient) =>
      stream.events
        .filter((e) => e.event === 'news.alert')
        .map((e) => (JSON.parse(e.data) as { alert_id: string }).alert_id);
    // Each sees its own (appended after the other's, on whichever partition), so by then the other's
    // had its chance to arrive too.
    await waitFor(() => alertIds(streamA).includes(alertA.alert_id), "A's alert on A's stream");
    await waitFor(() => alertIds(streamB).includes(alertB.alert_id), "B's alert on B's stream");
    await waitFor(() => alertIds(streamA).length + alertIds(streamB).length >= 2, 'both alerts');
    expect(alertIds(streamA)).toEqual([alertA.alert_id]);
    expect(alertIds(streamB)).toEqual([alertB.alert_id]);
    expect(alertIds(everyKindA)).toEqual([]);
  });

  it('answers 403 naming the scope to a credential with every scope but the one an operation needs', async () => {
    const tokens = new Map<string, string>();
    for (const scope of allScopes) {
      tokens.set(
        scope,
        await tokenOf(
          tenantA,
          allScopes.filter((s) => s !== scope),
        ),
      );
    }
    let checked = 0;
    for (const op of operations) {
      if (op.scope === undefined) continue;
      const path = pathWith(op.path, owned.get('A')!);
      const answer = await call(tokens.get(op.scope)!, op.method, path, bodyFor(op));
      expect([answer.status, answer.body.error?.code], `${op.key} without ${op.scope}`).toEqual([
        403,
        'insufficient_scope',
      ]);
      expect(answer.body.error.message, op.key).toContain(op.scope);
      expect(answer.headers.get('www-authenticate'), op.key).toBe(
        `Bearer realm="news-intelligence", error="insufficient_scope", scope="${op.scope}"`,
      );
      checked++;
    }
    expect(checked).toBe(operations.filter((op) => op.scope !== undefined).length);
  });

  it('answers 401 to an expired access token and to a revoked API key on every operation', async () => {
    // An expired token: a real one's claims, signed with the API's key, its lifetime over.
    const issued = (await (
      await fetch(`${stack.api.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: tenantA.clientId,
          client_secret: tenantA.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const claims = JSON.parse(
      Buffer.from(issued.access_token.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 60 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1', typ: 'at+jwt' })
      .sign(Buffer.from(signingSecret, 'base64url'));

    // A revoked key: a client of its own, revoked the way the admin command does it.
    const doomed = await createTestClient(stack, { name: `matrix revoked ${stack.run}` });
    await waitFor(
      async () => (await call(doomed.apiKey, 'get', '/v1/sources?limit=1')).status === 200,
      'the new client',
    );
    await new ClientRegistry({ store: kafkaClientStore(stack) }).revoke(doomed.clientId);
    await waitFor(
      async () => (await call(doomed.apiKey, 'get', '/v1/sources?limit=1')).status === 401,
      'the revocation',
    );

    for (const [name, credential] of [
      ['expired token', expired],
      ['revoked key', doomed.apiKey],
    ] as const) {
      for (const op of operations) {
        if (op.scope === undefined) continue;
        const path = pathWith(op.path, owned.get('A')!);
        const answer = await call(credential, op.method, path, bodyFor(op));
        expect([answer.status, answer.body.error?.code], `${op.key} with a ${name}`).toEqual([
          401,
          'unauthorized',
        ]);
        expect(answer.headers.get('www-authenticate'), op.key).toMatch(/^Bearer/);
        expect(answer.text).not.toContain(credential);
      }
    }
  }, 60_000);
});
