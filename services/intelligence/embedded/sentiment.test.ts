import { describe, expect, it } from 'vitest';
import { parseSentences } from './sentences.ts';
import { articleSentiment, sentenceValence } from './sentiment.ts';

const valence = (text: string) => sentenceValence(parseSentences(text)[0]!);
const sentiment = (text: string, title = '') => articleSentiment(parseSentences(title), parseSentences(text));

describe('sentenceValence', () => {
  it('reverses a negated word: "not good" is negative, "never fails" positive', () => {
    expect(valence('The results were good.')).toBeGreaterThan(0);
    expect(valence('The results were not good.')).toBeLessThan(0);
    expect(valence('The engine fails.')).toBeLessThan(0);
    expect(valence('The engine never fails.')).toBeGreaterThan(0);
  });

  it('lets a negation reach only the next few words', () => {
    // "chance" is far from "not": it keeps its positive valence.
    expect(valence('I will not do too much and I think there is a real chance of a medal.')).toBeGreaterThan(
      0,
    );
  });

  it('reads words in their news sense: shares and fines, and the verbs of a fall', () => {
    expect(valence('Shares fell.')).toBeLessThan(0);
    expect(valence('Shares in the bank plunged 20% on Monday.')).toBeLessThan(0);
    expect(valence('Shares rose.')).toBeGreaterThanOrEqual(0);
    expect(valence('Shares soared after the results.')).toBeGreaterThan(0);
    expect(valence('The bank was fined £2m by the regulator.')).toBeLessThan(0);
    expect(valence('The regulator imposed a record fine on the bank.')).toBeLessThan(0);
    expect(valence('The weather was fine.')).toBeGreaterThan(0);
    expect(valence('A fine performance from the team.')).toBeGreaterThanOrEqual(0);
    expect(valence('The firm paid the fine.')).toBeLessThan(0);
    expect(valence('Sales declined sharply in March.')).toBeLessThan(0);
    expect(valence('The company declined to comment.')).toBe(0);
    expect(valence('She will share the prize with two colleagues.')).toBeGreaterThanOrEqual(0);
  });

  it('does not count "like" used as a preposition', () => {
    expect(valence('It looks like a bridge.')).toBe(0);
    expect(valence('They like it a lot.')).toBeGreaterThan(0);
  });
});

describe('articleSentiment', () => {
  it('labels a consistently positive or negative article', () => {
    expect(sentiment('The team won a great victory.\nFans celebrated a wonderful, happy night.').label).toBe(
      'positive',
    );
    expect(
      sentiment('The crash killed three people.\nThe disaster left the town in grief and anger.').label,
    ).toBe('negative');
  });

  it('calls a factual article neutral', () => {
    const result = sentiment('The council meets on Tuesday.\nThe meeting starts at 10am in the town hall.');
    expect(result).toEqual({ label: 'neutral', score: 0 });
  });

  it('calls an article mixed when it makes strong statements both ways', () => {
    const text = [
      'Supporters called the plan a brilliant, wonderful success.',
      'Critics said it was a terrible, disastrous failure.',
      'The mayor praised the great, excellent results.',
      'Residents condemned the awful, horrible mess.',
    ].join('\n');
    expect(sentiment(text).label).toBe('mixed');
  });

  it('keeps the score in [-1, 1]', () => {
    const score = sentiment('Wonderful! Brilliant! Amazing! Fantastic! Superb!').score;
    expect(score).toBeGreaterThan(0.5);
    expect(score).toBeLessThanOrEqual(1);
  });
});
