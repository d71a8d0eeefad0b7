// The API's settings: where it listens, its limits, and how POST /v1/sources
// may fetch a feed to check it (the same outbound-URL rules as the poller), how
// access tokens are signed, where audio files are kept and how their URLs are signed.
import { z } from 'zod';
import { audioStoreEnv } from '../audio/config.ts';
import { apiPublicUrlSetting } from '../audio/audio-address.ts';
import { audioUrlEnv } from '../audio/signed-url.ts';
import { narrationEnv } from '../narration/config.ts';
import { speechEnv } from '../speech/provider-factory.ts';
import { providerEnv } from '../intelligence/provider-factory.ts';
import { boolean, commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';
import { dnsCacheSetting } from '../runtime/outbound/cached-lookup.ts';
import { TrustedProxies } from './http/client-address.ts';

export const apiEnv = {
  ...infrastructureEnv,
  ...providerEnv,
  ...audioStoreEnv,
  ...audioUrlEnv,
  ...speechEnv,
  ...narrationEnv,
  API_NARRATIONS_AT_ONCE: integer(2, 0, 64).describe(
    "Articles one API instance narrates on request at once (an article's audio URL fetched before the " +
      'narrator narrated it, or after it skipped it as older than NARRATOR_MAX_AGE_HOURS); four more per place ' +
      'wait in line for one, and one more than those answers 503 with Retry-After. 0: none, and such a URL answers 404. The embedded engines use about a core each.',
  ),
  API_DOCUMENTARIES_IN_PROGRESS: integer(5, 0, 1_000).describe(
    'Documentaries one tenant may have requested and not yet finished at once (requested in the last 6 hours, ' +
      'as the read model shows them); one more answers 429 documentary_limit with Retry-After. Each takes ' +
      'minutes of the speech engines, shared by every tenant. 0: no limit.',
  ),
  PORT: integer(8080, 0, 65_535).describe('Port the API listens on (0: any free port).'),
  API_HOST: text('127.0.0.1').describe('Address the API listens on.'),
  API_PUBLIC_URL: apiPublicUrlSetting,
  API_MAX_BODY_BYTES: integer(1_048_576, 1_024, 100 * 1_048_576).describe(
    'Largest request body; a larger one answers 413 payload_too_large.',
  ),
  API_MAX_JSON_DEPTH: integer(32, 2, 1_000).describe(
    'Deepest nesting of arrays and objects a JSON request body may have; deeper answers 400 invalid_json before it is parsed.',
  ),
  API_MAX_HEADER_BYTES: integer(16_384, 1_024, 131_072).describe(
    "Largest request head (request line and headers together; Node's maxHeaderSize); larger answers 431.",
  ),
  API_HEADERS_TIMEOUT_MS: integer(10_000, 500, 120_000).describe(
    'Time a connection has to send a whole request head once it started one; then it is closed (slow-loris). At most API_REQUEST_TIMEOUT_MS.',
  ),
  API_REQUEST_TIMEOUT_MS: integer(30_000, 1_000, 600_000).describe(
    'Time a client has to send a whole request, head and body; then it is closed.',
  ),
  API_IDLE_TIMEOUT_MS: integer(60_000, 1_000, 3_600_000).describe(
    'A connection that neither sends nor receives a byte for this long is closed (one that never starts a request, a stalled body). Longer than API_REQUEST_DEADLINE_MS; live streams are exempt (their heartbeat is their keep-alive).',
  ),
  API_KEEP_ALIVE_TIMEOUT_MS: integer(65_000, 1_000, 600_000).describe(
    "How long a kept-alive connection may wait for its next request. Longer than a load balancer's idle timeout (60 s on the common ones), so the balancer, not the API, closes idle connections and never sends into one the API just closed.",
  ),
  API_REQUEST_DEADLINE_MS: integer(30_000, 100, 600_000).describe(
    'Time the API gives itself to answer a request once it has its head; past it, 503 deadline_exceeded (live streams are exempt).',
  ),
  API_ANALYSIS_WORKERS: integer(2, 0, 64).describe(
    'Worker threads that run the embedded provider on long texts (POST /v1/analyze, /v1/enhance, /api/v1/summarize: 2,000 characters and more), started when first needed and stopped after 5 minutes without work (each holds ~110 MB), so that an analysis (up to ~2.5 s for 100,000 characters) never holds up the other requests. A job whose request is past API_REQUEST_DEADLINE_MS, or whose client closed its connection, leaves the queue or is stopped. 0: every analysis runs on the event loop.',
  ),
  API_AUTH_FAILURES_PER_MINUTE: integer(30, 0, 100_000).describe(
    'Distinct credentials (API keys, tokens, client secrets) that may fail to authenticate from one client ' +
      'address within a minute (a sliding minute); past it, every credential from that address answers 429 ' +
      'too_many_failed_credentials, with Retry-After, until fewer have failed within the last minute. ' +
      'The same bad key retried counts once, so one ' +
      'misconfigured client does not lock out its neighbours. Counted in Redis across instances. 0: no limit.',
  ),
  API_TRUSTED_PROXIES: commaList('')
    .superRefine((entries, ctx) => {
      try {
        TrustedProxies.parse(entries);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    })
    .describe(
      'Addresses and CIDR ranges of the reverse proxies in front of the API, whose X-Forwarded-For is ' +
        "believed for the client's address (the right-most entry that is not one of them). Empty: the " +
        "connection's own peer is the client, and X-Forwarded-For is ignored.",
    ),
  API_MAX_IN_FLIGHT_PER_CLIENT: integer(32, 1, 10_000).describe(
    'Requests one client may have in progress at once on one API instance; one more answers 429 concurrency_limit with Retry-After. Live streams count against their own limit, not this one.',
  ),
  API_IDEMPOTENCY_KEY_TTL_SECONDS: integer(86_400, 60, 7 * 86_400).describe(
    'How long the answer to a request with an Idempotency-Key is kept, sealed in Redis, for its retries; a key used again after that runs as new. A request still running holds its key for API_REQUEST_DEADLINE_MS plus 5 s, renewed while it runs.',
  ),
  API_TOKEN_KEYS: text('').meta({
    accepted: '`kid:base64url-secret` pairs, comma-separated; each secret at least 32 bytes',
    description:
      'Keys signing OAuth access tokens (HS256): the first signs, all verify, so a key is rotated by putting a new one first and dropping the old one an hour later. Every API instance needs the same list. Empty: a random key for this process alone (its tokens die with it).',
  }),
  API_METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).default('').meta({
    accepted: 'any string of at least 16 characters',
    description:
      'Bearer token a Prometheus scraper sends to read /metrics (`Authorization: Bearer <token>`); without it /metrics answers 401. Empty: /metrics is open to anyone who reaches the port, as /healthz and /readyz are.',
  }),
  API_TOKEN_ISSUER: text('news-intelligence').describe(
    'The `iss` claim of the access tokens this API issues and accepts.',
  ),
  REDIS_KEY_PREFIX: text('').describe(
    "Namespace of the API's Redis keys (rate-limit counters, Idempotency-Key records, the OpenAI answer cache shared with the enricher).",
  ),
  API_SOURCE_POLL_INTERVAL_SECONDS: integer(300, 10, 86_400).describe(
    'Poll interval of a source added through POST /v1/sources.',
  ),
  API_VISIBLE_WITHIN_MS: integer(10_000, 0, 60_000).describe(
    'How long a command (POST /v1/sources, a subscription ended, a webhook or monitor created) waits for the read model to show its change before answering.',
  ),
  API_SHARE_LIST_READS: boolean(true).describe(
    'Identical article list requests that arrive while one is being read share its answer (false: each reads on its own; for measuring).',
  ),
  OUTBOUND_ALLOW_LIST: commaList().describe(
    'Hosts and CIDRs that POST /v1/sources may fetch and webhooks may point at although they are private, loopback or link-local (tests, the demo).',
  ),
  OUTBOUND_DNS_CACHE_SECONDS: dnsCacheSetting,
  WEBHOOK_SECRET_KEYS: text('').meta({
    accepted: '`kid:base64url-32-byte-key` pairs, comma-separated',
    description:
      'Keys sealing webhook signing secrets (AES-256-GCM) on news.webhooks.v1 and in the read model, and the answers kept for Idempotency-Key retries in Redis: the first seals, all open (keep a retired key at least API_IDEMPOTENCY_KEY_TTL_SECONDS). The dispatcher needs the same list. Empty: a built-in development key, with a warning.',
  }),
  FEED_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000).describe(
    'Connect timeout when POST /v1/sources fetches a feed to check it.',
  ),
  FEED_TOTAL_TIMEOUT_MS: integer(15_000, 500, 120_000).describe(
    'The whole check fetch, redirects and body included.',
  ),
  FEED_MAX_BODY_BYTES: integer(10 * 1_048_576, 1_024, 100 * 1_048_576).describe(
    'Largest feed body, also after decompression.',
  ),
  STREAM_BUFFER_BYTES: integer(1_048_576, 4_096, 64 * 1_048_576).describe(
    'Bytes a GET /v1/stream client may leave unread before it is cut off (with a final stream.closed event).',
  ),
  STREAM_HEARTBEAT_SECONDS: integer(15, 1, 300).describe(
    'Interval of the heartbeat comment on an idle stream, so proxies do not close it.',
  ),
  STREAM_LEASE_SECONDS: integer(30, 2, 600).describe(
    "How long a live connection's slot outlives an API instance that died without closing it.",
  ),
  STREAM_REPLAY_EVENTS: integer(10_000, 100, 1_000_000).describe(
    'Stream events each API instance keeps in memory for clients resuming with Last-Event-ID; older positions are read back from Kafka.',
  ),
  STREAM_TOKEN_TTL_SECONDS: integer(300, 30, 3_600).describe(
    'Lifetime of a stream token (POST /v1/stream/tokens), the query-parameter credential for browsers.',
  ),
  STREAM_CATCH_UP_CONCURRENCY: integer(4, 1, 64).describe(
    'Resuming clients read back from Kafka at once per API instance; more wait their turn.',
  ),
  POLLER_USER_AGENT: text('news-intelligence-poller/0.1 (+https://github.com/news-intelligence)').describe(
    'User-Agent of feed requests.',
  ),
};

export const loadApiConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(apiEnv, env);
export type ApiConfig = ReturnType<typeof loadApiConfig>;
