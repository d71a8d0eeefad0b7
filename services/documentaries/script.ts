// The script of a documentary: what the narrator says, segment by segment, written from the stories
// without adding a fact. The embedded writer is extractive: every sentence of a story segment is either
// one of its articles' own sentences, verbatim, or a framing template that names an outlet and says
// nothing about the news ("Here is what BBC News reported."). Intro, transitions and outro are framing
// too: the topic, the period, how many stories and which outlets.
//
// checkScript holds any script, this writer's or an external model's, to that rule.
import { parseSentences, type Sentence } from '../intelligence/embedded/sentences.ts';
import { rankParsed } from '../intelligence/embedded/summary.ts';
import { plainLine } from '../runtime/plain-text.ts';
import { documentaryLengths, type DocumentaryLength } from './documentary-request.ts';
import { englishSmallNumbers, framingFor, framingSamples, type Framing } from './framing.ts';
import { countSpokenWords } from './spoken-words.ts';
import {
  cleanArticleText,
  contentTerms,
  isNotWriting,
  type CandidateArticle,
  type Story,
} from './stories.ts';

export { documentaryLengths, type DocumentaryLength };

/** Target spoken duration: short ≈ 2 min, medium ≈ 5 min, long ≈ 10 min. */
export const targetSeconds: Record<DocumentaryLength, number> = { short: 120, medium: 300, long: 600 };

/** A calm news read; the narrator's real pace decides the real duration. */
export const defaultWordsPerMinute = 150;

export interface ScriptSegment {
  kind: 'intro' | 'story' | 'transition' | 'outro';
  /** Chapter title (story: the lead's headline; intro: "Introduction"; outro: "Sources"). */
  title: string;
  /** Sentences to speak, in order; each a complete sentence. */
  sentences: string[];
  /** Articles this segment cites (story segments: every article of the story; the outro: all of them). */
  articleIds: string[];
}

export interface Script {
  title: string;
  segments: ScriptSegment[];
  /** Words of all the sentences: what the narrator will say. */
  wordCount: number;
}

export interface ScriptInput {
  topic: string;
  from: Date;
  to: Date;
  /** Best first, as pickStories gives them. */
  stories: readonly Story[];
  length: DocumentaryLength;
  /** Default 150. */
  wordsPerMinute?: number;
  /** The documentary's language (ISO 639-1 or a locale), for the framing words; default English. */
  language?: string;
}

/** What the intro and outro may speak of besides framing words: the topic and the period asked for. */
export interface ScriptFrame {
  topic: string;
  from: Date;
  to: Date;
  language?: string;
}

/**
 * Sentences a story gets before the next story is let in: a longer documentary tells more stories, but
 * tells each of them more fully too, rather than listing headlines.
 */
const sentencesPerStory: Record<DocumentaryLength, number> = { short: 2, medium: 3, long: 4 };
/** Words of a sentence worth speaking: fewer is a fragment or a label, more loses the listener. */
const minSentenceWords = 4;
const maxSentenceWords = 60;
/**
 * A sentence whose content words are mostly said already in its story adds nothing: below this share
 * of new words (another outlet's wording of the lead's facts, say) it is left out.
 */
const minNovelty = 0.4;
/** checkScript: share of a sentence's content words its articles must use, together and in one sentence. */
const supportedShare = 0.8;
const supportedBySentence = 0.5;

/**
 * The script for the stories, in their order, filling `targetSeconds[length]` of speech at
 * `wordsPerMinute` (a budget of words). A longer length tells more stories and more of each: stories are
 * let in while each can get its first `sentencesPerStory[length]` sentences, then the stories take turns,
 * best first, adding their next most informative sentence while it fits. The budget is never exceeded,
 * except that the intro, the outro and the first story's first sentence are always said. When the
 * articles say too little the script is simply shorter: nothing is padded or repeated, and the caller
 * reports the duration the narration really has.
 */
export function writeScript(input: ScriptInput): Script {
  const wordsPerMinute = input.wordsPerMinute ?? defaultWordsPerMinute;
  if (!(wordsPerMinute > 0) || !Number.isFinite(wordsPerMinute)) {
    throw new RangeError(`wordsPerMinute must be a positive number, not ${wordsPerMinute}`);
  }
  const budget = Math.round((targetSeconds[input.length] * wordsPerMinute) / 60);
  const topic = cleanTopic(input.topic);
  const framing = framingFor(input.language);
  const period = periodInWords(input.from, input.to, input.language);
  const plans = input.stories.map(planStory).filter((plan) => plan.pool.length > 0);
  const assemble = (told: readonly StoryPlan[]) => assembleScript(topic, period, told, framing);

  // Let stories in, best first, while each can have its first sentences within the budget.
  const told: StoryPlan[] = [];
  for (const plan of plans) {
    const before = plan.chosen.length;
    for (let k = 0; k < sentencesPerStory[input.length]; k += 1) addNextSentence(plan);
    if (told.length > 0 && wordsIn(assemble([...told, plan])) > budget) {
      plan.chosen.splice(before);
      break;
    }
    told.push(plan);
  }
  // The first story is told whatever the budget; when its first sentences alone overrun it, it keeps
  // fewer, down to one.
  while (told.length === 1 && told[0]!.chosen.length > 1 && wordsIn(assemble(told)) > budget) {
    told[0]!.chosen.pop();
  }

  // Then round after round, each story in turn adds its next sentence that still fits.
  let added = true;
  while (added) {
    added = false;
    for (const plan of told) {
      while (plan.pool.length > 0) {
        if (!addNextSentence(plan)) break;
        if (wordsIn(assemble(told)) <= budget) {
          added = true;
          break;
        }
        plan.chosen.pop();
      }
    }
  }
  return assemble(told);
}

/**
 * What is wrong with a script (empty when nothing is): segments out of order, a citation of an article
 * none of the stories has, a story segment citing nothing, a story sentence its cited articles do not
 * support, a transition that says more than framing words, a word count that does not add up.
 *
 * A story sentence is supported when it is one of its cited articles' sentences, when it is framing
 * (after the outlets' names, only words of the framing templates are left), or when its articles use
 * at least 80% of its content words, and one of their sentences at least half, and every figure it
 * gives. That catches invented facts and figures; it cannot tell a sentence that recombines the
 * articles' own words into a different claim, which is why the embedded writer only ever copies.
 * Intro and outro carry the topic, the period, counts and the outlets' names. Given the `frame` (the
 * topic and period asked for), they are held to that: a word that is none of those nor framing must be
 * used by the articles (80% of such words), and a figure must be the period's, a count, or the articles'.
 * Without it they are checked for their citations only.
 */
export function checkScript(script: Script, stories: readonly Story[], frame?: ScriptFrame): string[] {
  const problems: string[] = [];
  const articles = new Map<string, CandidateArticle>();
  for (const story of stories) for (const a of story.articles) articles.set(a.id, a);
  const known = new Map<string, KnownArticle>();
  const knownArticle = (id: string) => {
    let found = known.get(id);
    if (!found) {
      found = knowArticle(articles.get(id)!);
      known.set(id, found);
    }
    return found;
  };
  const vocabulary = framingVocabulary();
  const titleTerms = new Set(termsOfText(script.title));

  problems.push(...orderProblems(script.segments));
  let words = 0;
  script.segments.forEach((segment, s) => {
    const where = `segment ${s + 1} (${segment.kind} "${segment.title}")`;
    words += segment.sentences.reduce((sum, sentence) => sum + countWords(sentence), 0);
    if (segment.sentences.length === 0) problems.push(`${where} has no sentences`);
    const unknown = segment.articleIds.filter((id) => !articles.has(id));
    for (const id of unknown) problems.push(`${where} cites an unknown article "${id}"`);
    const cited = segment.articleIds.filter((id) => articles.has(id)).map(knownArticle);
    if (segment.kind === 'transition') {
      segment.sentences.forEach((sentence, i) => {
        const facts = parseSentences(sentence)
          .flatMap((p) => contentTerms(p.tokens, true))
          .filter((t) => !vocabulary.has(t) && !titleTerms.has(t));
        if (facts.length > 0) {
          problems.push(`${where}, sentence ${i + 1} says more than framing words: "${sentence}"`);
        }
      });
    }
    if ((segment.kind === 'intro' || segment.kind === 'outro') && frame) {
      const all = [...articles.keys()].map(knownArticle);
      const allowed = frameVocabulary(frame, all);
      segment.sentences.forEach((sentence, i) => {
        const problem = unframed(sentence, all, allowed, frameFigures(frame, stories));
        if (problem) problems.push(`${where}, sentence ${i + 1} ${problem}: "${sentence}"`);
      });
    }
    if (segment.kind !== 'story') return;
    if (segment.articleIds.length === 0) problems.push(`${where} cites no article`);
    if (cited.length === 0) return;
    const names = new Set(cited.flatMap((a) => a.sourceTerms));
    segment.sentences.forEach((sentence, i) => {
      const problem = unsupported(sentence, cited, vocabulary, names);
      if (problem) problems.push(`${where}, sentence ${i + 1} ${problem}: "${sentence}"`);
    });
  });
  if (words !== script.wordCount) {
    problems.push(`wordCount is ${script.wordCount} but the sentences have ${words} words`);
  }
  return problems;
}

/** A story as a script writer outside this module sees it: each article's speakable sentences. */
export interface StoryMaterial {
  /** 1-based, in the stories' order (best first). */
  number: number;
  articles: {
    id: string;
    outlet: string;
    title: string;
    publishedAt: string;
    /** In the article's order; the best `maxSentences` of them. */
    sentences: string[];
  }[];
}

/**
 * The material a model writes from: per story, per article, its most informative speakable sentences
 * (at most `maxSentences`, said in the article's order). The same sentences the embedded writer chooses
 * from, so a model that keeps to them passes checkScript.
 */
export function storyMaterial(stories: readonly Story[], maxSentences: number): StoryMaterial[] {
  return stories.map((story, i) => ({
    number: i + 1,
    articles: story.articles.map((article) => ({
      id: article.id,
      outlet: sourceName(article),
      title: plainLine(article.title),
      publishedAt: article.publishedAt.toISOString(),
      sentences: speakableSentences(article)
        .sort((a, b) => b.score - a.score || a.index - b.index)
        .slice(0, maxSentences)
        .sort((a, b) => a.index - b.index)
        .map((c) => c.text),
    })),
  }));
}

/** What an outside writer decides: the intro, which stories in what order with what words, the outro. */
export interface ScriptParts {
  intro: string[];
  /** `number` refers to StoryMaterial.number; `transition` is said before the story (not the first). */
  stories: { number: number; transition: string | null; sentences: string[] }[];
  outro: string[];
}

/**
 * A Script from an outside writer's parts, in the shape writeScript gives: chapter titles, citations
 * (every article of a told story; the outro all of them) and the word count are the stories', never the
 * writer's. Throws a RangeError for a story number that does not exist or is told twice.
 */
export function scriptFromParts(frame: ScriptFrame, stories: readonly Story[], parts: ScriptParts): Script {
  const framing = framingFor(frame.language);
  const { transitions } = framing;
  const seen = new Set<number>();
  const told = parts.stories.map((part) => {
    const story = stories[part.number - 1];
    if (!Number.isInteger(part.number) || !story) {
      throw new RangeError(`story ${part.number} does not exist (there are ${stories.length})`);
    }
    if (seen.has(part.number)) throw new RangeError(`story ${part.number} is told twice`);
    seen.add(part.number);
    return { story, part };
  });
  const segments: ScriptSegment[] = [
    { kind: 'intro', title: framing.titles.intro, sentences: spoken(parts.intro), articleIds: [] },
  ];
  told.forEach(({ story, part }, i) => {
    if (i > 0) {
      const transition = spoken(part.transition ? [part.transition] : []);
      segments.push({
        kind: 'transition',
        title: framing.titles.transition,
        sentences: transition.length > 0 ? transition : [transitions[(i - 1) % transitions.length]!],
        articleIds: [],
      });
    }
    segments.push({
      kind: 'story',
      title: plainLine(story.lead.title) || framing.titles.untitledStory,
      sentences: spoken(part.sentences),
      articleIds: story.articles.map((a) => a.id),
    });
  });
  segments.push({
    kind: 'outro',
    title: framing.titles.outro,
    sentences: spoken(parts.outro),
    articleIds: unique(told.flatMap(({ story }) => story.articles.map((a) => a.id))),
  });
  const compact = periodInWords(frame.from, frame.to, frame.language).compact;
  const title = framing.title(capitalise(cleanTopic(frame.topic)), compact);
  return { title, segments, wordCount: wordsIn({ segments }) };
}

/** A writer's sentences as the narrator gets them: one line each, none empty. */
const spoken = (sentences: readonly string[]) =>
  sentences.map((sentence) => plainLine(sentence)).filter((sentence) => sentence.length > 0);

// ---- choosing sentences ----------------------------------------------------------------------------

interface Candidate {
  article: CandidateArticle;
  text: string;
  /** Position in the article's text: chosen sentences are said in the order the article tells them. */
  index: number;
  score: number;
  terms: string[];
}

interface StoryPlan {
  story: Story;
  /** Sentences not yet chosen nor refused, best first: the lead's, then the other outlets'. */
  pool: Candidate[];
  chosen: Candidate[];
}

function planStory(story: Story): StoryPlan {
  const pool = story.articles.flatMap((article) =>
    speakableSentences(article).sort((a, b) => b.score - a.score || a.index - b.index),
  );
  return { story, pool, chosen: [] };
}

/** Moves the story's next sentence that says something new into `chosen`; false when none is left. */
function addNextSentence(plan: StoryPlan): boolean {
  while (plan.pool.length > 0) {
    const next = plan.pool.shift()!;
    const said = new Set(plan.chosen.flatMap((c) => c.terms));
    const fresh = next.terms.filter((t) => !said.has(t)).length;
    if (next.terms.length > 0 && fresh / next.terms.length < minNovelty) continue;
    plan.chosen.push(next);
    return true;
  }
  return false;
}

/**
 * The article's sentences that can be said aloud, each with its importance (the embedded extractive
 * summarizer's rank). The body when known, its summary otherwise, or when the summary has more to say
 * (a feed that cuts the body short).
 */
function speakableSentences(article: CandidateArticle): Candidate[] {
  const title = parseSentences(plainLine(article.title));
  const fromText = (text: string): Candidate[] => {
    const sentences = parseSentences(cleanArticleText(text));
    if (sentences.length === 0) return [];
    const ranked = rankParsed(sentences, title);
    return sentences.flatMap((sentence, i) =>
      isSpeakable(sentence.text)
        ? [
            {
              article,
              text: sentence.text,
              index: i,
              score: ranked[i]!.score,
              terms: contentTerms(sentence.tokens, true),
            },
          ]
        : [],
    );
  };
  const body = fromText(article.content);
  const summary = fromText(article.summary);
  return summary.length > body.length ? summary : body;
}

/** Quotes and brackets a sentence may open or close with, in the languages' own typography. */
const openers = `["'“‘(«„「『¿¡（]`;
const closers = `["'”’)»“」』）]`;
const speakableStart = new RegExp(`^${openers}?(?!\\p{Ll})[\\p{L}\\p{N}]`, 'u');
/** A full stop, question or exclamation mark of any script: 。！？ (CJK), ؟ (Arabic), । (Devanagari). */
const speakableEnd = new RegExp(`[.!?。！？؟।॥۔։።]${closers}*$`, 'u');
const cutShort = new RegExp(`(\\.\\.\\.|…|⋯)${closers}*$`, 'u');

/**
 * A complete sentence a listener can follow on its own: starts with a capital (or a letter of a script
 * without case), a figure or a quote, ends with a full stop, question or exclamation mark of its script
 * (not an ellipsis: a feed's cut), has 4 to 60 words, and is neither a caption, credit or byline nor a
 * link.
 */
function isSpeakable(text: string): boolean {
  const words = countWords(text);
  return (
    words >= minSentenceWords &&
    words <= maxSentenceWords &&
    speakableStart.test(text) &&
    speakableEnd.test(text) &&
    !cutShort.test(text) &&
    !/\[…\]|\[\.\.\.\]|https?:\/\/|www\.|@\w+\.\w/u.test(text) &&
    !isNotWriting(text)
  );
}

// ---- writing ---------------------------------------------------------------------------------------
// The framing words are the documentary's language's (framing.ts).

function assembleScript(topic: string, period: Period, told: readonly StoryPlan[], framing: Framing): Script {
  const storySegments = told.map((plan, i) => storySegment(plan, i, framing));
  const sources = unique(told.flatMap((plan) => plan.story.articles.map((a) => sourceName(a, framing))));
  const allIds = unique(told.flatMap((plan) => plan.story.articles.map((a) => a.id)));
  const segments: ScriptSegment[] = [
    {
      kind: 'intro',
      title: framing.titles.intro,
      sentences: [
        framing.intro(topic, period.spoken),
        told.length === 0 ? framing.noStories : framing.gathered(told.length, sources.length),
      ],
      articleIds: [],
    },
  ];
  storySegments.forEach((segment, i) => {
    if (i > 0) {
      const last = i === storySegments.length - 1 && storySegments.length >= 3;
      const { transitions } = framing;
      segments.push({
        kind: 'transition',
        title: framing.titles.transition,
        sentences: [last ? framing.lastTransition : transitions[(i - 1) % transitions.length]!],
        articleIds: [],
      });
    }
    segments.push(segment);
  });
  segments.push({
    kind: 'outro',
    title: framing.titles.outro,
    sentences: [framing.end(topic), ...(sources.length > 0 ? [framing.drewOn(sources)] : [])],
    articleIds: allIds,
  });
  const title = framing.title(capitalise(topic), period.compact);
  return { title, segments, wordCount: wordsIn({ segments }) };
}

function storySegment(plan: StoryPlan, position: number, framing: Framing): ScriptSegment {
  const sourceOf = (article: CandidateArticle) => sourceName(article, framing);
  const { openings, moreFrom } = framing;
  const { story } = plan;
  const sentences: string[] = [];
  const quoted = new Set<string>();
  // Each outlet's sentences together, the lead's outlet first; within an outlet, article by article in
  // the story's order, each in the order its article tells them.
  for (const source of unique(story.articles.map(sourceOf))) {
    const own = story.articles
      .filter((a) => sourceOf(a) === source)
      .flatMap((article) =>
        plan.chosen.filter((c) => c.article === article).sort((a, b) => a.index - b.index),
      );
    if (own.length === 0) continue;
    const intro = sentences.length === 0 ? openings[position % openings.length]! : moreFrom;
    sentences.push(capitalise(intro(source)), ...own.map((c) => c.text));
    quoted.add(source);
  }
  const others = unique(story.articles.map(sourceOf)).filter((s) => !quoted.has(s));
  if (others.length > 0) sentences.push(framing.alsoCovered(others));
  return {
    kind: 'story',
    title: plainLine(story.lead.title) || framing.titles.untitledStory,
    sentences,
    articleIds: story.articles.map((a) => a.id),
  };
}

function sourceName(article: CandidateArticle, framing: Framing = framingFor('en')): string {
  return plainLine(article.source) || framing.unnamedSource;
}

// ---- checking --------------------------------------------------------------------------------------

interface KnownArticle {
  /** Its sentences (headline, summary, body) as the writer would copy them. */
  sentences: Set<string>;
  parsed: Sentence[];
  terms: Set<string>;
  sourceTerms: string[];
}

function knowArticle(article: CandidateArticle): KnownArticle {
  const parsed = [
    ...parseSentences(plainLine(article.title)),
    ...parseSentences(cleanArticleText(article.summary)),
    ...parseSentences(cleanArticleText(article.content)),
  ];
  return {
    sentences: new Set(parsed.map((s) => normalise(s.text))),
    parsed,
    terms: new Set(parsed.flatMap((s) => contentTerms(s.tokens, true))),
    sourceTerms: termsOfText(sourceName(article)),
  };
}

function unsupported(
  sentence: string,
  cited: readonly KnownArticle[],
  vocabulary: ReadonlySet<string>,
  names: ReadonlySet<string>,
): string | null {
  if (cited.some((a) => a.sentences.has(normalise(sentence)))) return null;
  const tokens = parseSentences(sentence).flatMap((s) => s.tokens);
  const terms = unique(contentTerms(tokens, true)).filter((t) => !vocabulary.has(t) && !names.has(t));
  if (terms.length === 0) return null;
  const figures = unique(tokens.filter((t) => t.kind === 'number').map((t) => t.normal));
  const missing = figures.filter((f) => !cited.some((a) => a.terms.has(f)));
  if (missing.length > 0) return `gives a figure its articles do not (${missing.join(', ')})`;
  const share = (found: (t: string) => boolean) => terms.filter(found).length / terms.length;
  const overall = share((t) => cited.some((a) => a.terms.has(t)));
  const best = Math.max(
    ...cited.flatMap((a) =>
      a.parsed.map((s) => {
        const own = new Set(contentTerms(s.tokens, true));
        return share((t) => own.has(t));
      }),
    ),
  );
  if (overall < supportedShare || best < supportedBySentence) return 'is not supported by its articles';
  return null;
}

/** The words an intro or outro may use without an article using them. */
function frameVocabulary(frame: ScriptFrame, cited: readonly KnownArticle[]): ReadonlySet<string> {
  const period = periodInWords(frame.from, frame.to, frame.language);
  return new Set([
    ...framingVocabulary(),
    ...termsOfText(frame.topic),
    ...termsOfText(`${period.spoken}. ${period.compact}.`),
    ...termsOfText(englishSmallNumbers.join(', ')),
    ...cited.flatMap((a) => a.sourceTerms),
  ]);
}

/** The figures an intro or outro may give: the period's dates and counts no larger than the stories'. */
function frameFigures(frame: ScriptFrame, stories: readonly Story[]): ReadonlySet<string> {
  const period = periodInWords(frame.from, frame.to, frame.language);
  const counts = Math.max(
    stories.reduce((n, s) => n + s.articles.length, 0),
    stories.length,
  );
  return new Set([...termsOfText(period.spoken), ...Array.from({ length: counts + 1 }, (_, n) => String(n))]);
}

function unframed(
  sentence: string,
  all: readonly KnownArticle[],
  allowed: ReadonlySet<string>,
  figuresAllowed: ReadonlySet<string>,
): string | null {
  const tokens = parseSentences(sentence).flatMap((s) => s.tokens);
  const figures = unique(tokens.filter((t) => t.kind === 'number').map((t) => t.normal));
  const missing = figures.filter((f) => !figuresAllowed.has(f) && !all.some((a) => a.terms.has(f)));
  if (missing.length > 0)
    return `gives a figure neither the period nor the articles give (${missing.join(', ')})`;
  const terms = unique(contentTerms(tokens, true)).filter((t) => !allowed.has(t) && !/^\d/.test(t));
  if (terms.length === 0) return null;
  const used = terms.filter((t) => all.some((a) => a.terms.has(t))).length;
  if (used / terms.length < supportedShare)
    return 'says what neither the topic, the period nor the articles say';
  return null;
}

/** intro, then story, (transition, story)*, then outro; or intro and outro alone when nothing was found. */
function orderProblems(segments: readonly ScriptSegment[]): string[] {
  const kinds = segments.map((s) => s.kind);
  const expected: ScriptSegment['kind'][] = ['intro'];
  const stories = kinds.filter((k) => k === 'story').length;
  for (let i = 0; i < stories; i += 1)
    expected.push(...(i > 0 ? (['transition', 'story'] as const) : (['story'] as const)));
  expected.push('outro');
  if (kinds.join(',') === expected.join(',')) return [];
  return [`segments are ${kinds.join(', ') || 'missing'}; expected ${expected.join(', ')}`];
}

let framing: ReadonlySet<string> | null = null;

/** Every content word the framing templates of every language use, and those a writer may use instead. */
function framingVocabulary(): ReadonlySet<string> {
  framing ??= new Set(termsOfText(framingSamples().join('\n')));
  return framing;
}

// ---- words -----------------------------------------------------------------------------------------

interface Period {
  /** "the period from 17 to 24 November 2026", "24 November 2026": as the intro says it. */
  spoken: string;
  /** "17 to 24 November 2026": as a title gives it. */
  compact: string;
}

/**
 * The period in words in the language (English by default), in UTC (as dates are everywhere else in
 * the service), naming the month and year once when both ends share them. Dates, not "the past week":
 * the listener may play it days later. `to` is the period's end, not in it (a date_range's end, or now):
 * the last day named is the one of its last moment, so 2017-06-01..2017-06-30 is "1 to 30 June", not
 * "1 June to 1 July".
 */
export function periodInWords(from: Date, to: Date, language?: string): Period {
  const [start, until] = from.getTime() <= to.getTime() ? [from, to] : [to, from];
  const end = until.getTime() > start.getTime() ? new Date(until.getTime() - 1) : until;
  const framing = framingFor(language);
  const oneDay =
    start.getUTCFullYear() === end.getUTCFullYear() &&
    start.getUTCMonth() === end.getUTCMonth() &&
    start.getUTCDate() === end.getUTCDate();
  return {
    spoken: oneDay ? framing.day(end) : framing.range(start, end),
    compact: framing.compact(start, end),
  };
}

function cleanTopic(topic: string): string {
  return plainLine(topic).replace(/[\s.!?;:,。！？；：，、]+$/u, '') || 'the news';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const countWords = countSpokenWords;

function wordsIn(script: Pick<Script, 'segments'>): number {
  return script.segments.reduce(
    (sum, segment) => sum + segment.sentences.reduce((s, sentence) => s + countWords(sentence), 0),
    0,
  );
}

function termsOfText(text: string): string[] {
  return parseSentences(text).flatMap((s) => contentTerms(s.tokens, true));
}

/** Whitespace and typographic quotes do not make a different sentence. */
function normalise(sentence: string): string {
  return sentence.replace(/\s+/g, ' ').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').trim();
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
