// Parsing large feeds on worker threads, so that one big feed (a 1.6 MB podcast feed takes 0.3-0.6 s)
// never holds up the event loop every other poll's timers and sockets run on. Small bodies stay on the
// calling thread: a round trip to a worker (copying the body there and the parsed feed back) costs more
// than parsing them.
//
// Both ends of the protocol live here: the pool on the main thread and `serveParses` in the worker
// (parse-worker.ts). A FeedParseError thrown in a worker arrives as a FeedParseError with the same
// reason; a parse that runs past its time, or a worker that dies (out of memory, a crash), costs that
// one parse a FeedParseError saying so, and the worker is replaced on the next parse, so a bad feed
// fails its poll and never leaves the poller waiting on a worker that will not answer.
//
// A parse's time starts when its worker is ready (has loaded the parser and said so), not when the parse
// is handed to it: a new worker's start (tsx and the parser, a second or more on a busy machine) is no
// part of the parse, and must not cost a parse its time. The start has a bound of its own
// (`startTimeoutMs`), so a worker that never comes up fails its parse too.
import { parentPort, Worker } from 'node:worker_threads';
import { FeedParseError } from './errors.ts';
import { isGzip, parseFeed, type FeedParseOptions } from './parse-feed.ts';
import type { ParsedFeed } from './types.ts';

export type ParseFunction = (
  body: Uint8Array,
  contentType: string | null,
  options?: FeedParseOptions,
) => ParsedFeed;

export interface FeedParsePoolOptions {
  /** Workers at most; started on first use, so a poller that only sees small feeds starts none. */
  size: number;
  /**
   * A parse running longer than this is stopped: its worker is terminated and the parse fails. Counted
   * from when the worker is ready for it, so a worker's start is not part of it.
   */
  timeoutMs: number;
  /** A worker not ready this long after its start is stopped, and its parse (if any) fails. */
  startTimeoutMs?: number;
  /** Told each time a worker is lost (stopped for its time, crashed, exited), with the reason. */
  onWorkerLost?: (reason: string) => void;
  /** Heap bound of one worker: a feed that needs more fails alone instead of growing the poller. */
  maxHeapMb?: number;
  /** The worker's entry module (a .ts file URL). Tests pass one whose parse misbehaves on purpose. */
  workerEntry?: URL;
}

interface ParseRequest {
  id: number;
  body: Uint8Array;
  contentType: string | null;
  options: FeedParseOptions;
}

type ParseAnswer =
  | { kind: 'ready' }
  | { id: number; kind: 'parsed'; feed: ParsedFeed }
  | { id: number; kind: 'refused'; reason: string }
  | { id: number; kind: 'threw'; name: string; message: string; stack: string | undefined };

interface Job {
  id: number;
  body: Uint8Array;
  contentType: string | null;
  options: FeedParseOptions;
  resolve: (feed: ParsedFeed) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The worker has loaded its parser; until then its job's time has not started. */
  ready: boolean;
  /** The bound on the worker's start, cleared when it is ready. */
  startTimer?: NodeJS.Timeout;
}

/** How long a worker may take to start (load tsx and the parser) unless told otherwise. */
export const defaultWorkerStartTimeoutMs = 60_000;

const loaderUrl = new URL('./parse-worker-loader.mjs', import.meta.url);
const defaultEntry = new URL('./parse-worker.ts', import.meta.url);

export class FeedParsePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: FeedParsePoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError('size must be at least 1');
  }

  /** Parses on a worker; rejects with a FeedParseError as parseFeed would throw it. */
  parse(body: Uint8Array, contentType: string | null, options: FeedParseOptions = {}): Promise<ParsedFeed> {
    if (this.closed) return Promise.reject(new Error('the feed parse pool is closed'));
    return new Promise<ParsedFeed>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, body, contentType, options, resolve, reject });
      this.pump();
    });
  }

  /** Workers running now (for tests and diagnostics). */
  get workers(): number {
    return this.slots.size;
  }

  /** Stops every worker; parses still queued or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new Error('the feed parse pool is closed');
    for (const job of this.queue.splice(0)) job.reject(closing);
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) {
      clearTimeout(slot.startTimer);
      if (slot.job) settle(slot.job, () => slot.job!.reject(closing));
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private idleSlot(): Slot | undefined {
    for (const slot of this.slots) if (!slot.job) return slot;
    return this.slots.size < this.options.size ? this.startWorker() : undefined;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    // A worker still starting gets the request now (it waits in the worker's port) and the parse's time
    // starts when the worker says it is ready.
    if (slot.ready) this.startClock(slot, job);
    // A copy of exactly the body's bytes, handed over rather than copied again: posting the view itself
    // would clone its whole underlying buffer, which for a Buffer may be a shared pool.
    const bytes = new Uint8Array(job.body);
    const request: ParseRequest = {
      id: job.id,
      body: bytes,
      contentType: job.contentType,
      options: job.options,
    };
    slot.worker.postMessage(request, [bytes.buffer]);
  }

  /** The parse's time starts: its worker is ready, so from now on the worker is only parsing it. */
  private startClock(slot: Slot, job: Job): void {
    job.timer = setTimeout(() => {
      this.lose(slot, `parsing took longer than ${this.options.timeoutMs} ms and was stopped`);
    }, this.options.timeoutMs);
  }

  private startWorker(): Slot {
    const worker = new Worker(loaderUrl, {
      workerData: { entry: (this.options.workerEntry ?? defaultEntry).href },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 },
    });
    // An idle worker must never keep a stopping process alive; a parse in flight has its timer.
    worker.unref();
    const slot: Slot = { worker, job: null, ready: false };
    const startTimeoutMs = this.options.startTimeoutMs ?? defaultWorkerStartTimeoutMs;
    slot.startTimer = setTimeout(() => {
      this.lose(slot, `the parser did not start within ${startTimeoutMs} ms and was stopped`);
    }, startTimeoutMs);
    this.slots.add(slot);
    worker.on('message', (answer: ParseAnswer) => this.answered(slot, answer));
    worker.on('error', (error: Error) => this.lose(slot, `the parser failed: ${error.message}`));
    worker.on('exit', (code) => this.lose(slot, `the parser stopped unexpectedly (exit code ${code})`));
    return slot;
  }

  private answered(slot: Slot, answer: ParseAnswer): void {
    if (answer.kind === 'ready') {
      if (slot.ready) return;
      slot.ready = true;
      clearTimeout(slot.startTimer);
      if (slot.job) this.startClock(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || job.id !== answer.id) return; // the answer of a parse already given up on
    slot.job = null;
    settle(job, () => {
      if (answer.kind === 'parsed') job.resolve(answer.feed);
      else if (answer.kind === 'refused') job.reject(new FeedParseError(answer.reason));
      else job.reject(rebuiltError(answer));
    });
    this.pump();
  }

  /** The worker is gone or given up on: its parse (if any) fails with the reason, and it is replaced. */
  private lose(slot: Slot, reason: string): void {
    if (!this.slots.delete(slot)) return; // already lost ('error' is followed by 'exit')
    clearTimeout(slot.startTimer);
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = null;
    if (!this.closed) this.options.onWorkerLost?.(reason);
    if (job) settle(job, () => job.reject(new FeedParseError(reason)));
    this.pump();
  }
}

function settle(job: Job, outcome: () => void): void {
  clearTimeout(job.timer);
  outcome();
}

/** An unexpected error of the worker's parse, rethrown here as parseFeed would have thrown it. */
function rebuiltError(answer: Extract<ParseAnswer, { kind: 'threw' }>): Error {
  const error = new Error(answer.message);
  error.name = answer.name;
  if (answer.stack) error.stack = answer.stack;
  return error;
}

/**
 * The worker's side: says it is ready (its parser is loaded, which starts the pool's clock on its parses),
 * then answers each parse request with `parse`'s result. A FeedParseError travels as its reason
 * (structured cloning would keep neither its class nor its reason); anything else as its name, message and
 * stack.
 */
export function serveParses(parse: ParseFunction): void {
  const port = parentPort;
  if (!port) throw new Error('serveParses runs in a worker thread');
  port.on('message', ({ id, body, contentType, options }: ParseRequest) => {
    let answer: ParseAnswer;
    try {
      answer = { id, kind: 'parsed', feed: parse(body, contentType, options) };
    } catch (error) {
      if (error instanceof FeedParseError) answer = { id, kind: 'refused', reason: error.reason };
      else {
        const e = error instanceof Error ? error : new Error(String(error));
        answer = { id, kind: 'threw', name: e.name, message: e.message, stack: e.stack };
      }
    }
    port.postMessage(answer);
  });
  const ready: ParseAnswer = { kind: 'ready' };
  port.postMessage(ready);
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
