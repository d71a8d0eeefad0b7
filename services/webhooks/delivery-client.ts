// POSTs one signed webhook delivery and says what happened, as data: the dispatcher records every
// attempt and decides between done, retry, disable and dead-letter, so nothing here throws for a
// network-level problem.
//
// Webhook URLs come from customers, hence the same care as for feeds: the outbound-URL policy checks the
// URL and the connection goes to exactly the addresses it approved (the poller's PinnedAddresses, so a
// DNS answer cannot change between check and connect). Unlike the feed fetcher, redirects are never
// followed: a receiver that moved must be given its new URL, and a signed POST replayed to wherever a 30x
// points would hand our payload to a host the customer never named.
import { Agent } from 'undici';
import type { HostLookup, OutboundCheck, OutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { DeadlineExceededError } from '../runtime/outbound/deadline.ts';
import { PinnedAddresses } from '../runtime/outbound/pinned-addresses.ts';
import type { SignatureHeaders } from './signing.ts';
import { sendWebhookPost, type AbortPost } from './webhook-post.ts';

export interface DeliveryRequest {
  url: string;
  /** The signature headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Readonly<SignatureHeaders>;
  /** The exact JSON text that was signed. */
  body: string;
}

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number; durationMs: number }
  /** The receiver answered 410 Gone: it asks us to stop, so the dispatcher disables the endpoint. */
  | { kind: 'gone'; status: 410; durationMs: number }
  | {
      kind: 'failed';
      status: number | null;
      error: string;
      durationMs: number;
      /** False when trying again cannot help (the URL is refused by policy or is not a URL). */
      retryable: boolean;
      /** The response's Retry-After header as sent, if it had one (the retry plan decides what it means). */
      retryAfter?: string;
    };

export interface DeliveryClientOptions {
  policy: OutboundUrlPolicy;
  connectTimeoutMs: number;
  /** The whole attempt: DNS, connect, sending, and waiting for the response headers. */
  totalTimeoutMs: number;
  /** Response body read (and discarded) up to this; beyond it the connection is dropped. */
  maxResponseBytes: number;
  userAgent: string;
  /** DNS used by the policy check; defaults to the policy's own. */
  lookup?: HostLookup;
  clock?: () => number;
}

export interface DeliveryClient {
  deliver(request: DeliveryRequest): Promise<DeliveryOutcome>;
  /** Closes idle keep-alive connections and waits for deliveries in flight. */
  close(): Promise<void>;
}

export function createDeliveryClient(options: DeliveryClientOptions): DeliveryClient {
  for (const name of ['connectTimeoutMs', 'totalTimeoutMs', 'maxResponseBytes'] as const) {
    const value = options[name];
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`delivery client ${name} must be an integer ≥ 1`);
  }
  const { policy, connectTimeoutMs, totalTimeoutMs, maxResponseBytes, userAgent } = options;
  const clock = options.clock ?? Date.now;
  const pins = new PinnedAddresses();
  /**
   * Each webhook URL parsed once (WHATWG URL parsing was ~1.5% of a busy dispatcher's CPU), for at most
   * this many URLs; the oldest parsed is forgotten first. The URL objects are only read.
   */
  const urls = new Map<string, ParsedUrl | null>();
  const parsedUrl = (text: string): ParsedUrl | null => {
    let parsed = urls.get(text);
    if (parsed !== undefined) return parsed;
    try {
      const url = new URL(text);
      parsed = { url, origin: url.origin, path: `${url.pathname}${url.search}` };
    } catch {
      parsed = null;
    }
    if (urls.size >= parsedUrlCapacity) urls.delete(urls.keys().next().value!);
    urls.set(text, parsed);
    return parsed;
  };
  const agent = new Agent({
    connect: { timeout: connectTimeoutMs, lookup: pins.lookup },
    // The deadline is the real bound; these only stop undici's own (longer) defaults from mattering.
    headersTimeout: totalTimeoutMs,
    bodyTimeout: totalTimeoutMs,
  });

  // No named closures per delivery (elapsed time, failures, no-op defaults): under tsx each costs a
  // property definition as it is created.
  async function deliver(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = clock();

    const parsed = parsedUrl(request.url);
    if (parsed === null) return failed(null, 'invalid webhook URL', false, clock, started);
    const { url } = parsed;
    // One timer bounds the whole attempt: the policy's DNS lookup, then the POST until its headers (and
    // the reading of its body). It aborts whichever is under way when it fires.
    let expired = false;
    let abortStep: AbortPost | null = null;
    const timer = setTimeout(() => {
      expired = true;
      abortStep?.(new DeadlineExceededError(totalTimeoutMs));
    }, totalTimeoutMs);
    let unpin: (() => void) | null = null;
    try {
      const verdict = await new Promise<OutboundCheck>((resolve, reject) => {
        abortStep = reject;
        policy.check(url, options.lookup ? { lookup: options.lookup } : undefined).then(resolve, reject);
      });
      // A DNS failure may pass; a refusal stands until the URL or the allow-list changes.
      if (!verdict.ok) return failed(null, verdict.reason, verdict.kind === 'unresolved', clock, started);
      unpin = pins.pin(verdict.hostname, verdict.addresses);

      const response = await sendWebhookPost(
        agent,
        {
          origin: parsed.origin,
          path: parsed.path,
          // Named one by one: V8 takes microseconds to build a spread that adds keys, per delivery.
          headers: {
            'webhook-id': request.headers['webhook-id'],
            'webhook-timestamp': request.headers['webhook-timestamp'],
            'webhook-signature': request.headers['webhook-signature'],
            'content-type': 'application/json',
            'user-agent': userAgent,
          },
          body: request.body,
          // Nothing in the body changes the outcome; it is drained so the connection can be reused, and a
          // receiver streaming forever (or past the deadline) only gets its connection dropped.
          maxResponseBytes,
        },
        (abort) => (abortStep = abort),
      );
      const status = response.status;

      if (status >= 200 && status < 300)
        return { kind: 'delivered', status, durationMs: elapsedSince(clock, started) };
      if (status === 410) return { kind: 'gone', status: 410, durationMs: elapsedSince(clock, started) };
      // Any non-2xx is a failed attempt to retry (Standard Webhooks); the receiver may be fixed meanwhile.
      if (status >= 300 && status < 400)
        return failed(status, redirectError(status, response.header('location'), url), true, clock, started);
      const retryAfter = response.header('retry-after');
      return {
        ...failed(status, `HTTP ${status}`, true, clock, started),
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
    } catch (error) {
      if (expired) return failed(null, `timeout after ${totalTimeoutMs} ms`, true, clock, started);
      return failed(null, describeError(error, url.host, connectTimeoutMs), true, clock, started);
    } finally {
      unpin?.();
      clearTimeout(timer);
    }
  }

  return { deliver, close: () => agent.close() };
}

interface ParsedUrl {
  url: URL;
  origin: string;
  path: string;
}

const parsedUrlCapacity = 10_000;

function elapsedSince(clock: () => number, started: number): number {
  return Math.max(0, clock() - started);
}

function failed(
  status: number | null,
  error: string,
  retryable: boolean,
  clock: () => number,
  started: number,
): DeliveryOutcome {
  return { kind: 'failed', status, error, durationMs: elapsedSince(clock, started), retryable };
}

function redirectError(status: number, location: string | undefined, from: URL): string {
  if (location === undefined) return `redirect not followed (HTTP ${status} without a Location header)`;
  try {
    // Only the host: the path or query of the target may carry tokens.
    return `redirect not followed (HTTP ${status} to ${new URL(location, from).host})`;
  } catch {
    return `redirect not followed (HTTP ${status} to an invalid Location)`;
  }
}

function describeError(error: unknown, host: string, connectTimeoutMs: number): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${host}`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `timeout after ${connectTimeoutMs} ms connecting to ${host}`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `connection closed by ${host}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} is unreachable (${code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not resolve ${host} (${code})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined && /CERT|SSL|TLS/.test(code)) return `TLS error with ${host}: ${message}`;
  return `${message}${code ? ` (${code})` : ''}`;
}

// Node reports a failed connect to several addresses (happy eyeballs) as an AggregateError.
function errorCode(error: unknown): string | undefined {
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0]);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
