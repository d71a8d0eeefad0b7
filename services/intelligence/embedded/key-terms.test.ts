import { describe, expect, it } from 'vitest';
import type { Entity } from '../provider.ts';
import { keyTerms, maxKeyTerms, minKeyTerms } from './key-terms.ts';
import { parseSentences } from './sentences.ts';

const sentences = parseSentences(
  [
    'The government will raise the tariff on imported steel.',
    'Acme Corp said the tariff would cost it $20m a year.',
    'Steel makers in Ohio welcomed the move.',
    'Maria Lopez, who runs Acme Corp, called it a mistake.',
  ].join('\n'),
);
const entity = (name: string, type: Entity['type']): Entity => ({ name, type, salience: 1, mentions: 2 });

describe('keyTerms', () => {
  it('explains each term by the sentence that first uses it, names and keywords alternating', () => {
    const terms = keyTerms(
      [entity('Acme Corp', 'organization'), entity('Maria Lopez', 'person')],
      ['tariff', 'steel'],
      sentences,
    );
    expect(terms.slice(0, 3)).toEqual([
      {
        term: 'Acme Corp',
        explanation:
          'An organisation named in the article, first in: "Acme Corp said the tariff would cost it $20m a year."',
      },
      { term: 'tariff', explanation: 'Used in: "The government will raise the tariff on imported steel."' },
      {
        term: 'Maria Lopez',
        explanation:
          'A person named in the article, first in: "Maria Lopez, who runs Acme Corp, called it a mistake."',
      },
    ]);
  });

  it('matches any inflection of a keyword', () => {
    const [term] = keyTerms([], ['maker'], sentences);
    expect(term).toEqual({
      term: 'maker',
      explanation: 'Used in: "Steel makers in Ohio welcomed the move."',
    });
  });

  it('gives between five and eight terms when the article has them, without repeats', () => {
    const entities = ['Acme Corp', 'Maria Lopez', 'Ohio'].map((n) => entity(n, 'other'));
    const terms = keyTerms(
      entities,
      ['tariff', 'steel', 'government', 'move', 'mistake', 'year', 'tariff'],
      sentences,
    );
    expect(terms.length).toBeGreaterThanOrEqual(minKeyTerms);
    expect(terms.length).toBeLessThanOrEqual(maxKeyTerms);
    expect(new Set(terms.map((t) => t.term)).size).toBe(terms.length);
  });

  it('cuts a long sentence to a window around the term', () => {
    const long = parseSentences(
      `${'Filler words go here again and again. '.repeat(1).trim()} ${'word '.repeat(60)}the tariff ${'word '.repeat(60)}end.`,
    );
    const [term] = keyTerms([], ['tariff'], long);
    expect(term!.explanation).toMatch(/^Used in: "….*tariff.*…"$/);
    expect(term!.explanation.length).toBeLessThan(230);
  });
});
