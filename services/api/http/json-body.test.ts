import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-body.ts';

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
