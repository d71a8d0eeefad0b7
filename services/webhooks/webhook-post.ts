// One webhook POST on undici's dispatch interface, for the delivery client: the status and the headers
// of the answer, its body read up to a cap and thrown away, and a time limit that aborts it.
//
// undici's request() would do the same, but around every call it builds what a caller that reads the
// answer needs: an AsyncResource, a Readable for the body (then dump()ed), an AbortSignal listener.
// A delivery reads nothing but the status and one or two headers; the dispatch handler below costs a
// few objects, and at thousands of deliveries a second what request() adds was a tenth of the
// dispatcher's CPU per delivery.
import type { Dispatcher } from 'undici';

export interface WebhookPost {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The answer's body is read up to this many bytes; beyond it the connection is dropped. */
  maxResponseBytes: number;
}

export interface WebhookAnswer {
  status: number;
  /** The first value of response header `name` (lower case), if it was sent. */
  header(name: string): string | undefined;
}

/** Aborts a POST: before its answer's headers it rejects with `reason`, after them it only stops reading. */
export type AbortPost = (reason: Error) => void;

/**
 * Sends `post` through `dispatcher` and resolves with the answer once its body has been read (or dropped
 * at the cap, or cut short: the status stands once it has arrived). Rejects if no status arrives: the
 * connection failed, or `abortable`'s abort was called first.
 */
export function sendWebhookPost(
  dispatcher: Pick<Dispatcher, 'dispatch'>,
  post: WebhookPost,
  abortable: (abort: AbortPost) => void,
): Promise<WebhookAnswer> {
  return new Promise<WebhookAnswer>((resolve, reject) => {
    const handler = new PostHandler(post.maxResponseBytes, resolve, reject);
    abortable((reason) => handler.abortPost(reason));
    dispatcher.dispatch(
      { origin: post.origin, path: post.path, method: 'POST', headers: post.headers, body: post.body },
      handler,
    );
  });
}

/**
 * undici's handler of one POST. A class rather than an object of closures (and methods rather than
 * arrow-function fields): the dispatcher runs under tsx, which names every named function expression
 * as it is created, a property definition each time.
 */
class PostHandler implements Dispatcher.DispatchHandler {
  private status: number | null = null;
  private rawHeaders: Buffer[] = [];
  private read = 0;
  private abortRequest: ((reason: Error) => void) | null = null;
  private abortedWith: Error | null = null;
  private settled = false;

  constructor(
    private readonly maxResponseBytes: number,
    private readonly resolve: (answer: WebhookAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  abortPost(reason: Error): void {
    if (this.settled || this.abortedWith !== null) return;
    this.abortedWith = reason;
    // Not on a connection yet: it is aborted as soon as it gets one (as request() does with a signal).
    this.abortRequest?.(reason);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.abortedWith !== null) abort(this.abortedWith);
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, headers: Buffer[]): boolean {
    this.status = statusCode;
    this.rawHeaders = headers;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.read += chunk.length;
    // A receiver streaming on and on only gets its connection dropped; the status stands.
    if (this.read > this.maxResponseBytes && this.abortRequest !== null)
      this.abortRequest(new Error(`the answer is longer than ${this.maxResponseBytes} bytes`));
    return true;
  }

  onComplete(): void {
    this.settle(null);
  }

  onError(error: Error): void {
    this.settle(this.abortedWith ?? error);
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    if (this.status === null) {
      this.reject(error ?? new Error('the connection ended without an answer'));
      return;
    }
    this.resolve(new Answer(this.status, this.rawHeaders));
  }
}

class Answer implements WebhookAnswer {
  constructor(
    readonly status: number,
    private readonly rawHeaders: readonly Buffer[],
  ) {}

  header(name: string): string | undefined {
    return firstHeader(this.rawHeaders, name);
  }
}

/** `name` (lower case) in undici's raw headers, alternating names and values. */
function firstHeader(raw: readonly Buffer[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toString('latin1').toLowerCase() === name)
      return raw[i + 1]!.toString('latin1');
  }
  return undefined;
}
