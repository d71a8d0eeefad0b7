// Releases the BBC corpus over time, so that the demo's feeds keep growing:
// one article every period, the categories taking turns.
//
// The schedule is anchored to the wall clock (release number = now / period),
// not to the demo's start. A feed polled just after start therefore already
// holds the last few releases (so articles are queryable at once), and a
// second demo run continues with releases no poller has seen before (the
// pollers' dedupe remembers every article ever emitted). Once the corpus is
// exhausted it starts over as a new edition: the same text at new URLs, so
// new articles keep arriving for as long as the demo runs.
import type { CorpusArticle } from './corpus.ts';

export interface ReleasedArticle {
  article: CorpusArticle;
  /** Global release number: floor(release time / period). */
  sequence: number;
  /** How many times the corpus had been released in full before this one. */
  edition: number;
  publishedAt: Date;
  /** Where the article "lives" below the feed server: `<edition>/<category>/<nnn>`. */
  path: string;
}

/** The corpus with the categories interleaved: business/001, entertainment/001, …, business/002, … */
export function releaseOrder(corpus: readonly CorpusArticle[]): CorpusArticle[] {
  const byCategory = new Map<string, CorpusArticle[]>();
  for (const article of corpus) {
    const queue = byCategory.get(article.category) ?? [];
    queue.push(article);
    byCategory.set(article.category, queue);
  }
  const queues = [...byCategory.keys()].sort().map((category) => byCategory.get(category)!);
  const order: CorpusArticle[] = [];
  for (let round = 0; order.length < corpus.length; round++) {
    for (const queue of queues) if (round < queue.length) order.push(queue[round]!);
  }
  return order;
}

export class CorpusRelease {
  private readonly order: CorpusArticle[];
  private readonly clock: () => number;

  constructor(
    corpus: readonly CorpusArticle[],
    private readonly options: { periodMs: number; clock?: () => number },
  ) {
    if (corpus.length === 0) throw new Error('the corpus is empty: nothing to release');
    if (!(options.periodMs > 0)) throw new Error(`release period must be positive, got ${options.periodMs}`);
    this.order = releaseOrder(corpus);
    this.clock = options.clock ?? Date.now;
  }

  get categories(): string[] {
    return [...new Set(this.order.map((a) => a.category))].sort();
  }

  /** The `count` most recent releases (of one category, if given), newest first. */
  latest(count: number, category?: string): ReleasedArticle[] {
    const released: ReleasedArticle[] = [];
    const newest = this.newestSequence();
    // `count` editions back hold `count` releases of every category there is; stop there for one there is not.
    const oldest = Math.max(0, newest - this.order.length * Math.max(count, 1));
    for (let sequence = newest; sequence >= oldest && released.length < count; sequence--) {
      const article = this.order[sequence % this.order.length]!;
      if (category !== undefined && article.category !== category) continue;
      const edition = Math.floor(sequence / this.order.length);
      released.push({
        article,
        sequence,
        edition,
        publishedAt: new Date(sequence * this.options.periodMs),
        path: `${edition}/${article.id}`,
      });
    }
    return released;
  }

  /** The article at a released path (`<edition>/<category>/<nnn>`); undefined if unknown or not yet released. */
  articleAt(path: string): CorpusArticle | undefined {
    const match = /^(\d+)\/(.+)$/.exec(path);
    if (!match) return undefined;
    const index = this.order.findIndex((a) => a.id === match[2]);
    const sequence = Number(match[1]) * this.order.length + index;
    return index >= 0 && sequence <= this.newestSequence() ? this.order[index] : undefined;
  }

  private newestSequence(): number {
    return Math.floor(this.clock() / this.options.periodMs);
  }
}
