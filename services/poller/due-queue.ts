// The sources waiting for their poll, earliest due first: a binary min-heap of (due time, item). The
// scheduler used to copy and sort every due source on each tick (four a second); with a backlog of
// thousands of due sources (a start, a restart, a poller taking over partitions) that copy and sort was
// 3% of the poller's CPU. Here a source costs O(log n) when it is scheduled and when it is taken.
//
// Entries are never updated or removed in place: a rescheduled item is pushed again with its new time,
// and the caller tells a stale entry (the item was rescheduled, removed or started since) from a live one
// when it takes it. `compact` drops the stale ones when they pile up.

export class DueQueue<T> {
  private times: number[] = [];
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    let i = this.items.length;
    this.times.push(at);
    this.items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.times[parent]! <= at) break;
      this.times[i] = this.times[parent]!;
      this.items[i] = this.items[parent]!;
      i = parent;
    }
    this.times[i] = at;
    this.items[i] = item;
  }

  /** The earliest due time queued, or Infinity when nothing is. */
  peekTime(): number {
    return this.times.length > 0 ? this.times[0]! : Infinity;
  }

  /** Takes the earliest entry; undefined when empty. */
  pop(): { at: number; item: T } | undefined {
    const size = this.items.length;
    if (size === 0) return undefined;
    const top = { at: this.times[0]!, item: this.items[0]! };
    const lastAt = this.times.pop()!;
    const lastItem = this.items.pop()!;
    if (size > 1) this.siftDown(lastAt, lastItem);
    return top;
  }

  /** Keeps only the entries `live` accepts (order preserved by rebuilding the heap). */
  compact(live: (at: number, item: T) => boolean): void {
    const times = this.times;
    const items = this.items;
    this.times = [];
    this.items = [];
    for (let i = 0; i < items.length; i++) if (live(times[i]!, items[i]!)) this.push(times[i]!, items[i]!);
  }

  private siftDown(at: number, item: T): void {
    const size = this.items.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && this.times[child + 1]! < this.times[child]!) child += 1;
      if (this.times[child]! >= at) break;
      this.times[i] = this.times[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.times[i] = at;
    this.items[i] = item;
  }
}
