// Assigns each article to a story (a cluster of articles about one event), online and in arrival
// order. An article joins the open story it is most like, when that is like enough, or opens a story
// of its own; a story closes when nothing joined it for a while; two stories that one article shows to
// be the same event are merged.
//
// The clusterer decides (decide) and is changed only by its own decisions (apply): decide returns
// events, the caller appends them and applies them. Rebuilding from the appended events (apply alone,
// in their order) gives exactly the state the decisions left, so a restarted clusterer goes on as if it
// had never stopped, and the same articles in the same order always give the same stories.
//
// Likeness is the cosine of the article's vector (story-vector.ts) with the story's centroid (the sum
// of its articles' vectors). An article is compared only with stories that share one of its heaviest
// terms (an inverted index over open stories), in its language, whose latest article is within
// `windowHours` of it. A match must rest on more than one word: two shared terms at least, or one
// shared entity, so that a common word alone ("attempt") never links two events.
import { createHash } from 'node:crypto';
import { TermStatistics } from './term-statistics.ts';
import { overlap, termCounts, weighTerms, type StoryArticle, type TermVector } from './story-vector.ts';

export interface ClusteringSettings {
  /** Least cosine with a story's centroid for an article to join it. */
  joinThreshold: number;
  /** An article is compared with stories whose latest article is at most this far from it. */
  windowHours: number;
  /** A story nothing joined for this long (in the stream's time) closes. */
  closeAfterHours: number;
  /** Two stories that an article matches both are merged when their centroids are this alike. */
  mergeThreshold: number;
  /** Terms kept in an article's vector. */
  vectorTerms: number;
  /** Of those, how many (the heaviest) list the article's story in the index. */
  indexTerms: number;
  /** Terms kept in a story's centroid. */
  centroidTerms: number;
  /** Breaking news (see breakingThreshold): the window from a story's first article, in minutes. */
  breakingWindowMinutes: number;
  /** The fewest distinct sources in that window for a story to be breaking. */
  breakingMinSources: number;
  /** And how many times its category's usual number of sources in the window it must reach. */
  breakingRateFactor: number;
}

export const defaultClusteringSettings: ClusteringSettings = {
  joinThreshold: 0.15,
  windowHours: 48,
  closeAfterHours: 72,
  mergeThreshold: 0.2,
  vectorTerms: 30,
  indexTerms: 20,
  centroidTerms: 200,
  breakingWindowMinutes: 30,
  breakingMinSources: 4,
  breakingRateFactor: 3,
};

interface ArticlePart {
  articleId: string;
  sourceId: string;
  language: string | null;
  category: string | null;
  at: number;
  /** The article's vector, as weighed when it was assigned. */
  vector: [string, number][];
  /** Its distinct terms, for the term statistics. */
  terms: string[];
}

export type StoryDecision =
  | ({ type: 'opened'; storyId: string; similarity: null } & ArticlePart)
  | ({ type: 'joined'; storyId: string; similarity: number } & ArticlePart)
  | { type: 'merged'; storyId: string; into: string; articleIds: string[]; at: number }
  | { type: 'closed'; storyId: string; at: number }
  | { type: 'breaking'; storyId: string; articleIds: string[]; at: number };

interface OpenStory {
  id: string;
  language: string | null;
  category: string | null;
  /** Distinct sources of its articles within the breaking window from its first article. */
  earlySources: Set<string>;
  breaking: boolean;
  firstAt: number;
  lastAt: number;
  centroid: Map<string, number>;
  sumOfSquares: number;
  members: string[];
  /** Terms under which the index lists this story. */
  postings: Set<string>;
}

const hour = 3_600_000;
/** Closed stories per category whose early sources make that category's usual rate. */
const rateSample = 200;
/** The usual number of early sources before a category has a sample: one outlet per story. */
const priorSources = 1;

/** A story's id comes from the article that opened it: the same stream always names it the same. */
export function storyIdFor(articleId: string): string {
  return createHash('sha256').update(`story:${articleId}`).digest('hex').slice(0, 32);
}

export class StoryClusterer {
  private readonly statistics = new TermStatistics();
  private readonly open = new Map<string, OpenStory>();
  private readonly index = new Map<string, Set<string>>();
  /** Every article assigned so far → its story (after merges). */
  private readonly storyOfArticle = new Map<string, string>();
  /** The latest article time seen: the stream's clock, which closes stories. */
  private clock = Number.NEGATIVE_INFINITY;
  /** Per category, the early-source counts of its latest closed stories (at most rateSample). */
  private readonly usualSources = new Map<string, number[]>();

  constructor(private readonly settings: ClusteringSettings = defaultClusteringSettings) {}

  /** The story an article was assigned to, if it was. */
  storyOf(articleId: string): string | undefined {
    return this.storyOfArticle.get(articleId);
  }

  get openStories(): number {
    return this.open.size;
  }

  get articles(): number {
    return this.storyOfArticle.size;
  }

  /**
   * What happens when `article` arrives: the stories that close first (their inactivity ran out by
   * its time), then a merge if it shows two stories to be one, then its opening or joining a story.
   * Nothing for an article already assigned (a re-enrichment, a redelivery). Call apply() with each
   * event, in order, before the next decide().
   */
  decide(article: StoryArticle): StoryDecision[] {
    if (this.storyOfArticle.has(article.id)) return [];
    const events: StoryDecision[] = this.closing(article.at);
    const closed = new Set(events.map((e) => e.storyId));

    const counts = termCounts(article);
    const vector = weighTerms(counts, this.statistics, this.settings.vectorTerms);
    const part: ArticlePart = {
      articleId: article.id,
      sourceId: article.sourceId,
      language: article.language,
      category: article.category ?? null,
      at: article.at,
      vector: [...vector],
      terms: [...counts.keys()].sort(),
    };

    const ranked = this.candidates(article, vector)
      .filter((c) => !closed.has(c.story.id))
      .sort((a, b) => b.similarity - a.similarity || (a.story.id < b.story.id ? -1 : 1));
    const [best, second] = ranked;
    if (!best || best.similarity < this.settings.joinThreshold) {
      events.push({ type: 'opened', storyId: storyIdFor(article.id), similarity: null, ...part });
      return events;
    }
    let target = best.story;
    if (second && second.similarity >= this.settings.joinThreshold) {
      const alike = centroidCosine(best.story, second.story);
      if (alike >= this.settings.mergeThreshold) {
        // The older story survives: its id is the one already shown to readers for longer.
        const [into, from] = older(best.story, second.story);
        events.push({
          type: 'merged',
          storyId: from.id,
          into: into.id,
          articleIds: [...from.members],
          at: article.at,
        });
        target = into;
      }
    }
    events.push({
      type: 'joined',
      storyId: target.id,
      similarity: round(best.similarity),
      ...part,
    });
    const merging = events.find((e) => e.type === 'merged');
    const breaking = this.breakingAfter(target, article, merging?.type === 'merged' ? merging : undefined);
    if (breaking) events.push(breaking);
    return events;
  }

  /**
   * The least number of distinct sources in the window that makes a story of `category` breaking:
   * breakingMinSources, or breakingRateFactor times the category's usual number (the mean over its
   * latest closed stories, one outlet per story until there are some), whichever is more.
   */
  breakingThreshold(category: string | null): number {
    const sample = this.usualSources.get(category ?? '') ?? [];
    const usual = sample.length ? sample.reduce((a, b) => a + b, 0) / sample.length : priorSources;
    return Math.max(this.settings.breakingMinSources, Math.ceil(this.settings.breakingRateFactor * usual));
  }

  /** The breaking decision when `article` joining `story` (after `merge`) makes it breaking news. */
  private breakingAfter(
    story: OpenStory,
    article: StoryArticle,
    merge: Extract<StoryDecision, { type: 'merged' }> | undefined,
  ): StoryDecision | null {
    const absorbed = merge
      ? this.open.get(merge.storyId === story.id ? merge.into : merge.storyId)
      : undefined;
    if (story.breaking || absorbed?.breaking) return null;
    const firstAt = Math.min(story.firstAt, absorbed?.firstAt ?? Infinity, article.at);
    const windowEnd = firstAt + this.settings.breakingWindowMinutes * 60_000;
    const sources = new Set([...story.earlySources, ...(absorbed?.earlySources ?? [])]);
    if (article.at <= windowEnd) sources.add(article.sourceId);
    if (sources.size < this.breakingThreshold(story.category)) return null;
    const members = [...story.members, ...(absorbed?.members ?? []), article.id];
    return { type: 'breaking', storyId: story.id, articleIds: members.slice(0, 20), at: article.at };
  }

  /**
   * Changes the state by one event: what decide() returned, or the same read back from the topic.
   * False, changing nothing, for a join or merge naming a story that is not open: the topic can hold
   * one this clusterer never made (retention dropped the story's opening, or another producer wrote
   * it), and a rebuild must get past it rather than stop every batch after it.
   */
  apply(event: StoryDecision): boolean {
    switch (event.type) {
      case 'opened': {
        const story: OpenStory = {
          id: event.storyId,
          language: event.language,
          category: event.category,
          earlySources: new Set(),
          breaking: false,
          firstAt: event.at,
          lastAt: event.at,
          centroid: new Map(),
          sumOfSquares: 0,
          members: [],
          postings: new Set(),
        };
        this.open.set(story.id, story);
        this.addArticle(story, event);
        return true;
      }
      case 'joined': {
        const story = this.open.get(event.storyId);
        if (!story) return false;
        this.addArticle(story, event);
        return true;
      }
      case 'merged': {
        const from = this.open.get(event.storyId);
        const into = this.open.get(event.into);
        if (!from || !into || from === into) return false;
        for (const [term, weight] of from.centroid) addWeight(into, term, weight);
        trimCentroid(into, this.settings.centroidTerms);
        into.firstAt = Math.min(into.firstAt, from.firstAt);
        into.lastAt = Math.max(into.lastAt, from.lastAt);
        for (const source of from.earlySources) into.earlySources.add(source);
        into.breaking ||= from.breaking;
        for (const articleId of from.members) {
          into.members.push(articleId);
          this.storyOfArticle.set(articleId, into.id);
        }
        for (const term of from.postings) this.post(into, term);
        this.remove(from);
        return true;
      }
      case 'closed': {
        const story = this.open.get(event.storyId);
        if (story) {
          const sample = this.usualSources.get(story.category ?? '') ?? [];
          sample.push(story.earlySources.size);
          if (sample.length > rateSample) sample.shift();
          this.usualSources.set(story.category ?? '', sample);
          this.remove(story);
        }
        this.clock = Math.max(this.clock, event.at);
        return true;
      }
      case 'breaking': {
        const story = this.open.get(event.storyId);
        if (story) story.breaking = true;
        return true;
      }
    }
  }

  private addArticle(story: OpenStory, part: ArticlePart): void {
    this.statistics.add(part.terms);
    for (const [term, weight] of part.vector) addWeight(story, term, weight);
    trimCentroid(story, this.settings.centroidTerms);
    story.firstAt = Math.min(story.firstAt, part.at);
    story.lastAt = Math.max(story.lastAt, part.at);
    story.members.push(part.articleId);
    if (part.at <= story.firstAt + this.settings.breakingWindowMinutes * 60_000)
      story.earlySources.add(part.sourceId);
    for (const [term] of part.vector.slice(0, this.settings.indexTerms)) this.post(story, term);
    this.storyOfArticle.set(part.articleId, story.id);
    this.clock = Math.max(this.clock, part.at);
  }

  private post(story: OpenStory, term: string): void {
    story.postings.add(term);
    let stories = this.index.get(term);
    if (!stories) this.index.set(term, (stories = new Set()));
    stories.add(story.id);
  }

  private remove(story: OpenStory): void {
    for (const term of story.postings) {
      const stories = this.index.get(term);
      stories?.delete(story.id);
      if (stories?.size === 0) this.index.delete(term);
    }
    this.open.delete(story.id);
  }

  /**
   * Close events for the stories inactive at `at`, checked when `at` moves the stream's clock into a
   * new hour. The clock is restored by apply() alone, so a rebuilt clusterer checks at the same points.
   */
  private closing(at: number): StoryDecision[] {
    if (Math.floor(at / hour) <= Math.floor(this.clock / hour)) return [];
    const limit = at - this.settings.closeAfterHours * hour;
    return [...this.open.values()]
      .filter((s) => s.lastAt < limit)
      .sort((a, b) => a.lastAt - b.lastAt || (a.id < b.id ? -1 : 1))
      .map((s) => ({ type: 'closed', storyId: s.id, at }));
  }

  private candidates(article: StoryArticle, vector: TermVector): { story: OpenStory; similarity: number }[] {
    const seen = new Set<string>();
    const found: { story: OpenStory; similarity: number }[] = [];
    const window = this.settings.windowHours * hour;
    // Every term of the article looks: the terms it shares with earlier coverage are, by their idf,
    // lighter than the ones that are new, so its heaviest terms alone would miss its own story.
    for (const [term] of vector) {
      for (const id of this.index.get(term) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        const story = this.open.get(id);
        if (!story || story.language !== article.language) continue;
        if (article.at > story.lastAt + window || article.at < story.firstAt - window) continue;
        const { dot, shared, sharedEntities } = overlap(vector, story.centroid);
        if (shared < 2 && sharedEntities === 0) continue;
        const similarity = dot / Math.sqrt(story.sumOfSquares);
        found.push({ story, similarity });
      }
    }
    return found;
  }
}

function addWeight(story: OpenStory, term: string, weight: number): void {
  const before = story.centroid.get(term) ?? 0;
  const after = before + weight;
  story.centroid.set(term, after);
  story.sumOfSquares += after * after - before * before;
}

/** Keeps a centroid to its heaviest terms (ties by term), once it has grown to twice the limit. */
function trimCentroid(story: OpenStory, limit: number): void {
  if (story.centroid.size <= 2 * limit) return;
  const kept = [...story.centroid].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  story.centroid = new Map(kept);
  story.sumOfSquares = kept.reduce((sum, [, w]) => sum + w * w, 0);
}

function centroidCosine(a: OpenStory, b: OpenStory): number {
  const { dot } = overlap(a.centroid, b.centroid);
  return dot / Math.sqrt(a.sumOfSquares * b.sumOfSquares);
}

function older(a: OpenStory, b: OpenStory): [OpenStory, OpenStory] {
  const aFirst = a.firstAt < b.firstAt || (a.firstAt === b.firstAt && a.id < b.id);
  return aFirst ? [a, b] : [b, a];
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
