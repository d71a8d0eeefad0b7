// At most `limit` requests in flight to one host, so that thousands of sources on one platform
// (a blog host, a CDN) are polled politely instead of all at once. Waiters are served first come,
// first served, and a host's entry is dropped as soon as nothing runs or waits for it: the poller sees
// an unbounded set of hosts over its life and must not remember them all.

export type Release = () => void;

interface HostEntry {
  active: number;
  waiting: { grant: (release: Release) => void }[];
}

export class HostSemaphore {
  private readonly hosts = new Map<string, HostEntry>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`per-host concurrency must be ≥ 1, got ${limit}`);
  }

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if aborted first. */
  acquire(host: string, signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    let entry = this.hosts.get(host);
    if (!entry) {
      entry = { active: 0, waiting: [] };
      this.hosts.set(host, entry);
    }
    if (entry.active < this.limit) {
      entry.active += 1;
      return Promise.resolve(this.releaser(host, entry));
    }
    const queued = entry;
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: (release: Release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = queued.waiting.indexOf(waiter);
        if (index >= 0) queued.waiting.splice(index, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queued.waiting.push(waiter);
    });
  }

  /** Hosts currently tracked (running or waiting); drops back to 0 when idle. */
  get trackedHosts(): number {
    return this.hosts.size;
  }

  private releaser(host: string, entry: HostEntry): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = entry.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next) return next.grant(this.releaser(host, entry));
      entry.active -= 1;
      if (entry.active === 0) this.hosts.delete(host);
    };
  }
}
