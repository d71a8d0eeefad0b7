import { describe, expect, it } from 'vitest';
import { rankSentences, summarizeToSentences, summaryLengthFor } from './summary.ts';
import { splitSentences } from './sentences.ts';
import { layoffsArticle } from '../../../test/support/sample-articles.ts';

describe('summaryLengthFor', () => {
  it('gives 1-2 sentences for short, ~30% for medium, ~45% for long', () => {
    expect(summaryLengthFor(10, 'short')).toBe(1);
    expect(summaryLengthFor(20, 'short')).toBe(2);
    expect(summaryLengthFor(20, 'medium')).toBe(6);
    expect(summaryLengthFor(20, 'long')).toBe(9);
  });

  it('gives at least one sentence and never more than there are', () => {
    expect(summaryLengthFor(1, 'long')).toBe(1);
    expect(summaryLengthFor(2, 'medium')).toBe(1);
    expect(summaryLengthFor(0, 'medium')).toBe(0);
  });
});

describe('summarizeToSentences', () => {
  it('returns the requested number of sentences verbatim, in text order', () => {
    const all = splitSentences(layoffsArticle.text);
    const summary = summarizeToSentences(layoffsArticle.text, 3, { title: layoffsArticle.title });
    expect(summary).toHaveLength(3);
    const positions = summary.map((s) => all.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('prefers the sentence the others keep coming back to over an aside', () => {
    const text = [
      'The weather was mild on Tuesday.',
      'The council approved the new bridge over the river.',
      'The bridge will cost the council ten million pounds.',
      'Work on the bridge over the river starts in spring.',
      'Residents welcomed the bridge, the council said.',
    ].join('\n');
    const [best] = summarizeToSentences(text, 1);
    expect(best).toMatch(/bridge/);
  });

  it('does not pick two sentences that say the same thing', () => {
    const text = [
      'Acme Corp will cut 1,200 jobs in Europe this year.',
      'Acme Corp will cut 1,200 jobs in Europe this year, the company said.',
      'Unions in Germany threatened strikes at two Acme Corp plants over the jobs.',
      'The weather was mild.',
    ].join('\n');
    const summary = summarizeToSentences(text, 2);
    expect(summary.filter((s) => s.startsWith('Acme Corp will cut'))).toHaveLength(1);
  });

  it('gives everything back when asked for more sentences than there are', () => {
    expect(summarizeToSentences('One sentence here. Another one there.', 5)).toEqual([
      'One sentence here.',
      'Another one there.',
    ]);
  });
});

describe('rankSentences', () => {
  it('ranks every sentence, best first, the best scoring 1', () => {
    const ranked = rankSentences(layoffsArticle.text, { title: layoffsArticle.title });
    expect(ranked).toHaveLength(splitSentences(layoffsArticle.text).length);
    expect(ranked[0]!.score).toBe(1);
    for (let i = 1; i < ranked.length; i += 1)
      expect(ranked[i]!.score).toBeLessThanOrEqual(ranked[i - 1]!.score);
  });
});
