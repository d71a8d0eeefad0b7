import { describe, expect, it } from 'vitest';
import { withoutPublisherSuffix } from './publisher-suffix.ts';

describe('withoutPublisherSuffix', () => {
  it("drops the outlet's name after any of the separators aggregators write", () => {
    for (const separator of [' - ', ' – ', ' — ', ' | '])
      expect(withoutPublisherSuffix(`Rates held${separator}Reuters`, 'Reuters')).toBe('Rates held');
  });

  it('compares the name case-insensitively with its whitespace normalised', () => {
    expect(withoutPublisherSuffix('Rates held - REUTERS', ' reuters ')).toBe('Rates held');
    expect(withoutPublisherSuffix('Storm hits coast - The  New York\u00a0Times', 'The New York Times')).toBe(
      'Storm hits coast',
    );
    expect(withoutPublisherSuffix('Rates held  -  Reuters', 'Reuters')).toBe('Rates held');
  });

  it('keeps an ending that is not the named outlet, and a title with no outlet named', () => {
    expect(withoutPublisherSuffix('Brexit - what now', 'Reuters')).toBe('Brexit - what now');
    expect(withoutPublisherSuffix('Rates held - Reuters', 'Reuters Business')).toBe('Rates held - Reuters');
    expect(withoutPublisherSuffix('Rates held - Reuters Business', 'Reuters')).toBe(
      'Rates held - Reuters Business',
    );
    // Only after a separator with space around it: a hyphenated word or a name run on is the headline.
    expect(withoutPublisherSuffix('Pro-Reuters', 'Reuters')).toBe('Pro-Reuters');
    expect(withoutPublisherSuffix('Rates held by Reuters', 'Reuters')).toBe('Rates held by Reuters');
    expect(withoutPublisherSuffix('Rates held - Reuters', null)).toBe('Rates held - Reuters');
    expect(withoutPublisherSuffix('Rates held - Reuters', '  ')).toBe('Rates held - Reuters');
  });

  it('drops a name that holds a separator of its own whole, and keeps the headline\'s own " - "', () => {
    expect(withoutPublisherSuffix('Rates held - Reuters | Business', 'Reuters | Business')).toBe(
      'Rates held',
    );
    expect(withoutPublisherSuffix('Live - rates held - Reuters', 'Reuters')).toBe('Live - rates held');
  });

  it('never leaves a title empty', () => {
    expect(withoutPublisherSuffix('Reuters', 'Reuters')).toBe('Reuters');
    expect(withoutPublisherSuffix('- Reuters', 'Reuters')).toBe('- Reuters');
    expect(withoutPublisherSuffix('Reuters - Reuters', 'Reuters')).toBe('Reuters');
  });
});
