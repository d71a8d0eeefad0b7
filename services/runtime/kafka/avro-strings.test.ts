import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomText, seeded } from '../../../test/support/random-text.ts';
import { localTypes } from './registry.ts';
import { installAvroStringWrites, uninstallAvroStringWrites } from './avro-strings.ts';
import { topicNames } from './topics.ts';

// Every case is encoded twice, by avsc's own string writes and by ours, and the bytes compared up to where
// the value ends (avsc's character loop runs once per byte, not per character, so for a string of
// non-ASCII characters it leaves a few bytes of garbage past the value's end, which the next value
// overwrites); encode()'s answer is compared too (where the value ended, or minus the bytes that did not
// fit).
const stringType = avro.Type.forSchema('string');
const record = avro.Type.forSchema({
  type: 'record',
  name: 'R',
  fields: [
    { name: 'a', type: 'string' },
    { name: 'b', type: ['null', 'string'] },
    { name: 'c', type: { type: 'array', items: 'string' } },
    { name: 'n', type: 'long' },
  ],
});

function both(type: avro.Type, value: unknown, size: number, at = 0) {
  const run = () => {
    const buf = Buffer.alloc(size, 0xee);
    const end = type.encode(value, buf, at);
    return { end, bytes: buf.subarray(0, Math.max(end, 0)).toString('hex') };
  };
  uninstallAvroStringWrites();
  const avsc = run();
  installAvroStringWrites();
  const ours = run();
  return { avsc, ours };
}

/** Round-trips only if it is well-formed UTF-16 (a lone surrogate is written as U+FFFD or worse). */
const wellFormed = (s: string) => Buffer.from(s).toString() === s;

const random = seeded(18);
/** Strings around every boundary of the writer: lengths, one- and two-byte varints, the loop's end. */
const cases: string[] = [
  '',
  'a',
  'x'.repeat(21),
  'x'.repeat(22),
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(65),
  'é'.repeat(31),
  'é'.repeat(32),
  'é'.repeat(33),
  '€'.repeat(21),
  '€'.repeat(22),
  '€'.repeat(63),
  '€'.repeat(64),
  '😀'.repeat(16),
  '😀'.repeat(32),
  'x'.repeat(8191),
  'x'.repeat(8192),
  '€'.repeat(2731),
  '€'.repeat(2730),
  'y'.repeat(300_000),
  '\ud800',
  'a\udc00b',
  '\ud83d'.repeat(30),
  'é\ud800'.repeat(40),
  'Markets rally as “central banks” hold rates – analysts’ view',
  ...Array.from({ length: 3000 }, (_, i) => randomText(random, [10, 30, 70, 200, 3000][i % 5]!)),
];

describe('writeAvroString', () => {
  beforeAll(() => installAvroStringWrites());
  afterAll(() => uninstallAvroStringWrites());

  it('writes every string as avsc does, at any offset', () => {
    for (const [i, s] of cases.entries()) {
      const { avsc, ours } = both(stringType, s, 4 * s.length + 16, i % 3);
      expect(ours, JSON.stringify(s.slice(0, 40))).toEqual(avsc);
    }
  });

  it('reports the bytes missing, as avsc does, when a string does not fit', () => {
    for (const s of cases.slice(0, 60)) {
      for (const size of [0, 1, 2, s.length, s.length + 1, 3 * s.length, 3 * s.length + 1]) {
        const { avsc, ours } = both(stringType, s, size);
        expect(ours.end).toBe(avsc.end);
        if (avsc.end >= 0) expect(ours.bytes).toBe(avsc.bytes);
      }
    }
  });

  it('writes records, unions and arrays of strings as avsc does, and reads them back', () => {
    for (let i = 0; i + 3 < cases.length; i += 4) {
      const value = {
        a: cases[i]!,
        b: i % 8 ? cases[i + 1]! : null,
        c: [cases[i + 2]!, cases[i + 3]!],
        n: i,
      };
      const size =
        12 * (value.a.length + (value.b?.length ?? 0) + value.c[0]!.length + value.c[1]!.length) + 32;
      const { avsc, ours } = both(record, value, size);
      expect(ours).toEqual(avsc);
      const buf = Buffer.from(ours.bytes, 'hex').subarray(0, ours.end);
      if ([value.a, value.b ?? '', ...value.c].every(wellFormed))
        expect(record.fromBuffer(buf)).toEqual(value);
    }
  });

  it('refuses what is not a string with avsc`s own error', () => {
    installAvroStringWrites();
    expect(() => stringType.toBuffer(42)).toThrow(/invalid "string": 42/);
    expect(() => record.toBuffer({ a: 'x', b: 7, c: [], n: 1 })).toThrow();
  });

  it('writes an article event as avsc does', () => {
    const type = localTypes().get(topicNames.articlesDiscovered)!.type;
    const article = {
      article_id: 'a'.repeat(32),
      source_id: 's'.repeat(32),
      source_name: 'BBC News – World',
      guid: 'https://www.bbc.co.uk/news/world-123',
      url: 'https://www.bbc.co.uk/news/world-123',
      original_url: 'https://www.bbc.co.uk/news/world-123?at_medium=RSS',
      title: 'Markets rally as “central banks” hold rates',
      summary: 'Shares rose on Monday after… '.repeat(8),
      content: '',
      author: null,
      published_at: 1_700_000_000_000,
      published_at_clamped: false,
      discovered_at: 1_700_000_100_000,
      language: 'en',
      category: 'business',
      image_url: null,
      revision: 1,
      changed_fields: [],
      first_published_at: null,
      first_discovered_at: null,
      occurred_at: 1_700_000_100_000,
    };
    expect(type.isValid(article)).toBe(true);
    const { avsc, ours } = both(type, article, 4096, 5);
    expect(ours).toEqual(avsc);
    expect(avsc.end).toBeGreaterThan(5);
  });
});
