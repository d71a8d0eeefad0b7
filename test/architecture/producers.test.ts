// Every KafkaJS producer is idempotent with acks=all (issue 19): on a cluster of three brokers with
// min.insync.replicas 2, that is what makes an acknowledged write survive the loss of a broker. They
// are all made by idempotentProducer() (services/runtime/kafka/producer.ts, whose settings
// producer.test.ts pins); this test fails on a `kafka.producer(…)` call anywhere else, in the services,
// the tests or the benchmarks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const factory = 'services/runtime/kafka/producer.ts';
/** This file: its samples below are strings, not calls. */
const self = 'test/architecture/producers.test.ts';

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** The code of a file without its comments (line and block), so prose may name the call. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** The lines of `text` that make a KafkaJS producer: `.producer(`, also `?.producer (` or `['producer'](`. */
export function producerCalls(text: string): string[] {
  return code(text)
    .split('\n')
    .filter((line) => /(\.\s*producer|\[\s*['"`]producer['"`]\s*\])\s*\(/.test(line))
    .map((line) => line.trim());
}

const files = ['services', 'test', 'projections', 'schemas'].flatMap((dir) =>
  sources(join(root, dir)).map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') })),
);

describe('producers', () => {
  it('finds a producer call however it is spelled, and not in comments', () => {
    expect(producerCalls('const p = kafka.producer({ idempotent: false });')).toHaveLength(1);
    expect(producerCalls('const p = kafka\n  .producer();')).toHaveLength(1);
    expect(
      producerCalls("const p = this.kafka?.producer ({});\nconst q = kafka['producer']();"),
    ).toHaveLength(2);
    expect(
      producerCalls('// kafka.producer() is made in one place\nconst producer = idempotentProducer(kafka);'),
    ).toEqual([]);
  });

  it('sees the one call there is, in the factory', () => {
    const calls = files.filter(({ file }) => file === factory).flatMap(({ text }) => producerCalls(text));
    expect(calls).toEqual(['return kafka.producer({ ...producerSettings });']);
  });

  it('makes no KafkaJS producer outside idempotentProducer()', () => {
    const offenders = files
      .filter(({ file }) => file !== factory && file !== self)
      .flatMap(({ file, text }) => producerCalls(text).map((line) => `${file}: ${line}`));
    expect(offenders).toEqual([]);
  });
});
