import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.ts';
import { extractInsights, maxInsights, minInsights, plainStatement } from './insights.ts';
import { layoffsArticle } from '../../../test/support/sample-articles.ts';
import { parseSentences } from './sentences.ts';

describe('plainStatement', () => {
  it('puts the speaker of a quotation first', () => {
    expect(plainStatement('"Our performance was strong," chairman Richard Parsons said.')).toBe(
      'Chairman Richard Parsons said: "Our performance was strong."',
    );
    expect(plainStatement('"Is it over?" said Ms Lopez.')).toBe('Ms Lopez said: "Is it over?"');
  });

  it('drops a leading connective', () => {
    expect(plainStatement('However, the company said profit rose 8%.')).toBe(
      'The company said profit rose 8%.',
    );
    expect(plainStatement('But its film division saw profits slump.')).toBe(
      'Its film division saw profits slump.',
    );
  });
});

describe('extractInsights', () => {
  const title = parseSentences(layoffsArticle.title);
  const sentences = parseSentences(layoffsArticle.text);
  const entities = extractEntities(title, sentences);
  const insights = (inSummary: number[]) =>
    extractInsights({ sentences, entities, importance: new Map(), inSummary: new Set(inSummary) });

  it('gives three to five statements carrying figures, quotations or named actors', () => {
    const found = insights([]);
    expect(found.length).toBeGreaterThanOrEqual(minInsights);
    expect(found.length).toBeLessThanOrEqual(maxInsights);
    expect(found).toContain('Analysts at Northbridge Bank said the layoffs would save about $150m a year.');
    expect(found).toContain(
      'Ms Lopez said: "We did not take this decision lightly, and we will support every worker affected."',
    );
    expect(found).not.toContain(
      'The firm employs 40,000 people worldwide.'.replace('40,000', 'forty thousand'),
    );
  });

  it('prefers statements the summary does not already make', () => {
    const first = sentences[0]!.text;
    expect(insights([]).some((i) => i === first)).toBe(true);
    expect(insights([0]).some((i) => i === first)).toBe(false);
  });

  it('makes up the minimum from the rest when few sentences qualify', () => {
    const plain = parseSentences(
      'The town is quiet this time of year.\nThe streets are empty after dark.\nThe shops close early in winter.',
    );
    const found = extractInsights({
      sentences: plain,
      entities: [],
      importance: new Map(),
      inSummary: new Set(),
    });
    expect(found).toHaveLength(3);
  });
});
