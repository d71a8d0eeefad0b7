import { describe, expect, it } from 'vitest';
import type { CorpusArticle } from '../../../services/demo/corpus.ts';
import { blocks, latencies, rotation, throughputRatio, totals, type SideRun } from './figures.ts';
import { articleWords, pickEvenly, spokenText, textSizes, textsOfLength } from './texts.ts';

const runOf = (side: string, block: number, fields: Partial<SideRun>): SideRun => ({
  side,
  block,
  articles: 10,
  wallSeconds: 10,
  audioSeconds: 200,
  cpuSeconds: 9,
  ...fields,
});

describe('bench:audio figures', () => {
  it('adds a side’s runs up into articles/s, real-time factor and CPU per article', () => {
    const t = totals([
      runOf('narrator', 0, {}),
      runOf('narrator', 1, { wallSeconds: 30, audioSeconds: 400 }),
    ]);
    expect(t).toMatchObject({ articles: 20, wallSeconds: 40, audioSeconds: 600, cpuSeconds: 18 });
    expect(t.articlesPerSecond).toBe(0.5);
    expect(t.realTimeFactor).toBe(15);
    expect(t.cpuPerArticle).toBe(0.9);
  });

  it('compares throughput in articles, not in seconds of audio', () => {
    const narrator = totals([runOf('narrator', 0, { wallSeconds: 12.5, audioSeconds: 190 })]);
    const engine = totals([runOf('engine', 0, { wallSeconds: 10, audioSeconds: 200 })]);
    expect(throughputRatio(narrator, engine)).toBeCloseTo(0.8, 10);
  });

  it('takes nearest-rank percentiles whatever the order of the samples', () => {
    const l = latencies([50, 10, 40, 30, 20, 60, 70, 80, 90, 100]);
    expect(l).toEqual({ count: 10, p50: 50, p90: 90, min: 10, max: 100 });
    expect(latencies([7]).p50).toBe(7);
    expect(latencies([]).p50).toBeNaN();
  });

  it('lets each side go first in turn, and cuts the texts into blocks', () => {
    expect([0, 1, 2, 3].map((b) => rotation(['a', 'b', 'c'], b).join(''))).toEqual([
      'abc',
      'bca',
      'cab',
      'abc',
    ]);
    expect(blocks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('bench:audio texts', () => {
  const article = (id: string, paragraphs: string[]): CorpusArticle => ({
    id,
    category: id.split('/')[0]!,
    title: 'Markets rally',
    paragraphs,
  });

  it('spreads its picks over the whole corpus', () => {
    expect(pickEvenly([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4)).toEqual([0, 2, 5, 7]);
    expect(pickEvenly([1, 2], 5)).toEqual([1, 2]);
  });

  it('reads an article as the narrator does: the headline as a sentence, then the AI summary', () => {
    const words = articleWords(
      article('business/001', ['First paragraph.', 'Second.']),
      'Shares rose.\nBanks led.',
      'en',
    );
    expect(words).toMatchObject({ summary: 'First paragraph.', content: 'First paragraph.\nSecond.' });
    expect(spokenText(words)).toBe('Markets rally. Shares rose. Banks led.');
  });

  it('builds distinct texts of about the asked length, ending with a full stop', () => {
    const sentences = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} says something about the markets, the weather and sport.`,
    );
    const texts = textsOfLength(sentences, 200, 12);
    expect(new Set(texts).size).toBe(12);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(200);
      expect(text.length).toBeGreaterThanOrEqual(185);
      expect(text).toMatch(/\w\.$/);
    }
    expect(() => textsOfLength(sentences.slice(0, 3), 200, 12)).toThrow(/only/);
  });

  it('measures texts in characters (code points) and words', () => {
    expect(textSizes(['a bc', 'déjà vu now', 'x'])).toEqual({
      texts: 3,
      characters: { total: 4 + 11 + 1, min: 1, median: 4, max: 11 },
      words: 6,
    });
  });
});
