import { describe, expect, it } from 'vitest';
import { identifier, literal, raw, sql } from './literal.ts';

describe('literal', () => {
  it('quotes and escapes strings', () => {
    expect(literal("it's")).toBe("'it\\'s'");
    expect(literal('back\\slash')).toBe("'back\\\\slash'");
    expect(literal('a\nb\r\tc\0d')).toBe("'a\\nb\\r\\tc\\0d'");
    expect(literal("'; DROP TABLE x; --")).toBe("'\\'; DROP TABLE x; --'");
  });

  it('never lets a quote end the literal early', () => {
    for (const hostile of ["'", "\\'", "\\\\'", "''", '\\', 'x\\']) {
      const out = literal(hostile);
      // Strip escaped pairs; what is left must be just the two delimiting quotes.
      expect(out.slice(1, -1).replace(/\\./g, '')).not.toContain("'");
    }
  });

  it('writes numbers, booleans, null, dates and arrays', () => {
    expect(literal(42)).toBe('42');
    expect(literal(-1.5)).toBe('-1.5');
    expect(literal(12345678901234567890n)).toBe('12345678901234567890');
    expect(literal(true)).toBe('1');
    expect(literal(null)).toBe('NULL');
    expect(literal(new Date('2026-11-20T10:11:12.345Z'))).toBe("'2026-11-20 10:11:12'");
    expect(literal(['a', "b'"])).toBe("['a', 'b\\'']");
  });

  it('refuses values that have no safe literal', () => {
    expect(() => literal(Number.NaN)).toThrow(/NaN/);
    expect(() => literal(Infinity)).toThrow(/Infinity/);
    expect(() => literal(new Date('nope'))).toThrow(/invalid Date/);
    expect(() => literal({} as never)).toThrow(/object/);
  });
});

describe('identifier', () => {
  it('accepts plain names and refuses anything else', () => {
    expect(identifier('articles_v2')).toBe('articles_v2');
    for (const bad of ['a b', 'a;b', '`a`', '1a', '', 'a.b', 'a-b']) expect(() => identifier(bad)).toThrow();
  });
});

describe('sql template', () => {
  it('turns interpolations into literals and keeps raw fragments', () => {
    expect(sql`SELECT * FROM ${raw(identifier('t'))} WHERE a = ${"x'"} AND b IN ${[1, 2]}`).toBe(
      "SELECT * FROM t WHERE a = 'x\\'' AND b IN [1, 2]",
    );
  });
});
