import { describe, expect, it } from 'vitest';
import { parseArticle } from './article.ts';

describe('parseArticle', () => {
  it('parses a text asked for again (terms, enrichment, education of one request) once', () => {
    const text = 'The Bank of England raised rates on Tuesday. Andrew Bailey said inflation was too high.';
    const first = parseArticle({ title: 'Rates rise', text, language: 'en' });
    expect(parseArticle({ title: 'Rates rise', text: `${text}`, language: 'en' })).toBe(first);
    // Another title, language or text is another parse.
    expect(parseArticle({ title: 'Rates', text, language: 'en' })).not.toBe(first);
    expect(parseArticle({ title: 'Rates rise', text, language: 'de' })).not.toBe(first);
    expect(
      parseArticle({ title: 'Rates rise', text: `${text} More.`, language: 'en' }).sentences,
    ).toHaveLength(3);
  });
});
