import { describe, expect, it } from 'vitest';
import {
  graphedSentences,
  longestSummary,
  longestSummarySentence,
  rankSentences,
  summarizeToSentences,
  summaryLengthFor,
} from './summary.ts';
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

  it('stops at 30 sentences for medium and 45 for long, however long the text', () => {
    expect(summaryLengthFor(100, 'medium')).toBe(30);
    expect(summaryLengthFor(3_000, 'medium')).toBe(longestSummary.medium);
    expect(summaryLengthFor(3_000, 'long')).toBe(longestSummary.long);
    expect(summaryLengthFor(3_000, 'short')).toBe(2);
  });
});

describe('summarizeToSentences', () => {
  it('quotes at most a bounded part of a sentence: a text without full stops is not its own summary', () => {
    // Thai marks its sentences with spaces; a body that lost its full stops is one sentence too.
    const thai = 'รัฐบาลประกาศมาตรการใหม่เพื่อช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากภัยแล้ง '.repeat(60);
    const words = 'the council said the work would go on through the winter '.repeat(200);
    for (const text of [thai, words]) {
      const [summary] = summarizeToSentences(text, 1);
      expect(summary!.length).toBeLessThanOrEqual(longestSummarySentence + 1);
      expect(summary!.endsWith('…')).toBe(true);
      expect(text.startsWith(summary!.slice(0, -1))).toBe(true);
    }
    // Cut at a word's end where there are spaces.
    expect(summarizeToSentences(words, 1)[0]).toMatch(
      / (the|council|said|work|would|go|on|through|winter)…$/,
    );
    // A sentence of ordinary length is quoted whole.
    expect(summarizeToSentences('The council met on Monday. It said little.', 1)[0]).toBe(
      'The council met on Monday.',
    );
  });

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

  it('says nothing twice, even when the text says everything twice: the summary is then shorter', () => {
    const article = [
      'Acme Corp will cut 1,200 jobs in Europe this year.',
      'Unions in Germany threatened strikes at two Acme Corp plants over the jobs.',
      'The company said demand for its machines had fallen by a fifth.',
      'Shares in Acme rose 3% in Frankfurt.',
    ].join(' ');
    const summary = summarizeToSentences(`${article}\n\n${article}\n\n${article}`, 8);
    expect(new Set(summary).size).toBe(summary.length);
    expect(summary).toHaveLength(4);
  });

  it("chooses no call to subscribe, byline or blog footer, though it names the story's words", () => {
    const text = [
      'Sign up for our Acme jobs newsletter to get Acme Corp news first.',
      'By Sarah Jones, Acme Corp correspondent',
      'Acme Corp will cut 1,200 jobs in Europe this year.',
      'Unions threatened strikes at two Acme Corp plants over the jobs.',
      'The post Acme Corp will cut 1,200 jobs appeared first on Daily Wire.',
    ].join('\n');
    const title = 'Acme Corp to cut 1,200 jobs';
    expect(summarizeToSentences(text, 2, { title })).toEqual([
      'Acme Corp will cut 1,200 jobs in Europe this year.',
      'Unions threatened strikes at two Acme Corp plants over the jobs.',
    ]);
    // A text that is nothing else is summarised as it is.
    expect(summarizeToSentences('Sign up for our newsletter.', 1)).toEqual(['Sign up for our newsletter.']);
  });

  it('chooses no heading: a line of a few words without a stop, which would run into the next sentence', () => {
    const text = [
      'Floods hit Valencia',
      'Heavy rain caused severe flooding in Valencia on Tuesday, the weather agency said.',
      'What happens next',
      'The regional government said it would ask Madrid for emergency funds for Valencia.',
      // the same words, but a sentence: a stop, or more words than a heading has
      'Valencia floods.',
      'Flood water in Valencia rose overnight in streets near the river and the old town and the port',
    ].join('\n');
    const chosen = summarizeToSentences(text, 4, { title: 'Floods in Valencia' });
    expect(chosen).not.toContain('Floods hit Valencia');
    expect(chosen).not.toContain('What happens next');
    expect(chosen).toHaveLength(4);
    // a heading that is a paragraph's last sentence of several is no heading
    expect(summarizeToSentences('Rain fell. Floods hit Valencia', 2)).toEqual([
      'Rain fell.',
      'Floods hit Valencia',
    ]);
    // a text of headings alone is summarised as it is
    expect(summarizeToSentences('Floods hit Valencia', 1)).toEqual(['Floods hit Valencia']);
    // in a text that ends no sentence with a stop (Thai marks them with spaces; a list of points) no line is
    // a heading: each is a sentence
    const points = [
      'Rain flooded Valencia overnight',
      'Hundreds of residents of the old town and the port were taken from their homes by boat and by truck',
      'The government asked Madrid for funds',
    ];
    expect(summarizeToSentences(points.join('\n'), 3)).toEqual(points);
  });

  it('gives everything back when asked for more sentences than there are', () => {
    expect(summarizeToSentences('One sentence here. Another one there.', 5)).toEqual([
      'One sentence here.',
      'Another one there.',
    ]);
  });
});

describe('rankSentences', () => {
  it('ranks sentences past the 400th by position and headline alone', () => {
    // Distinct filler first, then sentences that all say the same thing: in the graph they would lead.
    const filler = Array.from(
      { length: graphedSentences },
      (_, i) => `Item${i} alpha${i} beta${i} gamma${i}.`,
    );
    const chorus = Array.from({ length: 30 }, () => 'Markets fell sharply as investors feared rising rates.');
    const ranked = rankSentences([...filler, ...chorus].join(' '));
    const late = ranked.filter((r) => r.index >= graphedSentences);
    expect(late).toHaveLength(30);
    expect(Math.max(...late.map((r) => r.score))).toBeLessThan(0.1);
    // The same chorus within the first 400 leads.
    const early = rankSentences([...chorus, ...filler].join(' '));
    expect(early[0]!.index).toBeLessThan(30);
  });

  it('ranks every sentence, best first, the best scoring 1', () => {
    const ranked = rankSentences(layoffsArticle.text, { title: layoffsArticle.title });
    expect(ranked).toHaveLength(splitSentences(layoffsArticle.text).length);
    expect(ranked[0]!.score).toBe(1);
    for (let i = 1; i < ranked.length; i += 1)
      expect(ranked[i]!.score).toBeLessThanOrEqual(ranked[i - 1]!.score);
  });
});
