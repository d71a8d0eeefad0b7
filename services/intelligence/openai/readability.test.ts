import { describe, expect, it } from 'vitest';
import { countSyllables, readingLevel, readingTimeSeconds } from './readability.ts';

describe('readingTimeSeconds', () => {
  it('reads 230 words a minute', () => {
    expect(readingTimeSeconds('word '.repeat(230))).toBe(60);
    expect(readingTimeSeconds("It's a well-known fact.")).toBe(1);
    expect(readingTimeSeconds('')).toBe(0);
  });
});

describe('countSyllables', () => {
  it.each([
    ['cat', 1],
    ['table', 2],
    ['banana', 3],
    ['made', 1],
    ['education', 4],
    ['yesterday', 3],
  ])('%s has %i', (word, syllables) => {
    expect(countSyllables(word)).toBe(syllables);
  });
});

describe('readingLevel', () => {
  it('places short plain sentences low and long latinate ones high', () => {
    const plain = readingLevel('The cat sat on the mat. The dog ran to the park. We had fun.');
    const dense = readingLevel(
      'The intergovernmental organization’s comprehensive reconsideration of international environmental regulations ' +
        'necessitates unprecedented administrative coordination between institutional representatives and multinational corporations.',
    );
    expect(plain).toMatchObject({ label: 'elementary' });
    expect(plain.ease).toBeGreaterThan(90);
    expect(dense.label).toBe('graduate');
    expect(dense.ease).toBe(0);
    expect(dense.grade).toBeGreaterThan(plain.grade);
  });

  it('rounds the grade to one decimal and handles empty text', () => {
    const { grade } = readingLevel('Engineers watched the tide rise at the new station today.');
    expect(Math.round(grade * 10) / 10).toBe(grade);
    expect(readingLevel('')).toEqual({ grade: 0, ease: 100, label: 'elementary' });
  });
});
