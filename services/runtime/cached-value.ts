// A value read at most once per `ttlMs`: callers within that time share the last answer, callers during
// a read share that read, and a failed read is not kept (the next caller tries again).
export class CachedValue<T> {
  private value: { at: number; promise: Promise<T> } | null = null;

  constructor(
    private readonly ttlMs: number,
    private readonly read: () => Promise<T>,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    const at = this.now();
    if (this.value && at - this.value.at < this.ttlMs) return this.value.promise;
    const promise = this.read();
    const entry = { at, promise };
    this.value = entry;
    promise.catch(() => {
      if (this.value === entry) this.value = null;
    });
    return promise;
  }
}
