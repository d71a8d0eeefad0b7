import { describe, expect, it } from 'vitest';
import { EnrichmentRejectedError, type RelatedArticle } from '../provider.ts';
import { createEmbeddedProvider, extractTerms, rankSentences } from './embedded-provider.ts';
import { cupFinalArticle, layoffsArticle } from '../../../test/support/sample-articles.ts';
import { splitSentences } from './sentences.ts';

const provider = createEmbeddedProvider();
const related: RelatedArticle[] = [
  {
    id: 'art_earlier',
    title: 'Acme Corp warns on profits',
    source: 'Daily Wire',
    publishedAt: new Date('2026-11-19T08:00:00Z'),
    sharedTerms: ['Acme Corp', 'layoff'],
    summary: null,
  },
];

describe('embedded provider', () => {
  it('names itself and its method version', () => {
    expect(provider.name).toBe('embedded');
    expect(provider.model).toBe('embedded-16');
  });

  it('enriches an article with every field filled from its text', async () => {
    const e = await provider.enrich(layoffsArticle, { length: 'medium', related });
    const body = splitSentences(layoffsArticle.text);
    expect(splitSentences(e.summary).every((s) => body.includes(s))).toBe(true);
    expect(e.context).toContain('"Acme Corp warns on profits" (Daily Wire, 19 Nov 2026)');
    expect(e.contextArticleIds).toEqual(['art_earlier']);
    expect(e.insights.length).toBeGreaterThanOrEqual(3);
    expect(e.insights.length).toBeLessThanOrEqual(5);
    expect(['positive', 'neutral', 'negative', 'mixed']).toContain(e.sentiment.label);
    expect(Math.abs(e.sentiment.score)).toBeLessThanOrEqual(1);
    expect(e.entities[0]).toMatchObject({ name: 'Acme Corp', type: 'organization', salience: 1 });
    expect(e.keywords).toContain('layoff');
    expect(e.category).toBe('business');
    expect(e.language).toBe('en');
    expect(e.readingTimeSeconds).toBeGreaterThan(20);
    expect(e).toMatchObject({ provider: 'embedded', model: 'embedded-16' });
  });

  it('takes no call to subscribe or blog footer for its summary or insights, however long', async () => {
    const text = [
      layoffsArticle.text,
      'Sign up for our newsletter: get the most important stories about Acme Corp, its jobs and its plants in your inbox every morning.',
      'The post Acme Corp will cut 1,200 jobs in Europe appeared first on Daily Wire.',
    ].join('\n\n');
    for (const length of ['short', 'medium', 'long'] as const) {
      const e = await provider.enrich({ ...layoffsArticle, text }, { length, related });
      for (const said of [e.summary, ...e.insights])
        expect(said, length).not.toMatch(/newsletter|appeared first/);
    }
  });

  it('summarises Japanese by its sentences and times it by its characters', async () => {
    const text =
      '日本銀行は19日、金融政策決定会合でマイナス金利政策の解除を決めた。17年ぶりの利上げとなる。' +
      '総裁は記者会見で「賃金と物価の好循環が強まっている。」と述べた。市場では円相場が一時下落した。\n' +
      '政府は日銀の判断を尊重する考えを示した。今後の追加利上げの時期に注目が集まる。';
    const e = await provider.enrich(
      { title: '日銀、マイナス金利を解除', text, language: 'ja' },
      { length: 'short', related: [] },
    );
    expect(e.summary).toBe('日本銀行は19日、金融政策決定会合でマイナス金利政策の解除を決めた。');
    expect(e.language).toBe('ja');
    // About 130 characters at 357 a minute.
    expect(e.readingTimeSeconds).toBeGreaterThanOrEqual(18);
    expect(e.readingTimeSeconds).toBeLessThanOrEqual(26);
  });

  it('has no context without related articles', async () => {
    const e = await provider.enrich(cupFinalArticle, { length: 'short', related: [] });
    expect(e.context).toBeNull();
    expect(e.contextArticleIds).toEqual([]);
    expect(e.category).toBe('sports');
  });

  it('is deterministic', async () => {
    const a = await provider.enrich(layoffsArticle, { length: 'long', related });
    const b = await provider.enrich(layoffsArticle, { length: 'long', related });
    expect(b).toEqual(a);
  });

  it('reports the same entity names and keywords from extractTerms as from enrich', async () => {
    for (const article of [layoffsArticle, cupFinalArticle]) {
      const e = await provider.enrich(article, { length: 'medium', related: [] });
      expect(extractTerms(article)).toEqual({
        entities: e.entities.map((x) => x.name),
        keywords: e.keywords,
      });
    }
  });

  it('rejects empty or whitespace-only text for good, in every method', async () => {
    const empty = { title: 'A headline', text: ' \n\t ' };
    await expect(provider.enrich(empty, { length: 'short', related: [] })).rejects.toThrow(
      EnrichmentRejectedError,
    );
    await expect(provider.summarize(empty, { length: 'short', tone: 'neutral' })).rejects.toThrow(
      'empty article text',
    );
    await expect(provider.educate(empty, {})).rejects.toBeInstanceOf(EnrichmentRejectedError);
  });

  it('stops when the caller aborts', async () => {
    const signal = AbortSignal.abort();
    await expect(provider.enrich(layoffsArticle, { length: 'short', related: [], signal })).rejects.toThrow();
  });

  it("scores another language's sentiment and category with its own lexicon and vocabulary", async () => {
    const e = await provider.enrich(
      {
        title: 'Erdbeben: Viele Tote und Verletzte',
        text: 'Bei dem schweren Erdbeben sind nach Angaben der Behörden mindestens 40 Menschen ums Leben gekommen, Hunderte wurden verletzt. Die Opfer sind unter den Trümmern eingeschlossen, die Krise verschärft sich.',
      },
      { length: 'short', related: [] },
    );
    expect(e.language).toBe('de');
    expect(e.sentiment.label).toBe('negative');
    expect(e.category).toBe('world');
  });

  it('summarises at three lengths and in the asked tone', async () => {
    const count = async (length: 'short' | 'medium' | 'long') =>
      splitSentences((await provider.summarize(layoffsArticle, { length, tone: 'neutral' })).summary).length;
    expect(await count('short')).toBe(1);
    expect(await count('medium')).toBe(3);
    expect(await count('long')).toBe(4);
    const article = { title: 'Strike', text: 'The union did not agree.\nIt is unclear what happens next.' };
    expect(await provider.summarize(article, { length: 'long', tone: 'casual' })).toEqual({
      summary: "The union didn't agree.",
      tone: 'casual',
    });
  });

  it('gives an executive summary as points, most important first', async () => {
    const neutral = await provider.summarize(layoffsArticle, { length: 'medium', tone: 'neutral' });
    const executive = await provider.summarize(layoffsArticle, { length: 'medium', tone: 'executive' });
    const points = executive.summary.split('\n');
    expect(points.every((p) => p.startsWith('- '))).toBe(true);
    // The same sentences as the neutral summary; the first point is the article's top-ranked sentence.
    const [top] = rankSentences(layoffsArticle.text, { title: layoffsArticle.title });
    expect(points[0]).toBe(`- ${top!.text}`);
    expect(points.map((p) => p.slice(2)).sort()).toEqual(splitSentences(neutral.summary).sort());
  });

  it('educates with key terms, a reading level and questions', async () => {
    const education = await provider.educate(layoffsArticle, {});
    expect(education.keyTerms.length).toBeGreaterThanOrEqual(5);
    expect(education.keyTerms.length).toBeLessThanOrEqual(8);
    expect(education.keyTerms[0]!.explanation).toContain('"');
    expect(education.readingLevel!.grade).toBeGreaterThan(5);
    expect(education.readingLevel!.label).toBe('middle school');
    expect(education.questions.length).toBeGreaterThanOrEqual(3);
    expect(education.questions.length).toBeLessThanOrEqual(5);
    expect(education.questions[0]).toBe('Why will Acme Corp cut 1,200 jobs in Europe?');
  });
});
