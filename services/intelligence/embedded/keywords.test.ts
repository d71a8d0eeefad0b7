import { describe, expect, it } from 'vitest';
import { extractKeywords, maxKeywords } from './keywords.ts';
import { layoffsArticle } from '../../../test/support/sample-articles.ts';
import { parseSentences } from './sentences.ts';

const keywords = (text: string, title = '') => extractKeywords(parseSentences(title), parseSentences(text));

describe('extractKeywords', () => {
  it('gives lowercase dictionary forms of the nouns the article keeps using, most relevant first', () => {
    const found = keywords(layoffsArticle.text, layoffsArticle.title);
    expect(found.slice(0, 3)).toEqual(expect.arrayContaining(['job', 'layoff']));
    for (const k of found) expect(k).toBe(k.toLowerCase());
  });

  it('leaves names to entities and ignores words used once', () => {
    const found = keywords(
      'Acme Corp opened a factory.\nThe factory in Poland makes robots.\nAcme Corp said so.',
    );
    expect(found).toEqual(['factory']);
  });

  it('keeps a recurring noun phrase, ahead of its parts', () => {
    const text = [
      'The central bank raised interest rates on Thursday.',
      'Higher interest rates will slow borrowing.',
      'Economists expect interest rates to stay high.',
    ].join('\n');
    expect(keywords(text)[0]).toBe('interest rate');
  });

  it('shows a plural in its singular, but never a word respelt or a mass noun made singular', () => {
    const text = [
      'The harbour authority said new data showed harbour traffic rose, and layoffs followed.',
      'Data from the harbour were shared; the crises and the layoffs worried the colour printers.',
      'More colour printers and more data will come to the harbour, and the crises go on.',
    ].join('\n');
    const found = keywords(text);
    expect(found).toEqual(expect.arrayContaining(['harbour', 'data', 'layoff', 'crisis', 'colour printer']));
    for (const respelt of ['harbor', 'datum', 'color printer']) expect(found).not.toContain(respelt);
  });

  it('skips generic news nouns and caps the list', () => {
    const text = Array.from(
      { length: 30 },
      (_, i) => `The year brought tariff${i} news and tariff${i} talks.`,
    ).join('\n');
    const found = keywords(text);
    expect(found.length).toBeLessThanOrEqual(maxKeywords);
    expect(found).not.toContain('year');
  });
});
