// The embedded provider's work on worker threads (runtime/worker-pool.ts), for the API: its analyses are
// CPU alone, up to ~2.5 s for the worst 100,000 characters the API takes (bench:quality, "the longest
// texts"), and on the API's event loop every other request (a list of articles, a live stream's
// heartbeat) would wait that long. Short texts stay on the calling thread, where they take less than a
// round trip to a worker costs. The answers are the same either way: the same functions on the same text.
//
// A text the provider refuses (EnrichmentRejectedError) is refused the same way; a job past its time or
// a worker lost fails with the reason, which the API answers 503 service_unavailable. The caller's signal
// (the request's: its deadline passed, its client left) takes a job out of the queue, or stops it.
import {
  EnrichmentRejectedError,
  type ArticleText,
  type EnrichmentProvider,
  type EnrichOptions,
  type SummarizeOptions,
} from '../provider.ts';
import {
  serveRequests,
  WorkerPool,
  WorkerRefusal,
  type WorkerPoolOptions,
} from '../../runtime/worker-pool.ts';
import type { Terms } from './terms.ts';

/** What a worker is asked to do: one of the provider's methods, or the terms the related lookup needs. */
export type AnalysisRequest =
  | { kind: 'enrich'; article: ArticleText; options: Omit<EnrichOptions, 'signal'> }
  | { kind: 'summarize'; article: ArticleText; options: Omit<SummarizeOptions, 'signal'> }
  | { kind: 'educate'; article: ArticleText }
  | { kind: 'terms'; article: ArticleText };

/** The methods a worker runs: the embedded provider's and extractTerms (`signal`: see the top). */
export interface Analyses {
  provider: EnrichmentProvider;
  termsOf: (article: ArticleText, options?: { signal?: AbortSignal }) => Terms | Promise<Terms>;
}

/**
 * Texts shorter than this are analysed on the calling thread: ~30 ms of enrichment at most, where a
 * worker's round trip (the text there, the answer back) costs a few milliseconds of the same thread.
 */
export const defaultOffThreadCharacters = 2_000;

export interface OffThreadOptions extends Omit<WorkerPoolOptions, 'entry' | 'names'> {
  offThreadCharacters?: number;
  /** The worker's entry module; tests pass one that misbehaves on purpose. */
  workerEntry?: URL;
}

const defaultEntry = new URL('./analysis-worker.ts', import.meta.url);

/**
 * `analyses` as they were, except that texts of at least `offThreadCharacters` are analysed on worker
 * threads. `close()` stops the workers.
 */
export function offThreadAnalyses(
  analyses: Analyses,
  options: OffThreadOptions,
): Analyses & { close: () => Promise<void>; readonly workers: number } {
  const { offThreadCharacters = defaultOffThreadCharacters, workerEntry, ...poolOptions } = options;
  const pool = new WorkerPool<AnalysisRequest, unknown>({
    ...poolOptions,
    entry: workerEntry ?? defaultEntry,
    names: { work: 'the analysis', worker: 'the analysis worker', pool: 'the analysis pool' },
  });
  const offThread = (article: ArticleText) =>
    article.text.length + article.title.length >= offThreadCharacters;
  async function run<T>(request: AnalysisRequest, signal: AbortSignal | undefined): Promise<T> {
    try {
      return (await pool.run(request, [], signal)) as T;
    } catch (error) {
      if (error instanceof WorkerRefusal) throw new EnrichmentRejectedError(error.reason);
      throw error;
    }
  }
  // The signal stays here (it cannot cross to the worker): the pool acts on it.
  const { provider } = analyses;
  return {
    provider: {
      name: provider.name,
      model: provider.model,
      enrich: (article, { signal, ...options }) =>
        offThread(article)
          ? run({ kind: 'enrich', article, options }, signal)
          : provider.enrich(article, { ...options, signal }),
      summarize: (article, { signal, ...options }) =>
        offThread(article)
          ? run({ kind: 'summarize', article, options }, signal)
          : provider.summarize(article, { ...options, signal }),
      educate: (article, options) =>
        offThread(article)
          ? run({ kind: 'educate', article }, options.signal)
          : provider.educate(article, options),
    },
    termsOf: (article, options) =>
      offThread(article)
        ? run<Terms>({ kind: 'terms', article }, options?.signal)
        : analyses.termsOf(article, options),
    close: () => pool.close(),
    get workers() {
      return pool.workers;
    },
  };
}

/** The worker's side (analysis-worker.ts): runs each request on `analyses`. */
export function serveAnalyses(analyses: Analyses): void {
  serveRequests<AnalysisRequest, unknown>(
    (request) => {
      switch (request.kind) {
        case 'enrich':
          return analyses.provider.enrich(request.article, request.options);
        case 'summarize':
          return analyses.provider.summarize(request.article, request.options);
        case 'educate':
          return analyses.provider.educate(request.article, {});
        case 'terms':
          return analyses.termsOf(request.article);
      }
    },
    (error) => (error instanceof EnrichmentRejectedError ? error.message : undefined),
  );
}
