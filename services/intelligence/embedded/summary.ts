// Extractive summary: the article's own sentences, chosen by a graph ranking and given back in the
// order the article tells them.
//
// Method (LexRank with a position prior, then MMR):
// 1. Each sentence becomes a vector of its content-word stems (stop words and punctuation dropped),
//    weighted tf x isf, where isf is the inverse "sentence frequency" within this article: a word in
//    every sentence says nothing about which one matters.
// 2. Sentences are nodes, cosine similarities the edge weights. PageRank over that graph rewards a
//    sentence that many others resemble: the article keeps coming back to what it says.
// 3. News puts the story first, so the random surfer's restart is not uniform but favours early
//    sentences (a biased/"personalised" PageRank), and sentences resembling the headline are
//    favoured too.
// 4. Selection is greedy maximal marginal relevance: each next sentence is the best-ranked one
//    after a penalty for resembling the sentences already chosen, so the summary does not say one
//    thing twice.
//
// Lengths: short is 1 sentence (2 for articles of 12 sentences or more), medium about 30% of the
// sentences, long about 45%, each at least one and never the whole article unless it is tiny.
import { capped } from '../../runtime/capped-text.ts';
import type { SummaryLength } from '../provider.ts';
import { parseSentences, type Sentence } from './sentences.ts';
import { hasUnspacedWords } from './unspaced-words.ts';
import { isNotWriting } from './page-furniture.ts';

export interface RankedSentence {
  index: number;
  text: string;
  /** Relative importance; the best sentence of the article scores 1. */
  score: number;
}

export interface SummaryOptions {
  /** The headline: sentences that resemble it are favoured. */
  title?: string;
}

/**
 * The method's knobs, in one place; the quality benchmark (npm run bench:quality) measures them. On
 * the BBC references centrality alone scores best and a strong lead prior costs ROUGE, but real feeds
 * put the news first more reliably than those references credit, so the prior stays, kept light.
 */
export const summaryTuning = {
  /** PageRank damping: the share of rank that flows along similarity edges. */
  damping: 0.85,
  /** Position prior of sentence i (from 0) is 1 / (i + 1)^positionDecay; also the PageRank restart. */
  positionDecay: 0.5,
  /** Weight of the position prior added to the normalised graph rank. */
  positionWeight: 0.15,
  /** Weight of similarity to the headline. */
  titleWeight: 0.2,
  /** MMR penalty for similarity to already chosen sentences. */
  redundancy: 0.2,
  /** Share of the shorter sentence's content words found in a chosen one from which it is a repeat. */
  repeat: 0.8,
};

/**
 * The most sentences a medium and a long summary have: 30% of a 300-sentence text is a text, not its
 * summary (and choosing each next sentence looks at every one).
 */
export const longestSummary = { medium: 30, long: 45 } as const;

/**
 * Sentences past this many are ranked by their position and the headline alone, not by the similarity
 * graph, whose size is the square of its sentences: a 100,000-character text of 2,800 short sentences
 * held the API's event loop for a minute. News tells its story long before its 400th sentence.
 */
export const graphedSentences = 400;

export function summaryLengthFor(sentenceCount: number, length: SummaryLength): number {
  if (sentenceCount <= 0) return 0;
  const wanted =
    length === 'short'
      ? sentenceCount >= 12
        ? 2
        : 1
      : Math.min(longestSummary[length], Math.round(sentenceCount * (length === 'medium' ? 0.3 : 0.45)));
  return Math.min(sentenceCount, Math.max(1, wanted));
}

/** Every sentence of the text with its importance, most important first. */
export function rankSentences(text: string, options: SummaryOptions = {}): RankedSentence[] {
  const sentences = parseSentences(text);
  const title = options.title ? parseSentences(options.title) : [];
  return rankParsed(sentences, title).sort((a, b) => b.score - a.score || a.index - b.index);
}

/** The `count` sentences that summarise the text, in text order. */
export function summarizeToSentences(text: string, count: number, options: SummaryOptions = {}): string[] {
  const sentences = parseSentences(text);
  const title = options.title ? parseSentences(options.title) : [];
  return selectSummary(sentences, title, count).map((s) => s.text);
}

/** For callers that already parsed the article: the chosen sentences, in text order. */
export function selectSummary(
  allSentences: readonly Sentence[],
  title: readonly Sentence[],
  count: number,
  /** 'importance' lists the most important sentence first (an executive summary), else text order. */
  order: 'text' | 'importance' = 'text',
): Sentence[] {
  // Never a call to subscribe, a byline or a blog's "appeared first on" footer, which feeds put in the
  // item's text and which had been chosen (page-furniture.ts), nor a heading; all of a text that is
  // nothing else stays.
  const headings = headingsOf(allSentences);
  const writing = allSentences.filter((s) => !isNotWriting(s.text) && !headings.has(s.index));
  const sentences = writing.length > 0 ? writing : allSentences;
  if (count <= 0 || sentences.length === 0) return [];
  if (count >= sentences.length) return sentences.map(boundedSentence);
  const space = vectorSpace(sentences);
  const vectors = space.vectors;
  const ranked = rankWith(space, sentences, title);
  // Each candidate's greatest similarity to a chosen sentence, and whether it repeats one, kept up to
  // date as sentences are chosen rather than worked out again for every choice.
  const overlap = new Array<number>(sentences.length).fill(0);
  const isRepeat = new Array<boolean>(sentences.length).fill(false);
  const chosen: number[] = [];
  const taken = new Set<number>();
  while (chosen.length < count) {
    let best = -1;
    let bestValue = -Infinity;
    let bestIsRepeat = true;
    for (const r of ranked) {
      if (taken.has(r.index)) continue;
      const value = r.score - summaryTuning.redundancy * overlap[r.index]!;
      // A near-repeat of a chosen sentence never, even when nothing else is left: a text that says
      // everything twice (a syndicated copy pasted in twice, a body repeating its standfirst) had a
      // summary that said it twice too. Such a summary is shorter than asked.
      const repeat = isRepeat[r.index]!;
      if ((bestIsRepeat && !repeat) || (repeat === bestIsRepeat && value > bestValue)) {
        bestValue = value;
        best = r.index;
        bestIsRepeat = repeat;
      }
    }
    if (best === -1 || bestIsRepeat) break;
    chosen.push(best);
    taken.add(best);
    for (const r of ranked) {
      if (taken.has(r.index)) continue;
      overlap[r.index] = Math.max(overlap[r.index]!, cosine(vectors[r.index]!, vectors[best]!));
      if (!isRepeat[r.index])
        isRepeat[r.index] = containment(space.stems[r.index]!, space.stems[best]!) >= summaryTuning.repeat;
    }
  }
  if (order === 'text') chosen.sort((a, b) => a - b);
  return chosen.map((i) => boundedSentence(sentences[i]!));
}

/** Longer than this, a line without a stop is writing (a sentence whose full stop was left off). */
const maxHeadingWords = 14;
/** How a sentence ends: a stop, or a stop within closing quotes or brackets. */
const sentenceEnd = /[.!?…。！？।॥။។؟]["'”’»)\]]*$|["”’»]$/u;

/**
 * The sentences that are headings: a line of their own (the only sentence of their paragraph), ending
 * without a stop, of a few words, in a text whose other sentences end with one. A page's headline or a section's title ("Floods hit Valencia", "What
 * happens next") names the story without telling it, and once chosen it ran into the next sentence, as
 * it has no stop: "Floods hit Valencia Heavy rain caused severe flooding…".
 */
export function headingsOf(sentences: readonly Sentence[]): Set<number> {
  // Only in a text that ends its sentences with stops: Thai marks them with spaces, and a text of
  // headlines or bullet points has none; there a line without a stop is a sentence like any other.
  if (!sentences.some((s) => sentenceEnd.test(s.text))) return new Set();
  const perParagraph = new Map<number, number>();
  for (const s of sentences) perParagraph.set(s.paragraph, (perParagraph.get(s.paragraph) ?? 0) + 1);
  const headings = new Set<number>();
  for (const s of sentences) {
    if (perParagraph.get(s.paragraph) !== 1 || sentenceEnd.test(s.text)) continue;
    if (s.text.split(/\s+/).length <= maxHeadingWords) headings.add(s.index);
  }
  return headings;
}

/**
 * The most of one sentence a summary quotes: a text without sentence punctuation (Thai, which marks
 * sentences by spaces; a body whose markup held its full stops) is one "sentence", and its summary had
 * been the whole text, up to 100,000 characters in every list row.
 */
export const longestSummarySentence = 600;

/** The sentence, or its first `longestSummarySentence` characters to a word's end, with an ellipsis. */
function boundedSentence(sentence: Sentence): Sentence {
  if (sentence.text.length <= longestSummarySentence) return sentence;
  return { ...sentence, text: capped(sentence.text, longestSummarySentence) };
}

/** For callers that already parsed the article: every sentence's importance, in text order. */
export function rankParsed(sentences: readonly Sentence[], title: readonly Sentence[]): RankedSentence[] {
  return rankWith(vectorSpace(sentences), sentences, title);
}

function rankWith(
  space: VectorSpace,
  sentences: readonly Sentence[],
  title: readonly Sentence[],
): RankedSentence[] {
  const { vectors, isf } = space;
  const prior = sentences.map((_, i) => 1 / Math.pow(i + 1, summaryTuning.positionDecay));
  const graphed = Math.min(sentences.length, graphedSentences);
  const rank = pageRank(
    similarityGraph(vectors.slice(0, graphed)),
    normalise(prior.slice(0, graphed)),
    summaryTuning.damping,
  );
  for (let i = graphed; i < sentences.length; i += 1) rank.push(0);
  const titleVector = title.length ? weigh(termCounts(title.flatMap((t) => t.tokens)), isf) : null;
  const maxRank = Math.max(...rank, Number.MIN_VALUE);
  const scores = sentences.map((_, i) => {
    const titleSimilarity = titleVector ? cosine(vectors[i]!, titleVector) : 0;
    return (
      rank[i]! / maxRank +
      summaryTuning.positionWeight * prior[i]! +
      summaryTuning.titleWeight * titleSimilarity
    );
  });
  const maxScore = Math.max(...scores, Number.MIN_VALUE);
  return sentences.map((s, i) => ({ index: i, text: s.text, score: scores[i]! / maxScore }));
}

type Vector = Map<string, number>;

/**
 * Content-word stems: what two sentences must share to be about the same thing. Not the words of Chinese,
 * Japanese, Korean, Thai, ... (unspaced-words.ts): the tuning above was measured on English, and on
 * their finer words it put a four-word sentence that shares one word with another above the lead
 * (「17年ぶりの利上げとなる。」 over the Bank of Japan's decision); there the position prior picks, which
 * in news is the lead.
 */
function contentStems(sentence: Pick<Sentence, 'tokens'>): string[] {
  return sentence.tokens
    .filter(
      (t) =>
        t.kind === 'word' &&
        !t.stopWord &&
        t.normal.length > 1 &&
        /\p{L}/u.test(t.normal) &&
        !hasUnspacedWords(t.text),
    )
    .map((t) => t.stem);
}

function termCounts(tokens: Sentence['tokens']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const stem of contentStems({ tokens })) counts.set(stem, (counts.get(stem) ?? 0) + 1);
  return counts;
}

interface VectorSpace {
  vectors: Vector[];
  isf: Map<string, number>;
  /** Each sentence's content stems, for telling a repeat. */
  stems: Set<string>[];
}

function vectorSpace(sentences: readonly Sentence[]): VectorSpace {
  const counts = sentences.map((s) => termCounts(s.tokens));
  const isf = inverseSentenceFrequency(counts);
  return { vectors: counts.map((c) => weigh(c, isf)), isf, stems: counts.map((c) => new Set(c.keys())) };
}

/** How much of the smaller set the other contains: 1 when one sentence only adds to the other. */
function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const term of small) if (large.has(term)) shared += 1;
  return shared / small.size;
}

function inverseSentenceFrequency(counts: readonly Map<string, number>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const c of counts) for (const term of c.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const isf = new Map<string, number>();
  for (const [term, d] of df) isf.set(term, Math.log((counts.length + 1) / d));
  return isf;
}

function weigh(counts: Map<string, number>, isf: Map<string, number>): Vector {
  const vector: Vector = new Map();
  for (const [term, count] of counts) {
    const weight = count * (isf.get(term) ?? 0);
    if (weight > 0) vector.set(term, weight);
  }
  return vector;
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

function similarityGraph(vectors: readonly Vector[]): number[][] {
  return vectors.map((a, i) => vectors.map((b, j) => (i === j ? 0 : cosine(a, b))));
}

function normalise(values: readonly number[]): number[] {
  const sum = values.reduce((s, v) => s + v, 0);
  return values.map((v) => (sum > 0 ? v / sum : 1 / values.length));
}

/**
 * Power iteration of r = (1 - d) p + d W^T r, W the row-normalised graph. A sentence that resembles
 * no other hands its rank back through the restart vector p rather than losing it.
 */
function pageRank(graph: readonly number[][], restart: readonly number[], damping: number): number[] {
  const n = graph.length;
  const outWeight = graph.map((row) => row.reduce((s, w) => s + w, 0));
  let rank = [...restart];
  for (let iteration = 0; iteration < 100; iteration += 1) {
    let dangling = 0;
    for (let i = 0; i < n; i += 1) if (outWeight[i] === 0) dangling += rank[i]!;
    const next = restart.map((p) => (1 - damping) * p + damping * dangling * p);
    for (let i = 0; i < n; i += 1) {
      if (outWeight[i] === 0) continue;
      const share = (damping * rank[i]!) / outWeight[i]!;
      const row = graph[i]!;
      for (let j = 0; j < n; j += 1) if (row[j]! > 0) next[j]! += share * row[j]!;
    }
    const change = next.reduce((s, v, i) => s + Math.abs(v - rank[i]!), 0);
    rank = next;
    if (change < 1e-8) break;
  }
  return rank;
}
