// The API's settings: where it listens, its limits, and how POST /v1/sources
// may fetch a feed to check it (the same outbound-URL rules as the poller), how
// access tokens are signed.
import { providerEnv } from '../intelligence/provider-factory.ts';
import { commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';

export const apiEnv = {
  ...infrastructureEnv,
  ...providerEnv,
  PORT: integer(8080, 0, 65_535),
  API_HOST: text('127.0.0.1'),
  API_PUBLIC_URL: text(''),
  API_MAX_BODY_BYTES: integer(1_048_576, 1_024, 100 * 1_048_576),
  /** "kid:base64url-secret" pairs, comma-separated; the first signs access tokens. Empty: a random key for this process alone. */
  API_TOKEN_KEYS: text(''),
  API_TOKEN_ISSUER: text('news-intelligence'),
  REDIS_KEY_PREFIX: text(''),
  API_SOURCE_POLL_INTERVAL_SECONDS: integer(300, 10, 86_400),
  /** How long POST /v1/sources and DELETE .../subscription wait for the read model to show the change. */
  API_VISIBLE_WITHIN_MS: integer(10_000, 0, 60_000),
  OUTBOUND_ALLOW_LIST: commaList(),
  /** "kid:base64url-32-byte-key" pairs sealing webhook secrets (the first seals); the dispatcher needs the same. */
  WEBHOOK_SECRET_KEYS: text(''),
  FEED_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000),
  FEED_TOTAL_TIMEOUT_MS: integer(15_000, 500, 120_000),
  FEED_MAX_BODY_BYTES: integer(10 * 1_048_576, 1_024, 100 * 1_048_576),
  POLLER_USER_AGENT: text('news-intelligence-poller/0.1 (+https://github.com/news-intelligence)'),
};

export const loadApiConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(apiEnv, env);
export type ApiConfig = ReturnType<typeof loadApiConfig>;
