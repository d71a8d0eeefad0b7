// Adaptive polling on the real stack: a real poller process, adaptive as deployed, polls local feeds of
// known pace; the interval it chooses for each, and why, reach feed_polls (through Kafka and the
// projector) and GET /v1/sources. The rule itself is pinned by services/poller/poll-interval.test.ts.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../services/runtime/clickhouse/literal.ts';
import { SourceRegistry } from '../../services/sources/source-registry.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { stack as infrastructure } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

type SourceList = components['schemas']['SourceList'];
type Source = components['schemas']['Source'];
type Subscribed = components['schemas']['SourceSubscribed'];

const minute = 60_000;
const day = 24 * 60 * minute;

/** An RSS feed of `count` items `gapMs` apart, the newest `ageMs` old. */
const pacedFeed = (name: string, base: string, count: number, gapMs: number, ageMs: number) => {
  const newest = Math.floor((Date.now() - ageMs) / 1000) * 1000;
  const items = Array.from(
    { length: count },
    (_, i) =>
      `<item><guid isPermaLink="false">${name}-${i}</guid><title>${name} story ${i}</title>` +
      `<link>${base}/${name}/${i}</link><pubDate>${new Date(newest - i * gapMs).toUTCString()}</pubDate></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title><link>${base}/</link><language>en</language>${items.join('')}</channel></rss>`;
};

describe('adaptive polling', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let poller: PollerProcess | undefined;
  let run: string;
  const ours: Source[] = [];

  beforeAll(async () => {
    stack = await startApiStack('adaptive');
    run = stack.run;
    server = await startFeedServer({ corpus: [] });
  }, 120_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    // Pause our sources so later runs' pollers do not keep polling a server that is gone.
    const registry = new SourceRegistry(stack);
    for (const s of ours) await registry.setActive(s.id, false);
    const redis = new Redis(infrastructure.REDIS_URL);
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await server?.close();
    await stack?.close();
  }, 60_000);

  it('shows the interval a polled source gets, and why, in GET /v1/sources and in feed_polls', async () => {
    // Busy: an item every 20 minutes, √(20 min × 2 min) = 379 s. Quiet: one every 40 days, the maximum.
    server.setFeed(`busy-${run}`, pacedFeed('busy', server.url, 10, 20 * minute, minute));
    server.setFeed(`quiet-${run}`, pacedFeed('quiet', server.url, 5, 40 * day, day));
    for (const name of ['busy', 'quiet']) {
      const added = await stack.call<Subscribed>('POST', '/v1/sources', {
        url: `${server.url}/feeds/${name}-${run}.xml`,
        name: `Adaptive ${name} ${run}`,
        category: 'science',
        country: 'gb',
      });
      expect(added.status, added.text).toBe(201);
      ours.push(added.body.source);
    }
    const [busy, quiet] = ours.map((s) => s.id);

    poller = startPoller({
      POLLER_GROUP: `adaptive-test-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      POLLER_ADAPTIVE: 'true',
    });
    const health = await waitFor(
      async () => {
        const list = await stack.call<SourceList>('GET', '/v1/sources?subscribed=true&limit=1000');
        const of = (id: string | undefined) => list.body.sources.find((s) => s.id === id)?.health;
        const both = [of(busy), of(quiet)];
        return both.every((h) => h?.poll_interval_seconds != null) && both;
      },
      'the intervals of the first polls in GET /v1/sources',
      60_000,
      250,
    );

    expect(health[0]).toMatchObject({
      status: 'healthy',
      last_poll_status: 'ok',
      poll_interval_seconds: 379,
      interval_reason: 'median gap 20 min between the last 10 items',
    });
    expect(health[1]).toMatchObject({
      poll_interval_seconds: 10_800,
      interval_reason: 'median gap 40 days between the last 5 items, capped at the maximum',
    });
    // The next poll is the interval away, ±10% jitter (whole seconds in the read model).
    for (const h of health) {
      const ahead = (Date.parse(h!.next_poll_at!) - Date.parse(h!.last_polled_at!)) / 1000;
      expect(ahead).toBeGreaterThanOrEqual(0.9 * h!.poll_interval_seconds! - 2);
      expect(ahead).toBeLessThanOrEqual(1.1 * h!.poll_interval_seconds! + 2);
    }

    const rows = await stack.clickhouse.query<{
      source_id: string;
      poll_interval_seconds: number;
      interval_reason: string;
      trigger: string;
    }>(
      sql`SELECT source_id, poll_interval_seconds, interval_reason, trigger FROM feed_polls
WHERE source_id IN (${busy!}, ${quiet!}) ORDER BY occurred_at`,
    );
    expect(rows.find((r) => r.source_id === busy)).toEqual({
      source_id: busy,
      poll_interval_seconds: 379,
      interval_reason: 'median gap 20 min between the last 10 items',
      trigger: 'poll',
    });
    expect(rows.find((r) => r.source_id === quiet)).toMatchObject({ poll_interval_seconds: 10_800 });
  }, 120_000);
});
