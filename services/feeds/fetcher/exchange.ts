// One HTTP request and its response through undici's dispatcher API: the status and headers, then the
// body read whole, as a stream of chunks, or discarded. `Agent.request` gives the same through a
// Readable stream per response (with its events, async iteration and destruction), which cost more CPU
// than the rest of a feed's fetch; a poller fetches a feed of 20 items for about every 2 ms of its CPU.
//
// The body's bytes are kept as they arrive, at most `maxBytes` of them on the wire: past that the
// request is aborted (which closes its connection) and the body fails with BodyTooLargeError. Aborting
// `signal` aborts the request at any point, with the signal's reason.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { BodyTooLargeError } from './response-body.ts';

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body: resolves once it ended. */
  read(): Promise<Uint8Array>;
  /** The body chunk by chunk; leaving the loop early aborts the request. */
  chunks(): AsyncIterable<Uint8Array>;
  /**
   * Reads and drops the body so the connection can serve the next request; a body longer than `limit`
   * bytes is not worth reading, and the request is aborted instead (closing the connection).
   */
  discard(limit: number): Promise<void>;
}

/** Sends the request; resolves with the response's head, or rejects with what failed first. */
export function exchange(
  dispatcher: Pick<Dispatcher, 'dispatch'>,
  options: Dispatcher.DispatchOptions,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Exchange> {
  return new Promise<Exchange>((resolve, reject) => {
    const handler = new ExchangeHandler(maxBytes, signal, resolve, reject);
    dispatcher.dispatch(options, handler);
  });
}

class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private head: { resolve: (exchange: Exchange) => void; reject: (error: unknown) => void } | null;
  private readonly pending: Uint8Array[] = [];
  private received = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  /** Wakes whoever waits for more of the body (a chunk, its end, a failure). */
  private wake: (() => void) | null = null;
  private readonly onAbort: () => void;

  constructor(
    private limit: number,
    private readonly signal: AbortSignal,
    resolve: (exchange: Exchange) => void,
    reject: (error: unknown) => void,
  ) {
    this.head = { resolve, reject };
    this.onAbort = () => this.abort(signal.reason);
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason as Error);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (status < 200 || this.head === null) return; // 1xx: informational, the response is still to come
    const head = this.head;
    this.head = null;
    head.resolve({
      status,
      headers,
      read: () => this.read(),
      chunks: () => this.chunks(),
      discard: (limit) => this.discard(limit),
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limit) {
      controller.abort(new BodyTooLargeError(this.limit));
      return;
    }
    this.pending.push(chunk);
    this.wakeUp();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.settled();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.failure = { error };
    this.settled();
    if (this.head) {
      this.head.reject(error);
      this.head = null;
    }
  }

  private abort(reason: unknown): void {
    if (this.ended || this.failure) return;
    // Not started yet (only the signal can abort so early): onRequestStart aborts it when it starts.
    this.controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  }

  private settled(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Resolves once there is more to read: a chunk, the end, or a failure. */
  private more(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private async read(): Promise<Uint8Array> {
    while (!this.ended) {
      if (this.failure) throw this.failure.error;
      await this.more();
    }
    // A fresh array rather than Buffer.concat: small Buffers share a pooled ArrayBuffer with other data.
    const body = new Uint8Array(this.received);
    let offset = 0;
    for (const chunk of this.pending.splice(0)) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    return body;
  }

  private async *chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        if (this.pending.length > 0) yield this.pending.shift()!;
        else if (this.failure) throw this.failure.error;
        else if (this.ended) return;
        else await this.more();
      }
    } finally {
      // Left early (the reader's own cap, a decoding error): the rest of the body is not wanted.
      if (!this.ended) this.abort(new Error('the body was not read to its end'));
    }
  }

  private async discard(limit: number): Promise<void> {
    this.pending.length = 0;
    if (this.received > limit) return this.abort(new Error('the body was not read to its end'));
    this.limit = limit;
    while (!this.ended && !this.failure) {
      await this.more();
      this.pending.length = 0;
    }
  }
}
