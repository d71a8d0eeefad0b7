// The embedded enrichment provider: every capability computed here, offline and deterministic,
// from the article text alone (plus the related articles the caller chose). Sentiment is a lexicon's,
// English's or its translation into the article's language (neutral in a language without one); the
// category a vocabulary's, English's or the article's language's (Spanish, French, German, Italian,
// Portuguese, Russian: translated-category-vocabulary.ts), null in another language rather than guessed. Summaries, insights and keywords work in any language whose words are found
// (other alphabets: other-script-words.ts; Chinese, Japanese, Thai: unspaced-words.ts) with that
// language's stop words (stop-words.ts); entities are found by capital letters and typed by the
// clues of their language (name-clues.ts), or, in Chinese and Japanese, by the words around a name.
import {
  EnrichmentRejectedError,
  type ArticleText,
  type EnrichmentProvider,
  type Enrichment,
  type Education,
} from '../provider.ts';
import { parseArticle, type ParsedArticle } from './article.ts';
import { classifyCategory } from './category.ts';
import { writeContext } from './context.ts';
import { extractEntities } from './entities.ts';
import { extractInsights } from './insights.ts';
import { keyTerms } from './key-terms.ts';
import { extractKeywords } from './keywords.ts';
import { questionsToThinkAbout } from './questions.ts';
import { readingLevel } from './reading-level.ts';
import { readingTimeSeconds } from './reading-time.ts';
import { joinSentences } from './sentences.ts';
import { articleSentiment } from './sentiment.ts';
import { rankParsed, selectSummary, summaryLengthFor } from './summary.ts';
import { applyTone } from './tone.ts';

export { extractTerms } from './terms.ts';
export { rankSentences, summarizeToSentences, summaryLengthFor } from './summary.ts';

export const embeddedProviderName = 'embedded';
/** Bump when a method changes what it produces, so stored enrichments say which version made them. */
export const embeddedModel = 'embedded-16';

export function createEmbeddedProvider(): EnrichmentProvider {
  return {
    name: embeddedProviderName,
    model: embeddedModel,

    async enrich(article, options): Promise<Enrichment> {
      options.signal?.throwIfAborted();
      const parsed = parseNonEmpty(article);
      const { title, sentences, language } = parsed;
      const summary = selectSummary(sentences, title, summaryLengthFor(sentences.length, options.length));
      const entities = extractEntities(title, sentences, language);
      const importance = new Map(rankParsed(sentences, title).map((r) => [r.index, r.score]));
      return {
        summary: joinSentences(summary.map((s) => s.text)),
        ...writeContext(options.related, options.publishedAt),
        insights: extractInsights({
          sentences,
          importance,
          entities,
          inSummary: new Set(summary.map((s) => s.index)),
        }),
        sentiment: articleSentiment(title, sentences, language, entities),
        entities,
        keywords: extractKeywords(title, sentences, language, entities),
        category: classifyCategory(title, sentences, language),
        language,
        readingTimeSeconds: readingTimeSeconds(article.text),
        provider: embeddedProviderName,
        model: embeddedModel,
      };
    },

    async summarize(article, options) {
      options.signal?.throwIfAborted();
      const { title, sentences } = parseNonEmpty(article);
      const count = summaryLengthFor(sentences.length, options.length);
      const chosen = selectSummary(
        sentences,
        title,
        count,
        options.tone === 'executive' ? 'importance' : 'text',
      );
      return {
        summary: applyTone(
          chosen.map((s) => s.text),
          options.tone,
        ),
        tone: options.tone,
      };
    },

    async educate(article, options): Promise<Education> {
      options.signal?.throwIfAborted();
      const { title, sentences, language } = parseNonEmpty(article);
      const entities = extractEntities(title, sentences, language);
      const keywords = extractKeywords(title, sentences, language, entities);
      return {
        keyTerms: keyTerms(entities, keywords, sentences),
        readingLevel: readingLevel(sentences, language),
        questions: questionsToThinkAbout({ sentences, entities, keywords, language }),
      };
    },
  };
}

function parseNonEmpty(article: ArticleText): ParsedArticle {
  if (article.text.trim().length === 0) throw new EnrichmentRejectedError('empty article text');
  return parseArticle(article);
}
