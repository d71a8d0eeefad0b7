// Downstream systems read our topics with their own tools: a plain
// @kafkajs/confluent-schema-registry consumer, and kcat with the registry.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTopic, readAll, sampleArticle, type TopicFixture } from './support/kafka.ts';
import { stack } from './support/stack.ts';
import { stackLibDir } from '../support/stack-dirs.ts';

describe('events on the wire', () => {
  let fixture: TopicFixture;
  const articles = [
    sampleArticle(1),
    sampleArticle(2, { author: 'Ada Lovelace', image_url: 'https://img.example/2.jpg' }),
  ];

  beforeAll(async () => {
    fixture = await openTestTopic('wire', 'news.articles.discovered.v1', 1);
    await fixture.sendArticles(articles);
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('are decoded by a plain @kafkajs/confluent-schema-registry consumer that knows nothing of our code', async () => {
    const registry = new SchemaRegistry({ host: stack.SCHEMA_REGISTRY_URL });
    const messages = await readAll(fixture.kafka, fixture.topic.name, articles.length);
    expect(messages.map((m) => m.key)).toEqual(['article-1', 'article-2']);
    const decoded = await Promise.all(messages.map((m) => registry.decode(m.value!)));
    expect(decoded).toEqual(articles);
  });

  it('are read by kcat and decoded with the schema the registry holds for their id', async () => {
    // Debian's kcat is built without libserdes (no `-s value=avro`), so kcat
    // reads the raw Confluent-framed bytes, the writer schema comes from the
    // registry by the id in the frame, and Apache Avro's own avro-tools decodes
    // the body: three tools that share no code with ours.
    const raw = execFileSync(
      'kcat',
      [
        '-C',
        '-b',
        stack.KAFKA_BROKERS.join(','),
        '-t',
        fixture.topic.name,
        '-o',
        'beginning',
        '-c',
        '1',
        '-e',
        '-q',
        '-f',
        '%s',
      ],
      {
        maxBuffer: 1 << 20,
      },
    );
    expect(raw[0]).toBe(0); // Confluent magic byte
    const schemaId = raw.readInt32BE(1);
    const response = await fetch(`${stack.SCHEMA_REGISTRY_URL}/schemas/ids/${schemaId}`);
    expect(response.status).toBe(200);
    const { schema } = (await response.json()) as { schema: string };

    const dir = mkdtempSync(path.join(tmpdir(), 'kcat-'));
    writeFileSync(path.join(dir, 'schema.avsc'), schema);
    writeFileSync(path.join(dir, 'body.avro'), raw.subarray(5));
    const avroToolsDir = path.join(stackLibDir(), 'avro-tools');
    const jar = readdirSync(avroToolsDir).find((f) => /^avro-tools.*\.jar$/.test(f));
    expect(jar, `avro-tools jar in ${avroToolsDir}`).toBeDefined();
    const json = execFileSync(
      'java',
      [
        '-jar',
        path.join(avroToolsDir, jar!),
        'fragtojson',
        '--schema-file',
        path.join(dir, 'schema.avsc'),
        path.join(dir, 'body.avro'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ).toString();
    const decoded = JSON.parse(json) as Record<string, unknown>;
    expect(decoded.article_id).toBe('article-1');
    expect(decoded.title).toBe(articles[0]!.title);
    expect(decoded.published_at).toBe(articles[0]!.published_at);
    // avro-tools renders unions in Avro's JSON encoding: {"string": "en"}.
    expect(decoded.language).toEqual({ string: 'en' });
  }, 60_000);

  it('refuses to produce an event that does not match its schema, naming the field', async () => {
    const bad = { ...sampleArticle(3), title: 42 } as unknown as ReturnType<typeof sampleArticle>;
    await expect(fixture.producer.sendTo(fixture.topic.name, [{ key: 'x', value: bad }])).rejects.toThrow(
      /title: expected string, got 42/,
    );
  });
});
