// Identical reads that overlap share one: while a read for a key is under way, every caller asking for
// the same key gets its answer instead of starting another. Nothing is kept once it has answered, so no
// answer is older than the read that was already running when its caller asked (the caller would have
// waited about as long for a read of its own, which could have started no earlier).
export class SharedReads<T> {
  private readonly running = new Map<string, Promise<T>>();
  private shared = 0;

  run(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) {
      this.shared += 1;
      return running;
    }
    const promise = read().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }

  /** How many callers got another's answer so far (for the operator: how much the sharing saves). */
  get sharedCount(): number {
    return this.shared;
  }
}
