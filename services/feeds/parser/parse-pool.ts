// Parsing large feeds on worker threads (runtime/worker-pool.ts), so that one big feed (a 1.6 MB podcast
// feed takes 0.3-0.6 s) never holds up the event loop every other poll's timers and sockets run on. Small
// bodies stay on the calling thread: a round trip to a worker (copying the body there and the parsed feed
// back) costs more than parsing them.
//
// A FeedParseError thrown in a worker arrives as a FeedParseError with the same reason; a parse that runs
// past its time, or a worker that dies (out of memory, a crash) or never starts, costs that one parse a
// FeedParseError saying so, and the worker is replaced on the next parse, so a bad feed fails its poll and
// never leaves the poller waiting on a worker that will not answer.
import { FeedParseError } from './errors.ts';
import { isGzip, parseFeed, type FeedParseOptions } from './parse-feed.ts';
import type { ParsedFeed } from './types.ts';
import {
  serveRequests,
  WorkerLost,
  WorkerPool,
  WorkerRefusal,
  type WorkerPoolOptions,
} from '../../runtime/worker-pool.ts';

export type ParseFunction = (
  body: Uint8Array,
  contentType: string | null,
  options?: FeedParseOptions,
) => ParsedFeed;

export type FeedParsePoolOptions = Omit<WorkerPoolOptions, 'entry' | 'names'> & {
  /** The worker's entry module (a .ts file URL). Tests pass one whose parse misbehaves on purpose. */
  workerEntry?: URL;
};

interface ParseRequest {
  body: Uint8Array;
  contentType: string | null;
  options: FeedParseOptions;
}

const defaultEntry = new URL('./parse-worker.ts', import.meta.url);

export class FeedParsePool {
  private readonly pool: WorkerPool<ParseRequest, ParsedFeed>;

  constructor(options: FeedParsePoolOptions) {
    const { workerEntry, ...rest } = options;
    this.pool = new WorkerPool({
      ...rest,
      entry: workerEntry ?? defaultEntry,
      names: { work: 'parsing', worker: 'the parser', pool: 'the feed parse pool' },
    });
  }

  /** Parses on a worker; rejects with a FeedParseError as parseFeed would throw it. */
  async parse(
    body: Uint8Array,
    contentType: string | null,
    options: FeedParseOptions = {},
  ): Promise<ParsedFeed> {
    // A copy of exactly the body's bytes, handed over rather than copied again: posting the view itself
    // would clone its whole underlying buffer, which for a Buffer may be a shared pool.
    const bytes = new Uint8Array(body);
    try {
      return await this.pool.run({ body: bytes, contentType, options }, [bytes.buffer]);
    } catch (error) {
      if (error instanceof WorkerRefusal || error instanceof WorkerLost)
        throw new FeedParseError(error.reason);
      throw error;
    }
  }

  /** Workers running now (for tests and diagnostics). */
  get workers(): number {
    return this.pool.workers;
  }

  /** Stops every worker; parses still queued or running fail. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * The worker's side (parse-worker.ts): answers each parse request with `parse`'s result; a
 * FeedParseError travels as its reason.
 */
export function serveParses(parse: ParseFunction): void {
  serveRequests<ParseRequest, ParsedFeed>(
    ({ body, contentType, options }) => parse(body, contentType, options),
    (error) => (error instanceof FeedParseError ? error.reason : undefined),
  );
}

/**
 * The parse a poller uses: bodies of at least `offThreadBytes` on the pool, smaller ones (and all of
 * them without a pool) on the calling thread. A gzip-compressed body goes to the pool whatever its size:
 * what it decompresses to (parse-feed.ts, up to the feed size limit) is unknown until then.
 */
export function parserFor(options: {
  pool: FeedParsePool | null;
  offThreadBytes: number;
  parse?: ParseFunction;
}): (
  body: Uint8Array,
  contentType: string | null,
  options?: FeedParseOptions,
) => ParsedFeed | Promise<ParsedFeed> {
  const { pool, offThreadBytes, parse = parseFeed } = options;
  return (body, contentType, parseOptions = {}) =>
    pool && (body.length >= offThreadBytes || isGzip(body))
      ? pool.parse(body, contentType, parseOptions)
      : parse(body, contentType, parseOptions);
}
