import { describe, expect, it } from 'vitest';
import { categoryFromLabels } from './categories.ts';

describe('categoryFromLabels', () => {
  it('keeps a label that already is one of our categories', () => {
    expect(categoryFromLabels(['Business'])).toBe('business');
  });

  it('maps common feed labels onto our vocabulary', () => {
    expect(categoryFromLabels(['Tech'])).toBe('technology');
    expect(categoryFromLabels(['Football', 'Premier League'])).toBe('sports');
    expect(categoryFromLabels(['UK Politics'])).toBe('politics');
    expect(categoryFromLabels(['Climate crisis'])).toBe('environment');
    expect(categoryFromLabels(['World news'])).toBe('world');
  });

  it('answers null when no label is recognised', () => {
    expect(categoryFromLabels(['Quirky'])).toBeNull();
    expect(categoryFromLabels([])).toBeNull();
  });
});
