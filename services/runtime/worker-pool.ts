// CPU-bound work on worker threads, so that one long job (a 1.6 MB feed's parse, the analysis of a
// 100,000-character text) never holds up the event loop every other request's timers and sockets run on.
// Used by the poller's feed parses (feeds/parser/parse-pool.ts) and the API's text analyses
// (intelligence/analysis-pool.ts).
//
// Both ends of the protocol live here: the pool on the main thread and `serveRequests` in the worker. An
// error the worker's handler means as an answer (a refusal: a feed that is no feed, a text with nothing
// to analyse) arrives as a WorkerRefusal with its reason, for the caller to rethrow as its own error; any
// other error as that error's name, message and stack. A job that runs past its time, or a worker that
// dies (out of memory, a crash), costs that one job a WorkerLost saying so, and the worker is replaced
// on the next job, so a bad input fails alone and never leaves the caller waiting on a worker that will
// not answer.
//
// A job whose caller no longer wants it (its `signal` aborted: the request it serves is past its deadline,
// or its client left) is dropped from the queue, or stopped with its worker if it already runs, so that
// the workers are not kept busy with answers nobody will read while later jobs wait behind them.
//
// A job's time starts when its worker is ready (has loaded its modules and said so), not when the job is
// handed to it: a new worker's start (tsx and the modules, a second or more on a busy machine) is no part
// of the job, and must not cost it its time. The start has a bound of its own (`startTimeoutMs`), so a
// worker that never comes up fails its job too.
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** Workers at most; started on first use, so a process that never needs one starts none. */
  size: number;
  /**
   * A job running longer than this is stopped: its worker is terminated and the job fails. Counted from
   * when the worker is ready for it, so a worker's start is not part of it.
   */
  timeoutMs: number;
  /** A worker not ready this long after its start is stopped, and its job (if any) fails. */
  startTimeoutMs?: number;
  /**
   * A worker idle this long is stopped, giving back its memory (its modules, its heap: ~110 MB after an
   * analysis of 100,000 characters); the next job starts another. Unset: workers are kept.
   */
  idleTimeoutMs?: number;
  /** Told each time a worker is lost (stopped for its time, crashed, exited), with the reason. */
  onWorkerLost?: (reason: string) => void;
  /** Heap bound of one worker: a job that needs more fails alone instead of growing the process. */
  maxHeapMb?: number;
  /** The worker's entry module (a .ts file URL), which calls serveRequests. */
  entry: URL;
  /** How the reasons name the work, the worker and the pool: `parsing`, `the parser`, `the feed parse pool`. */
  names: { work: string; worker: string; pool: string };
}

/** The worker's handler refused the job, as it meant to: `reason` says why. */
export class WorkerRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WorkerRefusal';
  }
}

/** The job's worker was stopped (past its time, not started in time) or died: `reason` says which. */
export class WorkerLost extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WorkerLost';
  }
}

type Answer<R> =
  | { kind: 'ready' }
  | { id: number; kind: 'done'; value: R }
  | { id: number; kind: 'refused'; reason: string }
  | { id: number; kind: 'threw'; name: string; message: string; stack: string | undefined };

interface Job<Q, R> {
  id: number;
  request: Q;
  transfer: readonly Transferable[];
  resolve: (value: R) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  /** The caller's signal, and what its abort does (removed once the job is settled). */
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot<Q, R> {
  worker: Worker;
  job: Job<Q, R> | null;
  /** The worker has loaded its modules; until then its job's time has not started. */
  ready: boolean;
  /** The bound on the worker's start, cleared when it is ready. */
  startTimer?: NodeJS.Timeout;
  /** Stops the worker once idle for idleTimeoutMs. */
  idleTimer?: NodeJS.Timeout;
}

/** How long a worker may take to start (load tsx and its modules) unless told otherwise. */
export const defaultWorkerStartTimeoutMs = 60_000;

const loaderUrl = new URL('./worker-loader.mjs', import.meta.url);

export class WorkerPool<Q, R> {
  private readonly slots = new Set<Slot<Q, R>>();
  private readonly queue: Job<Q, R>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError('size must be at least 1');
  }

  /**
   * Runs `request` on a worker (`transfer`: buffers handed over rather than copied). Rejects with a
   * WorkerRefusal, a WorkerLost, or the worker's unexpected error rebuilt; or, once `signal` aborts,
   * with its reason: a job still queued leaves the queue, a job under way is stopped with its worker.
   */
  run(request: Q, transfer: readonly Transferable[] = [], signal?: AbortSignal): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`${this.options.names.pool} is closed`));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<R>((resolve, reject) => {
      const job: Job<Q, R> = { id: this.nextId++, request, transfer, resolve, reject };
      if (signal) {
        job.signal = signal;
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Workers running now (for tests and diagnostics). */
  get workers(): number {
    return this.slots.size;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Stops every worker; jobs still queued or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new Error(`${this.options.names.pool} is closed`);
    for (const job of this.queue.splice(0)) settle(job, () => job.reject(closing));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) {
      clearTimeout(slot.startTimer);
      clearTimeout(slot.idleTimer);
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

  private idleSlot(): Slot<Q, R> | undefined {
    for (const slot of this.slots) if (!slot.job) return slot;
    return this.slots.size < this.options.size ? this.startWorker() : undefined;
  }

  private dispatch(slot: Slot<Q, R>, job: Job<Q, R>): void {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    // A worker still starting gets the request now (it waits in the worker's port) and the job's time
    // starts when the worker says it is ready.
    if (slot.ready) this.startClock(slot, job);
    slot.worker.postMessage({ id: job.id, request: job.request }, [...job.transfer]);
  }

  /** The job's time starts: its worker is ready, so from now on the worker is only doing it. */
  private startClock(slot: Slot<Q, R>, job: Job<Q, R>): void {
    job.timer = setTimeout(() => {
      this.lose(
        slot,
        `${this.options.names.work} took longer than ${this.options.timeoutMs} ms and was stopped`,
      );
    }, this.options.timeoutMs);
  }

  private startWorker(): Slot<Q, R> {
    const { names } = this.options;
    const worker = new Worker(loaderUrl, {
      // None of the process's flags: its preloads (--import of a TypeScript probe or tracer) would run
      // before worker-loader.mjs registers tsx and fail the worker ("Unknown file extension .ts"), and
      // flags a thread cannot take (--expose-gc) fail it too. The loader registers tsx itself.
      execArgv: [],
      workerData: { entry: this.options.entry.href },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 },
    });
    // An idle worker must never keep a stopping process alive; a job in flight has its timer.
    worker.unref();
    const slot: Slot<Q, R> = { worker, job: null, ready: false };
    const startTimeoutMs = this.options.startTimeoutMs ?? defaultWorkerStartTimeoutMs;
    slot.startTimer = setTimeout(() => {
      this.lose(slot, `${names.worker} did not start within ${startTimeoutMs} ms and was stopped`);
    }, startTimeoutMs);
    this.slots.add(slot);
    worker.on('message', (answer: Answer<R>) => this.answered(slot, answer));
    worker.on('error', (error: Error) => this.lose(slot, `${names.worker} failed: ${error.message}`));
    worker.on('exit', (code) => this.lose(slot, `${names.worker} stopped unexpectedly (exit code ${code})`));
    return slot;
  }

  private answered(slot: Slot<Q, R>, answer: Answer<R>): void {
    if (answer.kind === 'ready') {
      if (slot.ready) return;
      slot.ready = true;
      clearTimeout(slot.startTimer);
      if (slot.job) this.startClock(slot, slot.job);
      return;
    }
    const job = slot.job;
    if (!job || job.id !== answer.id) return; // the answer of a job already given up on
    slot.job = null;
    settle(job, () => {
      if (answer.kind === 'done') job.resolve(answer.value);
      else if (answer.kind === 'refused') job.reject(new WorkerRefusal(answer.reason));
      else job.reject(rebuiltError(answer));
    });
    this.pump();
    if (!slot.job && this.options.idleTimeoutMs !== undefined) {
      slot.idleTimer = setTimeout(() => this.retire(slot), this.options.idleTimeoutMs);
      slot.idleTimer.unref();
    }
  }

  /**
   * The caller gave the job up (its signal aborted): out of the queue if it waits there; if a worker has
   * it, that worker is stopped (a thread cannot be interrupted otherwise) and replaced on the next job.
   * Not a loss: nobody is told of one.
   */
  private cancel(job: Job<Q, R>): void {
    const reason = abortReason(job.signal!);
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      settle(job, () => job.reject(reason));
      return;
    }
    for (const slot of this.slots) if (slot.job === job) return this.stop(slot, reason);
  }

  /** An idle worker stopped for its idleness: no job fails, and nobody is told of a loss. */
  private retire(slot: Slot<Q, R>): void {
    if (slot.job || !this.slots.delete(slot)) return;
    void slot.worker.terminate();
  }

  /** The worker is gone or given up on: its job (if any) fails with the reason, and it is replaced. */
  private lose(slot: Slot<Q, R>, reason: string): void {
    if (!this.slots.has(slot)) return; // already lost ('error' is followed by 'exit'), or retired
    if (!this.closed) this.options.onWorkerLost?.(reason);
    this.stop(slot, new WorkerLost(reason));
  }

  /** Stops the slot's worker (replaced on the next job); its job, if any, fails with `failure`. */
  private stop(slot: Slot<Q, R>, failure: Error): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.startTimer);
    clearTimeout(slot.idleTimer);
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = null;
    if (job) settle(job, () => job.reject(failure));
    this.pump();
  }
}

function settle(
  job: { timer?: NodeJS.Timeout; signal?: AbortSignal; onAbort?: () => void },
  outcome: () => void,
): void {
  clearTimeout(job.timer);
  if (job.onAbort) job.signal!.removeEventListener('abort', job.onAbort);
  outcome();
}

/** What an aborted signal says, as an Error (abort() without a reason gives a DOMException). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === 'string' ? reason : 'the job was given up');
}

/** An unexpected error of the worker's handler, rethrown here as the handler threw it. */
function rebuiltError(answer: Extract<Answer<unknown>, { kind: 'threw' }>): Error {
  const error = new Error(answer.message);
  error.name = answer.name;
  if (answer.stack) error.stack = answer.stack;
  return error;
}

/**
 * The worker's side: says it is ready (its modules are loaded, which starts the pool's clock on its
 * jobs), then answers each request with `handle`'s result. An error `refusal` gives a reason for travels
 * as that reason (structured cloning would keep neither its class nor its fields); anything else as its
 * name, message and stack.
 */
export function serveRequests<Q, R>(
  handle: (request: Q) => R | Promise<R>,
  refusal: (error: unknown) => string | undefined = () => undefined,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests runs in a worker thread');
  port.on('message', ({ id, request }: { id: number; request: Q }) => {
    const answer = (outcome: Answer<R>) => port.postMessage(outcome);
    const failed = (error: unknown) => {
      const reason = refusal(error);
      if (reason !== undefined) return answer({ id, kind: 'refused', reason });
      const e = error instanceof Error ? error : new Error(String(error));
      answer({ id, kind: 'threw', name: e.name, message: e.message, stack: e.stack });
    };
    try {
      const value = handle(request);
      if (value instanceof Promise) value.then((v) => answer({ id, kind: 'done', value: v }), failed);
      else answer({ id, kind: 'done', value });
    } catch (error) {
      failed(error);
    }
  });
  const ready: Answer<R> = { kind: 'ready' };
  port.postMessage(ready);
}
