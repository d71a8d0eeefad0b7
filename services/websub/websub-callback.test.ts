// The hub's two requests as the subscriber answers them, and the keeper that makes the requests: a
// Map stands in for Redis (the Redis store itself runs in test/integration/websub.test.ts).
import { createHmac } from 'node:crypto';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Source } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import { SecretValue } from '../runtime/secret.ts';
import { sourceState } from '../sources/source.ts';
import type { HubClient, HubRequest, HubAnswer } from './hub-client.ts';
import { hubSecretFor } from './signature.ts';
import type { Subscription } from './subscription.ts';
import { SubscriptionKeeper } from './subscription-keeper.ts';
import type { Subscriptions } from './subscription-store.ts';
import { WebsubCallback } from './websub-callback.ts';
import { websubMetrics } from './websub-metrics.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://news.example/feed', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);
const settings = {
  publicBaseUrl: 'https://poller.example/base',
  masterSecret: new SecretValue('master key for the tests'),
  leaseSeconds: 864_000,
  renewMarginMs: 86_400_000,
  verifyTimeoutMs: 300_000,
  retryMs: 600_000,
};
const timing = { verifyTimeoutMs: 300_000, renewMarginMs: 86_400_000, retryMs: 600_000 };
const hubUrl = 'https://hub.example/';

function memoryStore(): Subscriptions & { records: Map<string, Subscription> } {
  const records = new Map<string, Subscription>();
  const copy = (s: Subscription) => JSON.parse(JSON.stringify(s)) as Subscription;
  return {
    records,
    get: async (id) => (records.has(id) ? copy(records.get(id)!) : null),
    put: async (s) => void records.set(s.sourceId, copy(s)),
    replace: async (id, request, next) => {
      if (records.get(id)?.request !== request) return false;
      if (next === null) records.delete(id);
      else records.set(id, copy(next));
      return true;
    },
    delete: async (id) => void records.delete(id),
  };
}

function world(
  answer: (request: HubRequest) => HubAnswer | Promise<HubAnswer> = () => ({ ok: true, status: 202 }),
) {
  let now = Date.UTC(2026, 10, 27, 12);
  const store = memoryStore();
  const registry = new Registry();
  const metrics = websubMetrics(registry);
  const logger = createLogger('test', 'silent');
  const sentToHub: HubRequest[] = [];
  const hub: HubClient = {
    send: async (request) => {
      sentToHub.push(request);
      return answer(request);
    },
    close: async () => undefined,
  };
  const ingested: { source: Source; body: string }[] = [];
  const deps = { store, metrics, logger, clock: () => now };
  const keeper = new SubscriptionKeeper({ ...deps, hub, settings });
  const verified: string[] = [];
  const callback = new WebsubCallback({
    ...deps,
    settings,
    timing,
    onVerified: (sourceId) => verified.push(sourceId),
    ingest: async (s, body) => {
      ingested.push({ source: s, body: Buffer.from(body).toString() });
      return Buffer.from(body).toString().includes('<rss')
        ? { ok: true, newItems: 1 }
        : { ok: false, reason: 'not a feed' };
    },
  });
  const counted = async (name: string, outcome: string) => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
    return metric?.values?.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };
  const verifyQuery = (mode: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({
      'hub.mode': mode,
      'hub.topic': source.feed_url,
      'hub.challenge': 'ch4ll3nge',
      ...extra,
    });
  return {
    store,
    keeper,
    callback,
    sentToHub,
    ingested,
    counted,
    verifyQuery,
    verified,
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

const secret = hubSecretFor(settings.masterSecret.reveal(), source.source_id);
const feed = Buffer.from('<rss version="2.0"><channel><item><title>x</title></item></channel></rss>');
const signed = (body: Uint8Array, key = secret) =>
  `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

describe('subscribing', () => {
  it('stores the pending request before asking the hub, with the callback, lease and derived secret', async () => {
    const w = world();
    let storedFirst: Subscription | null = null;
    const ws = world(async () => {
      storedFirst = await ws.store.get(source.source_id);
      return { ok: true, status: 202 };
    });
    await ws.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(storedFirst).toMatchObject({ state: 'pending', hub: hubUrl, topic: source.feed_url });
    expect(ws.sentToHub).toEqual([
      {
        hub: hubUrl,
        mode: 'subscribe',
        topic: source.feed_url,
        callback: `https://poller.example/base/websub/${source.source_id}`,
        leaseSeconds: 864_000,
        secret,
      },
    ]);
    // The self URL the feed names is the topic.
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: 'https://news.example/self' });
    expect(w.sentToHub[0]!.topic).toBe('https://news.example/self');
  });

  it('does nothing for a feed that names no hub', async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [], selfUrl: null });
    expect(w.sentToHub).toEqual([]);
    expect(w.store.records.size).toBe(0);
  });

  it('records a hub that refuses, and asks again only after the backoff', async () => {
    const w = world(() => ({ ok: false, kind: 'failed', reason: 'hub answered 500' }));
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(w.store.records.get(source.source_id)).toMatchObject({
      state: 'failed',
      failures: 1,
      reason: 'hub answered 500',
    });
    expect(await w.counted('websub_subscriptions_total', 'failed')).toBe(1);
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(w.sentToHub).toHaveLength(1);
    w.advance(600_000);
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(w.sentToHub).toHaveLength(2);
    expect(w.store.records.get(source.source_id)).toMatchObject({ failures: 2 });
  });

  it('gives up on a hub that never verifies once the timeout passed, and is not active meanwhile', async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(await w.keeper.isActive(source.source_id)).toBe(false);
    w.advance(299_000);
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(w.store.records.get(source.source_id)!.state).toBe('pending');
    w.advance(1_000);
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(w.store.records.get(source.source_id)).toMatchObject({ state: 'failed', failures: 1 });
    expect(await w.counted('websub_subscriptions_total', 'unconfirmed')).toBe(1);
    expect(w.sentToHub).toHaveLength(1);
    // A verification arriving now is for a request we no longer wait for.
    expect((await w.callback.verify(source.source_id, w.verifyQuery('subscribe'))).status).toBe(404);
  });

  it('becomes active on verification and renews before the lease ends, from a poll that found no hub', async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    const answer = await w.callback.verify(
      source.source_id,
      w.verifyQuery('subscribe', { 'hub.lease_seconds': '7200' }),
    );
    expect(answer).toEqual({ status: 200, body: 'ch4ll3nge' });
    expect(await w.keeper.isActive(source.source_id)).toBe(true);
    // Its poller is told to poll by the renewal (half of the 2 h lease), whatever its interval.
    const { upkeepAt } = (await w.keeper.lease(source.source_id))!;
    w.advance(3_599_000);
    await w.keeper.ensure(source, { hubs: [], selfUrl: null }); // a 304 without Link header
    expect(w.sentToHub).toHaveLength(1);
    w.advance(1_000); // half of the 2 h lease
    expect(upkeepAt).toBe(w.now());
    await w.keeper.ensure(source, { hubs: [], selfUrl: null });
    expect(w.sentToHub).toHaveLength(2);
    expect(await w.counted('websub_subscriptions_total', 'renewal_requested')).toBe(1);
    // Still active while the renewal waits for the hub; polled again once it should have answered.
    expect(await w.keeper.isActive(source.source_id)).toBe(true);
    expect(await w.keeper.lease(source.source_id)).toEqual({ upkeepAt: w.now() + 300_000 });
  });

  it("names when a request's poll must follow it, before any lease is in force (upkeep)", async () => {
    const w = world();
    expect(await w.keeper.upkeep(source.source_id)).toBeNull(); // nothing asked
    const asked = w.now();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    // Pending: no lease in force yet (the poll chose its next poll as for a source without one); the
    // lease is known by the time the hub should have answered.
    expect(await w.keeper.lease(source.source_id)).toBeNull();
    expect(await w.keeper.upkeep(source.source_id)).toEqual({ at: asked + 300_000, pending: true });
    w.advance(2_000);
    await w.callback.verify(source.source_id, w.verifyQuery('subscribe', { 'hub.lease_seconds': '60' }));
    expect(w.verified).toEqual([source.source_id]);
    // Active: the renewal, half-way through a lease shorter than twice the margin.
    expect(await w.keeper.upkeep(source.source_id)).toEqual({ at: w.now() + 30_000, pending: false });
    // Failed (refused): the normal polls retry it, nothing is brought forward.
    const refused = world(() => ({ ok: false, kind: 'failed', reason: 'hub answered 500' }));
    await refused.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect(await refused.keeper.upkeep(source.source_id)).toBeNull();
    expect(refused.verified).toEqual([]);
  });

  it('ignores a pause older than the source it subscribed for (a replay of the sources topic)', async () => {
    const w = world();
    const resumed = { ...source, version: 3 };
    await w.keeper.ensure(resumed, { hubs: [hubUrl], selfUrl: null });
    await w.callback.verify(source.source_id, w.verifyQuery('subscribe'));
    await w.keeper.unsubscribe(source.source_id, 2);
    expect(w.sentToHub.map((r) => r.mode)).toEqual(['subscribe']);
    expect(await w.keeper.isActive(source.source_id)).toBe(true);
    await w.keeper.unsubscribe(source.source_id, 4);
    expect(w.sentToHub.map((r) => r.mode)).toEqual(['subscribe', 'unsubscribe']);
  });

  it('unsubscribes a removed source and forgets it once the hub confirms', async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    await w.callback.verify(source.source_id, w.verifyQuery('subscribe'));
    await w.keeper.unsubscribe(source.source_id);
    expect(w.sentToHub.at(-1)).toMatchObject({ mode: 'unsubscribe', topic: source.feed_url });
    expect(await w.keeper.isActive(source.source_id)).toBe(false);
    expect((await w.callback.verify(source.source_id, w.verifyQuery('unsubscribe'))).status).toBe(200);
    expect(w.store.records.size).toBe(0);
  });
});

describe('verification of intent', () => {
  const subscribed = async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    return w;
  };

  it('refuses a topic other than the one requested, a missing challenge, an unknown source', async () => {
    const w = await subscribed();
    expect(
      (
        await w.callback.verify(
          source.source_id,
          w.verifyQuery('subscribe', { 'hub.topic': 'https://evil.example/' }),
        )
      ).status,
    ).toBe(404);
    const noChallenge = w.verifyQuery('subscribe');
    noChallenge.delete('hub.challenge');
    expect((await w.callback.verify(source.source_id, noChallenge)).status).toBe(404);
    expect((await w.callback.verify('src_unknown', w.verifyQuery('subscribe'))).status).toBe(404);
    expect((await w.callback.verify(source.source_id, w.verifyQuery('unsubscribe'))).status).toBe(404);
    expect(w.store.records.get(source.source_id)!.state).toBe('pending');
    expect(await w.counted('websub_subscriptions_total', 'verification_rejected')).toBe(4);
  });

  it('records a denial (hub.mode=denied) with its reason', async () => {
    const w = await subscribed();
    const answer = await w.callback.verify(
      source.source_id,
      new URLSearchParams({
        'hub.mode': 'denied',
        'hub.topic': source.feed_url,
        'hub.reason': 'not allowed',
      }),
    );
    expect(answer.status).toBe(200);
    expect(w.store.records.get(source.source_id)).toMatchObject({
      state: 'denied',
      reason: 'denied by the hub: not allowed',
    });
    expect(await w.counted('websub_subscriptions_total', 'denied')).toBe(1);
  });
});

describe('notifications', () => {
  const active = async () => {
    const w = world();
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    await w.callback.verify(source.source_id, w.verifyQuery('subscribe'));
    return w;
  };

  it('ingests a correctly signed notification with the stored source', async () => {
    const w = await active();
    expect(await w.callback.notify(source.source_id, signed(feed), 'application/rss+xml', feed)).toEqual({
      status: 204,
      body: '',
    });
    expect(w.ingested).toEqual([{ source, body: feed.toString() }]);
    expect(await w.counted('websub_notifications_total', 'accepted')).toBe(1);
  });

  it('refuses a forged or missing signature with 403, counts it, and ignores the content', async () => {
    const w = await active();
    const forged = await w.callback.notify(source.source_id, signed(feed, 'not the secret'), null, feed);
    expect(forged.status).toBe(403);
    expect(forged.body).not.toContain(secret);
    expect((await w.callback.notify(source.source_id, undefined, null, feed)).status).toBe(403);
    expect(w.ingested).toEqual([]);
    expect(await w.counted('websub_notifications_total', 'bad_signature')).toBe(1);
    expect(await w.counted('websub_notifications_total', 'unsigned')).toBe(1);
  });

  it('answers 410 for a source without a lease in force (unknown, pending, expired)', async () => {
    const w = world();
    expect((await w.callback.notify('src_unknown', signed(feed), null, feed)).status).toBe(410);
    await w.keeper.ensure(source, { hubs: [hubUrl], selfUrl: null });
    expect((await w.callback.notify(source.source_id, signed(feed), null, feed)).status).toBe(410);
    await w.callback.verify(source.source_id, w.verifyQuery('subscribe', { 'hub.lease_seconds': '60' }));
    w.advance(60_000);
    expect((await w.callback.notify(source.source_id, signed(feed), null, feed)).status).toBe(410);
    expect(w.ingested).toEqual([]);
    expect(await w.counted('websub_notifications_total', 'unknown_source')).toBe(3);
  });

  it('answers 400 for signed content that is not a feed', async () => {
    const w = await active();
    const junk = Buffer.from('hello');
    expect((await w.callback.notify(source.source_id, signed(junk), null, junk)).status).toBe(400);
    expect(await w.counted('websub_notifications_total', 'unparseable')).toBe(1);
  });
});
