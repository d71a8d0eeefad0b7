// GETs a feed URL and says exactly what happened, as data: the poller records every outcome (including
// "the network failed") on the feed-polls topic, so nothing here throws for a network-level problem.
//
// Feed URLs come from customers, hence the care: every hop is checked by the outbound-URL policy and
// connected to the address that was checked; redirects, time and body size are bounded; at most a few
// requests run against one host at a time. One keep-alive Agent serves all sources.
import { STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import type { HostLookup, OutboundUrlPolicy } from '../../runtime/outbound/outbound-url.ts';
import { Deadline, untilAborted } from '../../runtime/outbound/deadline.ts';
import { HostSemaphore } from './host-semaphore.ts';
import type { Release } from './host-semaphore.ts';
import { PinnedAddresses } from '../../runtime/outbound/pinned-addresses.ts';
import { BodyTooLargeError, ContentEncodingError, contentCodings, readBody } from './response-body.ts';
import { exchange } from './exchange.ts';
import { parseRetryAfter } from '../../runtime/outbound/retry-after.ts';
import { freshnessOf, linkTargets, type ResponseHints } from './response-hints.ts';

export interface FetchRequest {
  url: string;
  etag?: string | null;
  lastModified?: string | null;
}

export type FetchOutcome =
  | {
      kind: 'ok';
      status: number;
      body: Uint8Array;
      contentType: string | null;
      etag: string | null;
      lastModified: string | null;
      finalUrl: string;
      /** The status of each redirect followed to reach finalUrl, in order; empty when there was none. */
      redirectStatuses: number[];
      durationMs: number;
      /** Cache lifetime and WebSub links the response headers carry (response-hints.ts). */
      hints: ResponseHints;
    }
  | {
      kind: 'not_modified';
      status: 304;
      etag: string | null;
      lastModified: string | null;
      finalUrl: string;
      redirectStatuses: number[];
      durationMs: number;
      hints: ResponseHints;
    }
  | { kind: 'failed'; status: number | null; reason: string; retryAfterMs: number | null; durationMs: number }
  /** Blocked by the outbound-URL policy: retrying will not help until the URL or the allow-list changes. */
  | { kind: 'refused'; reason: string; durationMs: number };

export interface FetcherOptions {
  connectTimeoutMs: number;
  /** Whole fetch: every hop, headers and body (not the wait for a per-host slot). */
  totalTimeoutMs: number;
  /** Applies to the bytes on the wire and to the decoded body. */
  maxBodyBytes: number;
  maxRedirects: number;
  perHostConcurrency: number;
  userAgent: string;
  policy: OutboundUrlPolicy;
  /** DNS used by the policy check; defaults to the policy's own (node:dns lookup, all addresses). */
  lookup?: HostLookup;
  clock?: () => number;
}

export type FetcherSettings = Pick<FetcherOptions, 'userAgent' | 'policy'> & Partial<FetcherOptions>;

export const defaultFetcherOptions = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  perHostConcurrency: 2,
} as const;

/** Feed formats first, then generic XML/JSON (many servers label feeds that way), then anything. */
export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, ' +
  'application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5';

const redirectCodes = new Set([301, 302, 303, 307, 308]);

// Bodies of redirects, 304s and errors are read up to this much so the connection can be reused.
const discardLimitBytes = 64 * 1024;

type Phase =
  | 'waiting for a free slot for the host'
  | 'resolving the host'
  | 'waiting for the response headers'
  | 'reading the body';

type Hop =
  | { kind: 'redirect'; status: number; location: string; retryAfterMs: number | null }
  | { kind: 'done'; outcome: FetchOutcome };

export class FeedFetcher {
  private readonly options: Required<Omit<FetcherOptions, 'lookup'>> & Pick<FetcherOptions, 'lookup'>;
  private readonly agent: Agent;
  private readonly slots: HostSemaphore;
  private readonly pins = new PinnedAddresses();

  constructor(settings: FetcherSettings) {
    this.options = { ...defaultFetcherOptions, clock: Date.now, ...settings };
    for (const name of Object.keys(defaultFetcherOptions) as (keyof typeof defaultFetcherOptions)[]) {
      const value = this.options[name];
      const least = name === 'maxRedirects' ? 0 : 1;
      if (!Number.isInteger(value) || value < least)
        throw new Error(`fetcher ${name} must be an integer ≥ ${least}`);
    }
    const { connectTimeoutMs, totalTimeoutMs, perHostConcurrency } = this.options;
    this.slots = new HostSemaphore(perHostConcurrency);
    this.agent = new Agent({
      connect: { timeout: connectTimeoutMs, lookup: this.pins.lookup },
      connections: perHostConcurrency,
      // The deadline is the real bound; these only stop undici's own (longer) defaults from mattering.
      headersTimeout: totalTimeoutMs,
      bodyTimeout: totalTimeoutMs,
    });
  }

  async fetch(request: FetchRequest): Promise<FetchOutcome> {
    const started = this.options.clock();
    const elapsed = () => Math.max(0, this.options.clock() - started);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failed(null, `invalid URL ${JSON.stringify(request.url)}`, elapsed());
    }
    const deadline = new Deadline(this.options.totalTimeoutMs);
    try {
      let via: URL | null = null;
      // Whether a feed moved for good (the poller's feed-move.ts) depends on every hop being permanent.
      const redirectStatuses: number[] = [];
      // The addresses a redirect has left, made on the first redirect (most fetches have none).
      let visited: string[] | undefined;
      for (;;) {
        const hop = await this.hop(url, via, redirectStatuses, request, deadline, elapsed);
        if (hop.kind === 'done') return hop.outcome;
        if (redirectStatuses.length >= this.options.maxRedirects) {
          return {
            kind: 'failed',
            status: hop.status,
            reason: `too many redirects (more than ${this.options.maxRedirects})`,
            retryAfterMs: hop.retryAfterMs,
            durationMs: elapsed(),
          };
        }
        redirectStatuses.push(hop.status);
        via = url;
        try {
          url = new URL(hop.location, url);
        } catch {
          return failed(
            hop.status,
            `redirect from ${describe(via)} to an invalid URL ${JSON.stringify(hop.location)}`,
            elapsed(),
          );
        }
        // Back to where it has been: a loop, said as one, and not asked round again up to the limit.
        (visited ??= []).push(via.href);
        if (visited.includes(url.href))
          return failed(
            hop.status,
            `redirect loop: ${describe(via)} redirects back to ${describe(url)}, where it had been`,
            elapsed(),
          );
      }
    } finally {
      deadline.clear();
    }
  }

  /** Closes idle keep-alive connections and waits for requests in flight. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private async hop(
    url: URL,
    via: URL | null,
    redirectStatuses: readonly number[],
    request: FetchRequest,
    deadline: Deadline,
    elapsed: () => number,
  ): Promise<Hop> {
    const done = (outcome: FetchOutcome): Hop => ({ kind: 'done', outcome });
    const timedOut = (status: number | null, phase: Phase) =>
      done(failed(status, `timed out after ${deadline.ms} ms while ${phase}`, elapsed()));

    let release: Release;
    try {
      release = await this.slots.acquire(url.hostname, deadline.started ? deadline.signal : undefined);
    } catch {
      return timedOut(null, 'waiting for a free slot for the host');
    }
    deadline.start();
    // Aborted by the deadline, or by us when we stop reading early, which closes the connection. The
    // deadline aborts it through a listener rather than AbortSignal.any, which cost more than the rest of
    // a fetch's signalling together (a composite signal and its weak references on every hop).
    const abandon = new AbortController();
    const onDeadline = () => abandon.abort(deadline.signal.reason);
    if (deadline.expired) onDeadline();
    else deadline.signal.addEventListener('abort', onDeadline, { once: true });
    const signal = abandon.signal;
    let phase: Phase = 'resolving the host';
    let status: number | null = null;
    let unpin = () => {};
    try {
      const verdict = await untilAborted(
        this.options.policy.check(url, this.options.lookup ? { lookup: this.options.lookup } : undefined),
        signal,
      );
      if (!verdict.ok) {
        const reason = via ? `${verdict.reason} (redirected from ${describe(via)})` : verdict.reason;
        return done(
          verdict.kind === 'refused'
            ? { kind: 'refused', reason, durationMs: elapsed() }
            : failed(null, reason, elapsed()),
        );
      }
      unpin = this.pins.pin(verdict.hostname, verdict.addresses);

      phase = 'waiting for the response headers';
      const response = await exchange(
        this.agent,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: this.requestHeaders(request),
        },
        this.options.maxBodyBytes,
        signal,
      );
      status = response.status;
      const headers = response.headers;
      const discard = () => response.discard(discardLimitBytes);
      const retryAfterMs = parseRetryAfter(header(headers, 'retry-after'), this.options.clock());

      const location = header(headers, 'location');
      if (redirectCodes.has(status) && location !== null) {
        await discard();
        return { kind: 'redirect', status, location, retryAfterMs };
      }
      if (status === 304) {
        await discard();
        return done({
          kind: 'not_modified',
          status: 304,
          // A 304 may carry fresh validators; when it does not, the ones we sent still hold.
          etag: header(headers, 'etag') ?? request.etag ?? null,
          lastModified: header(headers, 'last-modified') ?? request.lastModified ?? null,
          finalUrl: url.href,
          redirectStatuses: [...redirectStatuses],
          durationMs: elapsed(),
          hints: responseHints(headers, url.href, this.options.clock()),
        });
      }
      if (status >= 200 && status < 300) {
        phase = 'reading the body';
        const declared = Number(header(headers, 'content-length') ?? NaN);
        if (declared > this.options.maxBodyBytes) {
          throw new BodyTooLargeError(this.options.maxBodyBytes);
        }
        const codings = contentCodings(header(headers, 'content-encoding'));
        // Most feeds come as they are: the body as it arrived (its wire bytes capped by the exchange).
        const body =
          codings.length === 0
            ? await response.read()
            : await readBody(response.chunks(), codings, this.options.maxBodyBytes);
        return done({
          kind: 'ok',
          status,
          body,
          contentType: header(headers, 'content-type'),
          etag: header(headers, 'etag'),
          lastModified: header(headers, 'last-modified'),
          finalUrl: url.href,
          redirectStatuses: [...redirectStatuses],
          durationMs: elapsed(),
          hints: responseHints(headers, url.href, this.options.clock()),
        });
      }
      await discard();
      const missing = redirectCodes.has(status) ? ' without a Location header' : '';
      return done({
        kind: 'failed',
        status,
        reason: `${httpStatusText(status)}${missing}`,
        retryAfterMs,
        durationMs: elapsed(),
      });
    } catch (error) {
      abandon.abort();
      if (deadline.expired) return timedOut(status, phase);
      return done(failed(status, this.describeError(error, url, phase), elapsed()));
    } finally {
      deadline.signal.removeEventListener('abort', onDeadline);
      unpin();
      release();
    }
  }

  private requestHeaders(request: FetchRequest): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: FEED_ACCEPT,
      'accept-encoding': 'gzip, deflate, br',
    };
    if (request.etag) headers['if-none-match'] = request.etag;
    if (request.lastModified) headers['if-modified-since'] = request.lastModified;
    return headers;
  }

  private describeError(error: unknown, url: URL, phase: Phase): string {
    if (error instanceof BodyTooLargeError || error instanceof ContentEncodingError) return error.message;
    const code = errorCode(error);
    const message = error instanceof Error ? error.message : String(error);
    switch (code) {
      case 'ECONNREFUSED':
        return `connection refused by ${url.host}`;
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `could not connect to ${url.host} within ${this.options.connectTimeoutMs} ms`;
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_SOCKET':
        return `connection closed by ${url.host} while ${phase}`;
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `${url.host} is unreachable (${code})`;
      case 'UND_ERR_HEADERS_OVERFLOW':
        return `response headers from ${url.host} are too large`;
    }
    if (code !== undefined && /CERT|SSL|TLS|ERR_TLS/.test(code))
      return `TLS error with ${url.host}: ${plainTlsReason(message)}`;
    return `${message}${code ? ` (${code})` : ''} while ${phase}`;
  }
}

/**
 * OpenSSL's reason without its error queue's framing: "80AC...:error:0A00010B:SSL
 * routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:"
 * names a source file of Node's build, which no response may show, and says less than "wrong version
 * number" does: the server did not answer in TLS (a plain HTTP port behind an https URL).
 */
export function plainTlsReason(message: string): string {
  const openssl = /^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/.exec(message.trim());
  if (!openssl) return message.trim();
  const reason = openssl[1]!;
  return reason === 'wrong version number'
    ? 'the server did not answer in TLS (wrong version number)'
    : reason;
}

function failed(status: number | null, reason: string, durationMs: number): FetchOutcome {
  return { kind: 'failed', status, reason, retryAfterMs: null, durationMs };
}

function responseHints(headers: IncomingHttpHeaders, url: string, now: number): ResponseHints {
  const link = headers.link;
  return {
    freshForMs: freshnessOf(
      header(headers, 'cache-control'),
      header(headers, 'expires'),
      header(headers, 'date'),
      now,
    ),
    ...linkTargets(link === undefined ? [] : Array.isArray(link) ? link : [link], url),
  };
}

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function httpStatusText(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `HTTP ${status} ${text}` : `HTTP ${status}`;
}

/** A URL for a reason: without credentials or query, which may hold tokens. */
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

// Node reports a failed connect to several addresses (happy eyeballs) as an AggregateError.
function errorCode(error: unknown): string | undefined {
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0]);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
