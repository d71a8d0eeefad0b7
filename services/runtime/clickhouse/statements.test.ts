import { describe, expect, it } from 'vitest';
import { splitStatements } from './statements.ts';

describe('splitStatements', () => {
  it('splits on semicolons and drops empty statements and comments', () => {
    expect(splitStatements('CREATE TABLE a (x UInt8) ENGINE = Memory;\n-- note; here\n\nSELECT 1;;')).toEqual(
      ['CREATE TABLE a (x UInt8) ENGINE = Memory', 'SELECT 1'],
    );
  });

  it('keeps semicolons inside quotes, backticks and block comments out of the split', () => {
    expect(splitStatements("SELECT 'a;b', `c;d` /* e;f */ FROM t; SELECT 'it\\'s;'")).toEqual([
      "SELECT 'a;b', `c;d`   FROM t",
      "SELECT 'it\\'s;'",
    ]);
  });

  it('reports an unterminated quote', () => {
    expect(() => splitStatements("SELECT 'oops")).toThrow(/unterminated ' quote/);
  });
});
