// Group commit for the projector's inserts: while an insert is in flight, the batches handed over
// (from other partitions, or from the next fetch) gather into one group, written as ONE insert when a
// slot frees, so that ClickHouse gets a few big inserts (fewer parts to write and merge) instead of
// many small ones. A batch handed over while nothing is in flight is written at once: a quiet topic
// waits for nothing. A full group (its caps reached) goes as a second insert in flight, so that the
// projector encodes one while ClickHouse writes the other; with both slots busy and the group full,
// add() waits, which bounds the memory: at most `maxInFlight + 1` groups of at most the caps.
//
// Items are never split across groups, and a group's failure fails every item it carried (their
// `written` rejects), so the consumer runner reads them again rather than committing them
// (consumer.ts, deferred commits).

export interface GroupLimits {
  /** A group closes once it holds this many rows (a lone item bigger than this still goes, alone). */
  maxRows: number;
  /** ... or this many bytes. */
  maxBytes: number;
  /** Groups written at once. */
  maxInFlight: number;
}

export interface GroupInsertOptions<T> extends GroupLimits {
  /** Writes one group, its items in the order they were added. */
  write: (items: T[]) => Promise<void>;
  /** An item's rows and bytes, as the caps count them. */
  size: (item: T) => { rows: number; bytes: number };
}

interface Group<T> {
  items: T[];
  rows: number;
  bytes: number;
  written: Promise<void>;
  settle: { resolve: () => void; reject: (error: unknown) => void };
}

export class GroupInsert<T> {
  private pending: Group<T> | undefined;
  private inFlight = 0;
  /** add() calls waiting for room: woken each time a write ends. */
  private waiting: (() => void)[] = [];
  /** Settles when nothing is pending or in flight. */
  private idleWaiters: (() => void)[] = [];
  /**
   * Groups written (or tried), the items and rows they carried, and the milliseconds their writes took
   * in all (for the benchmark's summary).
   */
  readonly stats = { groups: 0, items: 0, rows: 0, ms: 0 };

  constructor(private readonly options: GroupInsertOptions<T>) {
    if (!(options.maxInFlight >= 1)) throw new Error('GroupInsert: maxInFlight must be at least 1');
  }

  /**
   * Takes an item; resolves once it is in a group, with `written`, which settles when that group's
   * insert did (rejecting with its error on a failure).
   */
  async add(item: T): Promise<{ written: Promise<void> }> {
    const size = this.options.size(item);
    for (;;) {
      const group = this.pending;
      if (!group || this.fits(group, size)) {
        const into = group ?? this.open();
        into.items.push(item);
        into.rows += size.rows;
        into.bytes += size.bytes;
        this.flushIfDue();
        return { written: into.written };
      }
      // The open group is full: it goes now if a slot is free, else wait for one.
      if (this.inFlight < this.options.maxInFlight) this.flush();
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Resolves once every group handed over so far was written or failed. */
  idle(): Promise<void> {
    if (!this.pending && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private fits(group: Group<T>, size: { rows: number; bytes: number }): boolean {
    return (
      group.rows + size.rows <= this.options.maxRows && group.bytes + size.bytes <= this.options.maxBytes
    );
  }

  private open(): Group<T> {
    let settle!: Group<T>['settle'];
    const written = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // Whoever added an item awaits `written`; this only keeps a failure nobody awaits yet from being
    // reported as unhandled.
    written.catch(() => undefined);
    this.pending = { items: [], rows: 0, bytes: 0, written, settle };
    return this.pending;
  }

  /** Writes the open group at once when nothing is in flight, or when it is full and a slot is free. */
  private flushIfDue(): void {
    const group = this.pending;
    if (!group) return;
    const full = group.rows >= this.options.maxRows || group.bytes >= this.options.maxBytes;
    if (this.inFlight === 0 || (full && this.inFlight < this.options.maxInFlight)) this.flush();
  }

  private flush(): void {
    const group = this.pending;
    if (!group) return;
    this.pending = undefined;
    this.inFlight++;
    this.stats.groups++;
    this.stats.items += group.items.length;
    this.stats.rows += group.rows;
    const started = performance.now();
    // The write is the items' only holder from here: they may go as soon as it has encoded them.
    const items = group.items;
    group.items = [];
    let writing: Promise<void>;
    try {
      writing = this.options.write(items);
    } catch (error) {
      writing = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    writing.then(
      () => this.ended(group, undefined, started),
      (error: unknown) => this.ended(group, error ?? new Error('the group insert failed'), started),
    );
  }

  private ended(group: Group<T>, error: unknown, started: number): void {
    this.inFlight--;
    this.stats.ms += performance.now() - started;
    if (error === undefined) group.settle.resolve();
    else group.settle.reject(error);
    // What gathered meanwhile goes now; then whoever waited for room tries again.
    this.flushIfDue();
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
    if (!this.pending && this.inFlight === 0) {
      const idle = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of idle) resolve();
    }
  }
}
