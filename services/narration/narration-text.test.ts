import { describe, expect, it } from 'vitest';
import { leadOf, narrationLanguage, narrationText, type ArticleWords } from './narration-text.ts';

const article = (overrides: Partial<ArticleWords> = {}): ArticleWords => ({
  title: 'Ad sales boost Time Warner profit',
  summary: 'Quarterly profits at US media giant TimeWarner jumped 76%.',
  content:
    'Quarterly profits at US media giant TimeWarner jumped 76% to $1.13bn.\n\nIts profits were buoyed by one-off gains.',
  aiSummary: 'Time Warner profits rose 76% on higher advertising sales.',
  language: 'en',
  ...overrides,
});

describe('narrationText', () => {
  it('reads the headline as a sentence, then the AI summary', () => {
    expect(narrationText(article(), 'summary')).toBe(
      'Ad sales boost Time Warner profit.\nTime Warner profits rose 76% on higher advertising sales.',
    );
  });

  it("falls back to the feed's summary, then the start of the text, when the enrichment has none", () => {
    expect(narrationText(article({ aiSummary: null }), 'summary')).toContain('jumped 76%.');
    const long = 'One sentence here. '.repeat(200);
    const text = narrationText(article({ aiSummary: null, summary: '', content: long }), 'summary');
    expect(text.length).toBeLessThanOrEqual(1_250);
    expect(text.endsWith('here.')).toBe(true);
  });

  it('does not read the headline twice: a summary that is the title, or starts with it', () => {
    const title = 'Promotoria abre inquérito para apurar suspeita de improbidade de Skaf no Sebrae-SP';
    // The AI summary of a short item is often its title: the feed's summary is read instead, or nothing.
    expect(
      narrationText(article({ title, aiSummary: `${title}.`, summary: '', content: '' }), 'summary'),
    ).toBe(`${title}.`);
    expect(
      narrationText(
        article({ title, aiSummary: title, summary: 'O Ministério Público abriu inquérito.' }),
        'summary',
      ),
    ).toBe(`${title}.\nO Ministério Público abriu inquérito.`);
    expect(
      narrationText(
        article({ aiSummary: 'AD SALES BOOST  Time Warner profit: the quarter was strong.' }),
        'summary',
      ),
    ).toBe('Ad sales boost Time Warner profit.\nthe quarter was strong.');
    // A summary that goes on with the title's words inside a longer phrase is read whole.
    expect(
      narrationText(article({ aiSummary: 'Ad sales boost Time Warner profits in the quarter.' }), 'summary'),
    ).toBe('Ad sales boost Time Warner profit.\nAd sales boost Time Warner profits in the quarter.');
  });

  it('reads the whole article in full mode, keeping paragraphs apart', () => {
    expect(narrationText(article(), 'full')).toBe(
      'Ad sales boost Time Warner profit.\nQuarterly profits at US media giant TimeWarner jumped 76% to $1.13bn.\nIts profits were buoyed by one-off gains.',
    );
  });

  it('keeps a headline that already ends a sentence as it is, and is empty without words', () => {
    expect(
      narrationText(article({ title: 'Is this the end?' }), 'summary').startsWith('Is this the end?\n'),
    ).toBe(true);
    expect(narrationText(article({ title: ' ', summary: '', content: '', aiSummary: null }), 'summary')).toBe(
      '',
    );
  });
});

describe('leadOf', () => {
  it('cuts after the last whole sentence that fits, or at the limit when there is none', () => {
    expect(leadOf('First one. Second one. Third one.', 25)).toBe('First one. Second one.');
    expect(leadOf('x'.repeat(50), 10)).toBe('x'.repeat(10));
    expect(leadOf('short', 10)).toBe('short');
  });
});

describe('narrationLanguage', () => {
  it("takes the article's language, else detects it from enough text", () => {
    expect(narrationLanguage(article({ language: 'de' }), 'anything')).toBe('de');
    const portuguese =
      'O governo anunciou hoje um novo pacote de medidas para a economia, com cortes de impostos para as empresas e apoio às famílias.';
    expect(narrationLanguage(article({ language: null }), portuguese)).toBe('pt');
    expect(narrationLanguage(article({ language: null }), 'Too short.')).toBeNull();
  });
});
