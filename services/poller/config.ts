import { z } from 'zod';
import { commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';

export const pollerEnv = {
  ...infrastructureEnv,
  POLLER_GROUP: text('poller'),
  POLLER_CONCURRENCY: integer(32, 1, 1000),
  POLLER_UNHEALTHY_AFTER: integer(3, 1, 100),
  POLLER_USER_AGENT: text('news-intelligence-poller/0.1 (+https://github.com/news-intelligence)'),
  FEED_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000),
  FEED_TOTAL_TIMEOUT_MS: integer(20_000, 500, 300_000),
  FEED_MAX_BODY_BYTES: integer(10 * 1024 * 1024, 1024, 200 * 1024 * 1024),
  FEED_MAX_REDIRECTS: integer(5, 0, 20),
  FEED_PER_HOST_CONCURRENCY: integer(2, 1, 100),
  DEDUPE_TTL_DAYS: integer(90, 1, 3650),
  /** Prefix of every Redis key the poller writes (dedupe, poll state, locks): separates environments sharing a Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .default('news:')
    .refine((s) => /^[A-Za-z0-9:_.-]{1,64}$/.test(s), {
      message: 'expected 1-64 characters of A-Z a-z 0-9 : _ . -',
    }),
  /** Hosts and CIDRs feeds may use even though they are private/loopback (tests, the demo). */
  OUTBOUND_ALLOW_LIST: commaList(),
};

export const loadPollerConfig = (env?: NodeJS.ProcessEnv) => loadConfig(pollerEnv, env);
