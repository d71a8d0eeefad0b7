import { describe, expect, it } from 'vitest';
import { firstDuplicateKey, loneSurrogateAt, nestsDeeperThan } from './json-body.ts';

describe('the JSON nesting cap', () => {
  it('counts arrays and objects together, a top-level object being depth 1', () => {
    expect(nestsDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('"just a string"', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"q":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"q":"a \\" [[[[ \\\\"}', 1)).toBe(false);
    // After an escaped backslash the quote closes the string, so the bracket after it counts.
    expect(nestsDeeperThan('{"q":"\\\\",  "r":[1]}', 1)).toBe(true);
  });

  it('measures depth, not the number of siblings', () => {
    expect(nestsDeeperThan(`[${'[1],'.repeat(10_000)}[1]]`, 2)).toBe(false);
  });

  it('refuses a million opening brackets in one pass, without parsing them', () => {
    expect(nestsDeeperThan('['.repeat(1_000_000), 32)).toBe(true);
  });
});

describe('keys given twice in one object', () => {
  it('finds the first, with its path', () => {
    expect(firstDuplicateKey('{"limit":3,"limit":"3"}')).toBe('$.limit');
    expect(firstDuplicateKey('{"a":{"b":1},"filter":{"k":[1,{"x":1,"y":2,"x":3}]}}')).toBe('$.filter.k[1].x');
    expect(firstDuplicateKey('[{"a":1},{"a":2},{"b":1,"b":1}]')).toBe('$[2].b');
    expect(firstDuplicateKey('{"a b":{"c":1,"c":2}}')).toBe('$["a b"].c');
  });

  it('compares keys as decoded', () => {
    expect(firstDuplicateKey('{"a":1,"\\u0061":2}')).toBe('$.a');
    expect(firstDuplicateKey('{"a\\"":1,"a\\u0022":2}')).toBe('$["a\\""]');
  });

  it('leaves alone the same key in sibling objects, values that look like keys, and strings with braces', () => {
    expect(firstDuplicateKey('{"a":{"x":1},"b":{"x":1}}')).toBeNull();
    expect(firstDuplicateKey('{"a":"a","b":["a","a"],"c":{"a":"b"}}')).toBeNull();
    expect(firstDuplicateKey('{"q":"{\\"a\\":1,\\"a\\":2}","r":"},{"}')).toBeNull();
    expect(firstDuplicateKey('[1,2,{"a":1}]')).toBeNull();
    expect(firstDuplicateKey('"just a string"')).toBeNull();
  });
});

describe('lone UTF-16 surrogates', () => {
  it('finds the first string or key holding one, with its path, and passes pairs', () => {
    expect(loneSurrogateAt(JSON.parse('{"contact_id":"\\ud800","company":"Acme"}'))).toBe('$.contact_id');
    expect(loneSurrogateAt(JSON.parse('{"a":[1,{"b":"x\\udc00y"}]}'))).toBe('$.a[1].b');
    expect(loneSurrogateAt(JSON.parse('{"\\ud83d":1}'))).toBe('$');
    expect(loneSurrogateAt(JSON.parse('{"topic":"\\ud83d\\ude00 economy","n":null,"ok":true}'))).toBeNull();
    expect(loneSurrogateAt('plain')).toBeNull();
  });
});
