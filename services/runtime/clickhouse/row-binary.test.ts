import { describe, expect, it } from 'vitest';
import { BufferPool, encodeRowBinary, parseColumnType, poolSize, type Column } from './row-binary.ts';

const hex = (b: Buffer) => b.toString('hex');

describe('parseColumnType', () => {
  it('reads the types DESCRIBE TABLE prints for our read models', () => {
    expect(parseColumnType('String')).toEqual({ kind: 'String' });
    expect(parseColumnType("DateTime('UTC')")).toEqual({ kind: 'DateTime' });
    expect(parseColumnType('Nullable(UInt32)')).toEqual({ kind: 'Nullable', inner: { kind: 'UInt32' } });
    expect(parseColumnType('Array(Nullable(String))')).toEqual({
      kind: 'Array',
      inner: { kind: 'Nullable', inner: { kind: 'String' } },
    });
  });

  it('refuses a type it cannot encode when the encoder is built', () => {
    expect(() => parseColumnType('Decimal(10, 2)')).toThrow('column type Decimal(10, 2) is not supported');
  });
});

describe('encodeRowBinary', () => {
  const column = (name: string, type: string): Column => ({ name, type: parseColumnType(type) });

  it('writes each value in its binary layout, in column order', () => {
    const columns = [
      column('id', 'String'),
      column('n', 'UInt8'),
      column('at', "DateTime('UTC')"),
      column('score', 'Nullable(Float64)'),
      column('tags', 'Array(String)'),
      column('version', 'UInt64'),
    ];
    const body = encodeRowBinary(columns, [
      { version: 2 ** 40 + 1, tags: ['a', 'é'], score: null, at: '1970-01-01 00:01:00', n: 7, id: 'x' },
    ]);
    expect(hex(body)).toBe(
      [
        '0178', // "x": length 1, then the byte
        '07', // UInt8 7
        '3c000000', // 60 seconds, UInt32 little-endian
        '01', // Nullable: null
        '02' + '0161' + '02c3a9', // two strings: "a", "é" (2 UTF-8 bytes)
        '0100000000010000', // 2^40 + 1 as UInt64 little-endian
      ].join(''),
    );
  });

  it('gives a missing value its type default, as JSONEachRow did', () => {
    const columns = [column('s', 'String'), column('n', 'Nullable(String)'), column('a', 'Array(String)')];
    expect(hex(encodeRowBinary(columns, [{}]))).toBe('00' + '01' + '00');
  });

  it('writes lengths as LEB128 varints, so long strings keep their bytes', () => {
    const text = 'ü'.repeat(200); // 400 bytes
    const body = encodeRowBinary([column('s', 'String')], [{ s: text }]);
    expect(hex(body.subarray(0, 2))).toBe('9003'); // 400 = 0x190 -> 0x90 0x03
    expect(body.subarray(2).toString('utf8')).toBe(text);
  });

  it('writes short strings byte for byte, and any that is not ASCII through UTF-8, at every length', () => {
    const strings = [
      '',
      'a',
      'x'.repeat(127),
      'x'.repeat(128),
      `${'x'.repeat(100)}é`,
      'é',
      `abc€`,
      'a\u0000b',
    ];
    const columns = [column('s', 'String')];
    const body = encodeRowBinary(
      columns,
      strings.map((s) => ({ s })),
    );
    const expected = Buffer.concat(
      strings.map((s) => {
        const bytes = Buffer.from(s, 'utf8');
        const length =
          bytes.length < 128 ? [bytes.length] : [(bytes.length & 0x7f) | 0x80, bytes.length >> 7];
        return Buffer.concat([Buffer.from(length), bytes]);
      }),
    );
    expect(hex(body)).toBe(hex(expected));
  });

  it('writes long text in one pass, whatever its length prefix turns out to need', () => {
    // Prefixes of 1, 2 and 3 bytes, reserved for the text's longest UTF-8 and moved back when shorter.
    const strings = [
      'x'.repeat(200),
      'ü'.repeat(50),
      '€'.repeat(20_000),
      'x'.repeat(20_000),
      `${'a'.repeat(5000)}😀`,
    ];
    const body = encodeRowBinary(
      [column('s', 'String')],
      strings.map((s) => ({ s })),
    );
    const decoded: string[] = [];
    for (let o = 0; o < body.length;) {
      let length = 0;
      for (let shift = 0; ; shift += 7) {
        const b = body[o++]!;
        length += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
      }
      decoded.push(body.subarray(o, o + length).toString('utf8'));
      o += length;
    }
    expect(decoded).toEqual(strings);
  });

  it('takes unix seconds, text or a Date for a DateTime, and clamps what UInt32 cannot hold', () => {
    const columns = [column('t', 'DateTime')];
    const seconds = (value: unknown) => encodeRowBinary(columns, [{ t: value }]).readUInt32LE(0);
    expect(seconds(1_700_000_000)).toBe(1_700_000_000);
    expect(seconds('2023-11-14 22:13:20')).toBe(1_700_000_000);
    expect(seconds(new Date(1_700_000_000_500))).toBe(1_700_000_000);
    expect(seconds(-5)).toBe(0);
    expect(() => seconds('yesterday')).toThrow('t is not a DateTime');
  });

  it('refuses a UInt64 it cannot write exactly', () => {
    expect(() => encodeRowBinary([column('v', 'UInt64')], [{ v: 2 ** 60 }])).toThrow('v is not a UInt64');
  });
});

// Buffers are compared by identity with a boolean: a failing toBe would print all of their bytes.
describe('BufferPool', () => {
  const MiB = 1 << 20;

  it('makes buffers of a power of two from 1 MiB on, so the next, slightly larger batch still fits', () => {
    expect(poolSize(1000)).toBe(1000);
    expect(poolSize(MiB)).toBe(MiB);
    expect(poolSize(MiB + 1)).toBe(2 * MiB);
    expect(poolSize(100 * MiB)).toBe(128 * MiB);
    const pool = new BufferPool(2);
    const first = pool.take(100 * MiB);
    expect(first.length).toBe(128 * MiB);
    pool.give(first);
    expect(pool.take(110 * MiB) === first, 'the same buffer').toBe(true);
  });

  it('gives the smallest buffer that is large enough', () => {
    const pool = new BufferPool(3);
    const [small, large] = [pool.take(4 * MiB), pool.take(16 * MiB)];
    pool.give(large);
    pool.give(small);
    expect(pool.take(3 * MiB) === small, 'the same buffer').toBe(true);
    expect(pool.take(3 * MiB) === large, 'the same buffer').toBe(true);
    expect(pool.take(3 * MiB) === small, 'the same buffer').toBe(false);
  });

  it('keeps its largest buffers when full', () => {
    const pool = new BufferPool(2);
    const [a, b, c] = [pool.take(2 * MiB), pool.take(8 * MiB), pool.take(32 * MiB)];
    pool.give(a);
    pool.give(b);
    pool.give(c); // full: c takes a's place
    expect(pool.take(16 * MiB) === c, 'the same buffer').toBe(true);
    expect(pool.take(2 * MiB) === b, 'the same buffer').toBe(true);
    pool.give(a);
    pool.give(b);
    pool.give(Buffer.allocUnsafeSlow(MiB)); // full, and smaller than anything kept: dropped
    expect(pool.take(MiB) === a, 'the same buffer').toBe(true);
    expect(pool.take(MiB) === b, 'the same buffer').toBe(true);
  });
});
