// One deadline for a whole fetch (every redirect hop, headers and body), so that a server dripping a
// byte a second cannot hold a connection slot past it. It starts when the fetch first gets a slot:
// time spent queueing behind other requests to the same host is not the server's fault.

export class DeadlineExceededError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'DeadlineExceededError';
  }
}

export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get started(): boolean {
    return this.running;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = setTimeout(() => this.controller.abort(new DeadlineExceededError(this.ms)), this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts (the work is abandoned). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
