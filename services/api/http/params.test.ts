import { describe, expect, it } from 'vitest';
import { categoryParam, sourceParam } from './params.ts';

describe('list parameters', () => {
  it('reads a source name that holds a comma as it is, besides its parts', () => {
    expect(sourceParam.parse('Demo: Medium: Invironment, food')).toEqual([
      'Demo: Medium: Invironment',
      'food',
      'Demo: Medium: Invironment, food',
    ]);
    expect(sourceParam.parse('src_1')).toEqual(['src_1']);
  });

  it('reads other lists by their items only', () => {
    expect(categoryParam.parse('world, tech')).toEqual(['world', 'technology']);
  });
});
