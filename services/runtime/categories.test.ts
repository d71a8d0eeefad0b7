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

  it('reads a label as a section only when every word names or qualifies one', () => {
    // Tags on the story, not sections: the source's category stands.
    for (const tag of ['World Cup', 'Olympic Games', 'Green Bay Packers', 'Code Health', 'Green Party'])
      expect(categoryFromLabels([tag]), tag).toBeNull();
    expect(categoryFromLabels(['World Cup', 'Sport'])).toBe('sports');
    expect(categoryFromLabels(['Science & Tech'])).toBeNull();
    expect(categoryFromLabels(['US Politics'])).toBe('politics');
    expect(categoryFromLabels(['Middle East'])).toBe('world');
    expect(categoryFromLabels(['Top Stories'])).toBe('general');
    expect(categoryFromLabels(['Political analysis'])).toBe('politics');
    expect(categoryFromLabels(['Meio Ambiente'])).toBe('environment');
  });

  it('takes a section that names a subject over one that only says news, whichever comes first', () => {
    // The Guardian's tags, in its order: the same tags gave general or politics by their order.
    expect(categoryFromLabels(['State of the Union address', 'US news', 'US politics'])).toBe('politics');
    expect(categoryFromLabels(['Gymnastics', 'US news', 'US sports', 'Sport'])).toBe('sports');
    expect(categoryFromLabels(['Russia', 'Donald Trump', 'US news', 'World news'])).toBe('world');
    expect(categoryFromLabels(['General', 'Business'])).toBe('business');
    // News alone is the general section still.
    expect(categoryFromLabels(['FBI', 'US news'])).toBe('general');
    expect(categoryFromLabels(['General'])).toBe('general');
  });

  it('answers null when no label is recognised', () => {
    expect(categoryFromLabels(['Quirky'])).toBeNull();
    expect(categoryFromLabels([])).toBeNull();
  });
});
