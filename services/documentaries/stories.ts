// The stories a documentary tells: of the articles gathered for a topic, the ones about it, ranked by
// how closely and how recently, with the same story from several outlets (or one outlet twice, after
// an update) folded into one. Pure: the gatherer reads the articles, this only judges them.
//
// Words are compared as the embedded intelligence reads them (services/intelligence/embedded/): wink's
// tokens, Porter stems, its stop words; so "chips" matches "chip" and "rates" matches "rate".
import { parseSentences, type Sentence, type Token } from '../intelligence/embedded/sentences.ts';
import { plainLine, plainText } from '../runtime/plain-text.ts';
import { isNotWriting } from '../intelligence/embedded/page-furniture.ts';
import { categoryWord, isCategory, type Category } from '../runtime/categories.ts';

export { isNotWriting };

export interface CandidateArticle {
  id: string;
  title: string;
  /** AI summary when enriched, else the feed's summary; may be '' */
  summary: string;
  /** full text when known, else '' */
  content: string;
  /** Display name, e.g. "BBC News". */
  source: string;
  sourceId: string;
  url: string;
  publishedAt: Date;
  language: string | null;
  category: string | null;
  /** From enrichment, may be []. */
  keywords: string[];
}

export interface Story {
  lead: CandidateArticle;
  /** The lead first, then the others covering the same story, most relevant first. */
  articles: CandidateArticle[];
  relevance: number;
}

export interface PickOptions {
  now: Date;
  maxStories: number;
  /** Stories whose relevance (see pickStories) is under this are left out; default 0. */
  minRelevance?: number;
}

/**
 * How much a topic word counts where it is found. The headline says what an article is about; the
 * enrichment's keywords are what it keeps coming back to; the summary is its gist; the body mentions
 * much in passing.
 */
export const fieldWeights = { title: 4, keywords: 3, summary: 2, content: 1 } as const;
type Field = keyof typeof fieldWeights;
const fields = Object.keys(fieldWeights) as Field[];
const totalFieldWeight = fields.reduce((sum, f) => sum + fieldWeights[f], 0);

/**
 * Occurrences of a topic word at which a field counts as fully about it. Once is enough for a headline
 * or a keyword; a summary or a body that means it says it again (a body 3 times, it is longer).
 */
const saturation: Record<Field, number> = { title: 1, keywords: 1, summary: 2, content: 3 };

/**
 * The least topic match (before recency) for an article to be about the topic. One mention of a
 * one-word topic in the body scores 1/30 (see pickStories): a passing mention, below it; two, or one in
 * the summary, headline or keywords, above.
 */
export const minTopicMatch = 0.04;

/** Recency: an article this many days old counts half as much as one published now (see pickStories). */
export const halfRelevanceDays = 7;

/**
 * Two articles whose story vectors (see storyVector) have at least this cosine similarity tell the same
 * story. The vectors are tf-idf over the gathered articles, so words many of them share (the topic's
 * own, when the gatherer searched for it) weigh little, and what tells one story from another (names,
 * figures, the event's words) weighs most. On the hand-written articles of the tests, reworded reports
 * of one story by two outlets score 0.36-0.65, different stories at most 0.25 (two central banks holding
 * rates in the same week; two memory-chip makers). 0.32 sits between, a little nearer the same-story
 * side, because a missed merge (one story told twice) is a lesser harm than a wrong one (two stories
 * told as one, an outlet credited with a report it did not make).
 */
export const sameStoryThreshold = 0.32;
/** Coverage published further apart than this is a new development, not the same story. */
export const sameStoryWindowHours = 72;
/** Each further outlet covering a story adds this share to its relevance, up to `maxCoverageBonus`. */
const coverageBonus = 0.1;
const maxCoverageBonus = 0.3;
/** Characters of a body read for relevance: past this, an article is not becoming more on topic. */
const maxContentChars = 20_000;

/**
 * Words of a topic that frame the request rather than name a subject: "the week in semiconductors"
 * is about semiconductors, and every article of the week says "week". Compared as stems.
 */
const framingWordList = [
  'week',
  'weekly',
  'weekend',
  'day',
  'daily',
  'today',
  'tonight',
  'month',
  'year',
  'news',
  'latest',
  'update',
  'happen',
  'story',
  'headline',
  'roundup',
  'recap',
  'digest',
  'brief',
  'briefing',
  'past',
  'recent',
];
let framingStems: ReadonlySet<string> | null = null;
/** Stemmed on first use: importing this module for its types should not start the language model. */
function framingWords(): ReadonlySet<string> {
  framingStems ??= new Set(termsOf(parseSentences(framingWordList.join('\n'))));
  return framingStems;
}

/**
 * How much an article of the category a topic names counts as about it (see topicCategory): as much as
 * the topic among its keywords. A documentary on "business" is about the business news, most of which
 * never says "business".
 */
export const categoryMatch = fieldWeights.keywords / totalFieldWeight;

/**
 * The category a topic names, when it names one and nothing else (framing words aside): "business",
 * "Tech news", "the week in sport". A topic that names one among other words ("sport funding") is about
 * those words, not the category.
 */
export function topicCategory(topic: string): Category | null {
  const framing = framingWords();
  const words = parseSentences(topic.replace(/\s+/g, ' '))
    .flatMap((s) => s.tokens)
    .filter((t) => isContentWord(t) && !framing.has(t.stem));
  if (words.length !== 1) return null;
  const category = categoryWord(words[0]!.normal.toLowerCase());
  return isCategory(category) && category !== 'general' ? category : null;
}

/**
 * The stories about `topic`, best first: relevance descending, then the newest lead, then the lead's id,
 * so that the same articles always give the same documentary, in whatever order they were read.
 *
 * Relevance of an article = match × recency, where
 * - match (0..1) = coverage × Σ_terms Σ_fields w_f · min(1, tf_f / s_f) / (|terms| · Σ w_f), times
 *   (2 + phrase) / 3 when the topic has several words. coverage is the share of the topic's content
 *   words found anywhere in the article (an article about "interest" alone is not about "interest
 *   rates"); w_f are fieldWeights, s_f the saturation counts; phrase (0..1) is the same field-weighted
 *   share for the topic's adjacent word pairs found adjacent ("interest rates", not "interest in ...
 *   rates").
 * - recency = 1 / (1 + ageDays / halfRelevanceDays): a gentle hyperbolic decay, 1 now, 0.5 after a
 *   week, 0.33 after two, so that a headline about the topic from six days ago still outranks a
 *   passing mention from this morning.
 * An article holding fewer of the topic's content words than requiredTerms (both of two, two of three,
 * three of four or five) is matched on its headline alone; an article of the category the topic names
 * (topicCategory) matches at least categoryMatch.
 * An article whose match is under minTopicMatch (no topic word, or a passing mention) leads no story;
 * it may still join one as another outlet's report of it. A story's relevance is its lead's, plus
 * `coverageBonus` for each further outlet that covered it (up to `maxCoverageBonus`): what many
 * newsrooms reported matters more.
 */
export function pickStories(
  topic: string,
  articles: readonly CandidateArticle[],
  options: PickOptions,
): Story[] {
  // The topic is in the articles' language (the gatherer reads one): its stop words are theirs.
  const query = topicQuery(topic, articles[0]?.language ?? null);
  if (query.terms.length === 0 || options.maxStories <= 0) return [];
  const category = topicCategory(topic);
  const scored = articles
    .map((article) => {
      const parsed = parseCandidate(article);
      const inCategory = category !== null && article.category === category;
      const match = Math.max(topicMatch(query, parsed), inCategory ? categoryMatch : 0);
      return { article, parsed, match, relevance: match * recency(article.publishedAt, options.now) };
    })
    .sort((a, b) => compareArticles(a, b));
  const onTopic = scored.filter((s) => s.match >= minTopicMatch);
  if (onTopic.length === 0) return [];

  const idf = inverseDocumentFrequency(scored.map((s) => s.parsed));
  const vectors = new Map(scored.map((s) => [s, storyVector(s.parsed, idf)]));
  const groups: (typeof scored)[] = [];
  const sameStoryAs = (candidate: (typeof scored)[number]) => {
    let best: (typeof scored)[number][] | null = null;
    let bestSimilarity = 0;
    for (const group of groups) {
      for (const member of group) {
        const apart = Math.abs(
          candidate.article.publishedAt.getTime() - member.article.publishedAt.getTime(),
        );
        if (apart > sameStoryWindowHours * 3_600_000) continue;
        const similarity = cosine(vectors.get(candidate)!, vectors.get(member)!);
        if (similarity > bestSimilarity) {
          bestSimilarity = similarity;
          best = group;
        }
      }
    }
    return bestSimilarity >= sameStoryThreshold ? best : null;
  };
  // Best first, so that each group's first is its lead and the rest follow in order.
  for (const candidate of onTopic) {
    const group = sameStoryAs(candidate);
    if (group) group.push(candidate);
    else groups.push([candidate]);
  }
  // An outlet's report of a story that does not use the topic's words (one says "chips", the topic
  // "semiconductors") still covered it: it joins the story, after those about the topic, but never
  // makes a story of its own.
  for (const candidate of scored) {
    if (candidate.match >= minTopicMatch) continue;
    sameStoryAs(candidate)?.push(candidate);
  }

  const minRelevance = options.minRelevance ?? 0;
  return groups
    .map((group) => {
      const members = group;
      const lead = members[0]!;
      const outlets = new Set(members.map((m) => m.article.sourceId)).size;
      const bonus = Math.min(maxCoverageBonus, coverageBonus * (outlets - 1));
      return {
        lead: lead.article,
        articles: members.map((m) => m.article),
        relevance: lead.relevance * (1 + bonus),
      };
    })
    .filter((story) => story.relevance > 0 && story.relevance >= minRelevance)
    .sort(
      (a, b) =>
        b.relevance - a.relevance ||
        b.lead.publishedAt.getTime() - a.lead.publishedAt.getTime() ||
        compareIds(a.lead.id, b.lead.id),
    )
    .slice(0, options.maxStories);
}

/**
 * The stories within `max` cited articles: each story's lead first, best story first, then each story's
 * next outlet in turn, so that a short documentary covers the top stories rather than one story told by
 * eight outlets (the copies filled the whole allowance, and a story of eight reports was all a short one
 * held). A report of a story by the same source under the same headline (a feed that republishes its
 * items, the same wire story twice) is left out: it says nothing the first did not. Stories that get no
 * article are dropped; the order of stories and of their articles is kept.
 */
export function citedWithin(stories: readonly Story[], max: number): Story[] {
  const distinct = stories.map((story) => {
    const seen = new Set<string>();
    return story.articles.filter((a) => {
      const key = `${a.sourceId}\u0000${a.title.trim().toLowerCase().replace(/\s+/g, ' ')}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
  const taken = distinct.map(() => 0);
  let count = 0;
  for (let round = 0; count < max; round += 1) {
    let more = false;
    for (let s = 0; s < distinct.length && count < max; s += 1) {
      if (round < distinct[s]!.length) {
        taken[s] = round + 1;
        count += 1;
        more = true;
      }
    }
    if (!more) break;
  }
  return stories.flatMap((story, s) =>
    taken[s]! > 0 ? [{ ...story, articles: distinct[s]!.slice(0, taken[s]) }] : [],
  );
}

/**
 * Content words of tokens as comparable terms: stems of words that are not stop words (nor single
 * letters, nor a clitic "'s"); numbers too when asked, as written ("1,200", "4.5"), since a shared
 * figure is strong evidence of a shared story.
 */
export function contentTerms(tokens: readonly Token[], withNumbers = false): string[] {
  const terms: string[] = [];
  const acronyms = acronymStopWords(tokens);
  for (const t of tokens) {
    const term = acronyms.has(t)
      ? t.text
      : isContentWord(t)
        ? t.stem
        : withNumbers && t.kind === 'number'
          ? t.normal
          : null;
    if (term) terms.push(term);
  }
  return terms;
}

function isContentWord(t: Token): boolean {
  return t.kind === 'word' && !t.stopWord && t.normal.length > 1 && /^\p{L}/u.test(t.normal);
}

function storyTerm(t: Token, acronyms: ReadonlySet<Token>): string | null {
  return acronyms.has(t) ? t.text : isContentWord(t) ? t.stem : t.kind === 'number' ? t.normal : null;
}

/**
 * Stop words written as acronyms ("US", "WHO", "IT"): 2 to 5 capital letters among words that are not
 * all capitals ("THE US ELECTION" has none). Their term is the acronym as written, which no stem (in
 * lower case) can equal, so "US" never meets the pronoun "us".
 */
export function acronymStopWords(tokens: readonly Token[]): Set<Token> {
  const words = tokens.filter((t) => t.kind === 'word');
  const shouting = words.length > 1 && words.every((t) => t.text === t.text.toUpperCase());
  return new Set(shouting ? [] : words.filter((t) => t.stopWord && /^[A-Z]{2,5}$/.test(t.text)));
}

function termsOf(sentences: readonly Sentence[]): string[] {
  return sentences.flatMap((s) => contentTerms(s.tokens));
}

interface TopicQuery {
  terms: string[];
  /** Adjacent pairs of the topic's terms, "interest rate" as ["interest", "rate"]. */
  pairs: [string, string][];
}

function topicQuery(topic: string, language: string | null): TopicQuery {
  const sentences = parseSentences(topic.replace(/\s+/g, ' '), language);
  const all = termsOf(sentences);
  const framing = framingWords();
  const subject = all.filter((t) => !framing.has(t));
  // A topic made only of framing words ("the news") is taken at its word.
  const sequence = subject.length > 0 ? subject : all;
  const terms = [...new Set(sequence)];
  const pairs: [string, string][] = [];
  for (let i = 1; i < sequence.length; i += 1) {
    const pair: [string, string] = [sequence[i - 1]!, sequence[i]!];
    if (pair[0] !== pair[1] && !pairs.some((p) => p[0] === pair[0] && p[1] === pair[1])) pairs.push(pair);
  }
  return { terms, pairs };
}

interface ParsedCandidate {
  /** Per field, the content terms of each sentence (each keyword is a sentence of its own). */
  fields: Record<Field, string[][]>;
  /** Weighted counts of the terms that tell this story from others (see storyVector). */
  storyCounts: Map<string, number>;
}

/** Opening sentences of a body that join the headline and summary in telling which story it is. */
const storyOpening = 3;

function parseCandidate(article: CandidateArticle): ParsedCandidate {
  const { language } = article;
  const title = parseSentences(plainLine(article.title), language);
  const summary = parseSentences(cleanArticleText(article.summary), language);
  const content = parseSentences(cleanArticleText(article.content.slice(0, maxContentChars)), language);
  // One keyword a line, so that a phrase does not run into the next keyword.
  const keywords = parseSentences(article.keywords.map((k) => k.replace(/\s+/g, ' ')).join('\n'), language);
  const perSentence = (sentences: readonly Sentence[]) => sentences.map((s) => contentTerms(s.tokens));
  const storyCounts = new Map<string, number>();
  const count = (sentences: readonly Sentence[], weight: number) => {
    for (const sentence of sentences) {
      const acronyms = acronymStopWords(sentence.tokens);
      sentence.tokens.forEach((token, i) => {
        const term = storyTerm(token, acronyms);
        // A capitalised word inside a sentence is (part of) a name: who and where tell stories apart.
        const named = i > 0 && token.kind === 'word' && /^\p{Lu}/u.test(token.text);
        if (term) storyCounts.set(term, (storyCounts.get(term) ?? 0) + weight * (named ? 2 : 1));
      });
    }
  };
  count(title, 2);
  count(summary, 1);
  count(content.slice(0, storyOpening), 1);
  return {
    fields: {
      title: perSentence(title),
      keywords: perSentence(keywords),
      summary: perSentence(summary),
      content: perSentence(content),
    },
    storyCounts,
  };
}

function topicMatch(query: TopicQuery, parsed: ParsedCandidate): number {
  const everywhere = termMatch(query, parsed, fields);
  // Short of the topic's words, only a headline naming the ones it has says the article is about them
  // ("Mortgage rates fall" for "interest rates"; not a rupee's exchange rate in a summary).
  const { found, termScore } =
    everywhere.found.size >= requiredTerms(query.terms.length)
      ? everywhere
      : termMatch(query, parsed, ['title']);
  if (found.size === 0) return 0;
  const coverage = found.size / query.terms.length;
  const match = (coverage * termScore) / (query.terms.length * totalFieldWeight);
  if (query.pairs.length === 0) return match;
  let phraseScore = 0;
  for (const field of fields) {
    const counts = new Map<number, number>();
    for (const sentence of parsed.fields[field]) {
      for (let i = 1; i < sentence.length; i += 1) {
        const p = query.pairs.findIndex(([a, b]) => a === sentence[i - 1] && b === sentence[i]);
        if (p >= 0) counts.set(p, (counts.get(p) ?? 0) + 1);
      }
    }
    for (const tf of counts.values())
      phraseScore += fieldWeights[field] * Math.min(1, tf / saturation[field]);
  }
  const phrase = phraseScore / (query.pairs.length * totalFieldWeight);
  return (match * (2 + phrase)) / 3;
}

/** The topic's terms found in `within`, and their field-weighted, saturated counts. */
function termMatch(query: TopicQuery, parsed: ParsedCandidate, within: readonly Field[]) {
  const found = new Set<string>();
  let termScore = 0;
  for (const field of within) {
    const counts = new Map<string, number>();
    for (const sentence of parsed.fields[field]) {
      for (const term of sentence) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const term of query.terms) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      found.add(term);
      termScore += fieldWeights[field] * Math.min(1, tf / saturation[field]);
    }
  }
  return { found, termScore };
}

/**
 * Of a topic's `n` content words, how many an article must hold to be about it: all of one or two (an
 * article about rates is not about "interest rates"), then all but one in three (two of three, three
 * of four or five, four of six).
 */
export const requiredTerms = (n: number): number => (n <= 2 ? n : n - Math.floor(n / 3));

function recency(publishedAt: Date, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - publishedAt.getTime()) / 86_400_000;
  return 1 / (1 + ageDays / halfRelevanceDays);
}

type Vector = Map<string, number>;

/**
 * Which story an article tells, as a vector: the content words and figures of its headline (counted
 * twice: it states the story), its summary and the opening of its body (which often repeats the
 * summary: hence the sublinear 1 + ln(count)), names counted double. Weighted by idf over everything gathered
 * (the period's news as the gatherer found it: when that is mostly about the topic, the topic's words
 * are common there and tell little), smoothed as ln(1 + N / df) so that with a handful of articles a
 * shared word still counts.
 */
function storyVector(parsed: ParsedCandidate, idf: (term: string) => number): Vector {
  const vector: Vector = new Map();
  for (const [term, n] of parsed.storyCounts) vector.set(term, (1 + Math.log(n)) * idf(term));
  return vector;
}

function inverseDocumentFrequency(parsed: readonly ParsedCandidate[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const p of parsed) for (const term of p.storyCounts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  return (term) => Math.log(1 + parsed.length / df.get(term)!);
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  for (const [term, w] of a) dot += w * (b.get(term) ?? 0);
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}

function norm(v: Vector): number {
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return Math.sqrt(sum);
}

function compareArticles(
  a: { article: CandidateArticle; relevance: number },
  b: { article: CandidateArticle; relevance: number },
): number {
  return (
    b.relevance - a.relevance ||
    b.article.publishedAt.getTime() - a.article.publishedAt.getTime() ||
    compareIds(a.article.id, b.article.id)
  );
}

/** By code unit, not locale: the order must not depend on the machine's locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- article text --------------------------------------------------------------------------------

export function cleanArticleText(text: string): string {
  // Without markup, a line break is a paragraph break (ArticleText's convention); plainText would join
  // lines that no blank line separates.
  const paragraphs = /<[a-z!/]/i.test(text) ? text : text.replace(/\r?\n/g, '\n\n');
  return plainText(paragraphs)
    .split(/\n+/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0 && !isNotWriting(line))
    .join('\n');
}
