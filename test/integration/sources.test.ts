// The source catalog's commands against the real compacted topic.
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { parseOpml, toOpml } from '../../services/sources/opml.ts';
import { SourceNotFoundError, SourceRegistry } from '../../services/sources/source-registry.ts';
import { testKafka } from './support/kafka.ts';
import { stack } from './support/stack.ts';

describe('source registry', () => {
  const run = randomUUID().slice(0, 8);
  let kafka: Kafka;
  let producer: EventProducer;
  let registry: SourceRegistry;
  const created: string[] = [];
  const input = (n: number) => ({
    name: `Registry test ${run} ${n}`,
    feed_url: `https://feeds-${run}.example/${n}.xml`,
    category: 'science' as const,
    language: 'en',
    country: 'us',
  });

  beforeAll(async () => {
    kafka = testKafka();
    const codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    registry = new SourceRegistry({ kafka, codec, producer });
  });

  afterAll(async () => {
    await producer?.send(
      topicNames.sources,
      created.map((id) => ({ key: id, value: null })),
    );
    await producer?.disconnect();
  });

  it('adds a source, and reuses it for the same feed under another spelling of the URL', async () => {
    const first = await registry.add(input(1));
    created.push(first.source.source_id);
    expect(first.change).toBe('added');
    expect(first.source.version).toBe(1);
    const again = await registry.add({ ...input(1), feed_url: `${input(1).feed_url}?utm_source=x#top` });
    expect(again).toMatchObject({ change: 'unchanged', source: { source_id: first.source.source_id } });
  });

  it('updates and deactivates, bumping the version, and lists the current state', async () => {
    const id = created[0]!;
    const updated = await registry.update(id, { poll_interval_seconds: 300 });
    expect(updated).toMatchObject({ change: 'updated', source: { version: 2, poll_interval_seconds: 300 } });
    const off = await registry.setActive(id, false);
    expect(off).toMatchObject({ change: 'updated', source: { version: 3, active: false } });
    expect(await registry.get(id)).toMatchObject({ version: 3, active: false, poll_interval_seconds: 300 });
    await expect(registry.get('src_missing')).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('imports OPML idempotently and exports what it holds', async () => {
    const opml = toOpml(
      [2, 3].map((n) => ({ ...input(n), site_url: null, active: true, poll_interval_seconds: 900 }) as never),
    );
    const first = await registry.importOpml(opml);
    created.push(...first.results.map((r) => r.source.source_id));
    expect(first.results.map((r) => r.change)).toEqual(['added', 'added']);
    const second = await registry.importOpml(opml);
    expect(second.results.map((r) => r.change)).toEqual(['unchanged', 'unchanged']);
    const exported = parseOpml(toOpml(await registry.list())).sources.map((s) => s.name);
    expect(exported).toEqual(expect.arrayContaining([input(1).name, input(2).name, input(3).name]));
  });

  it('refuses invalid input before writing anything', async () => {
    const before = (await registry.list()).length;
    await expect(registry.addMany([input(4), { ...input(5), country: 'zz' }])).rejects.toBeInstanceOf(
      ZodError,
    );
    expect((await registry.list()).length).toBe(before);
  });

  it("moves a source to where its feed moved, after which either URL finds it, and never onto another's URL", async () => {
    const old = await registry.add(input(6));
    const holder = await registry.add(input(7));
    created.push(old.source.source_id, holder.source.source_id);
    const from = old.source.feed_url;
    const to = `https://moved-${run}.example/6.xml`;

    // Onto another source's URL: nothing written.
    expect(await registry.move(old.source.source_id, from, holder.source.feed_url)).toEqual({
      kind: 'taken',
      by: holder.source.source_id,
    });
    // From a URL it is no longer at (changed since the poll began): nothing written.
    expect(await registry.move(old.source.source_id, to, from)).toMatchObject({ kind: 'stale' });
    expect(await registry.get(old.source.source_id)).toEqual(old.source);

    const moved = await registry.move(old.source.source_id, from, `${to}?utm_source=rss`);
    expect(moved).toEqual({
      kind: 'moved',
      source: {
        ...old.source,
        feed_url: to,
        previous_urls: [from],
        version: 2,
        occurred_at: expect.any(Number) as number,
      },
    });
    expect(await registry.get(old.source.source_id)).toMatchObject({ feed_url: to, version: 2 });

    // Added again by either URL: the one source, left where its feed is now.
    for (const url of [from, to]) {
      const again = await registry.add({ ...input(6), feed_url: url });
      expect(again, url).toMatchObject({
        change: 'unchanged',
        source: { source_id: old.source.source_id, feed_url: to, version: 2 },
      });
    }
    const renamed = await registry.add({ ...input(6), feed_url: from, name: `Renamed ${run}` });
    expect(renamed.source).toMatchObject({ source_id: old.source.source_id, feed_url: to, version: 3 });
    // Another feed may not take the moved source's former URL by moving there either.
    expect(await registry.move(holder.source.source_id, holder.source.feed_url, from)).toEqual({
      kind: 'taken',
      by: old.source.source_id,
    });
  });
});
