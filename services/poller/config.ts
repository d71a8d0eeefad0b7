import { z } from 'zod';
import { commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';

export const pollerEnv = {
  ...infrastructureEnv,
  POLLER_GROUP: text('poller').describe(
    'Consumer group of the pollers: the sources are split between its members.',
  ),
  POLLER_CONCURRENCY: integer(32, 1, 1000).describe('Polls in flight per poller.'),
  POLLER_UNHEALTHY_AFTER: integer(3, 1, 100).describe(
    'Failures in a row after which a source is reported unhealthy (it is still polled, with backoff).',
  ),
  POLLER_USER_AGENT: text('news-intelligence-poller/0.1 (+https://github.com/news-intelligence)').describe(
    'User-Agent of feed requests.',
  ),
  FEED_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000).describe('Connect timeout of a feed request.'),
  FEED_TOTAL_TIMEOUT_MS: integer(20_000, 500, 300_000).describe(
    'The whole fetch of a feed, redirects and body included.',
  ),
  FEED_MAX_BODY_BYTES: integer(10 * 1024 * 1024, 1024, 200 * 1024 * 1024).describe(
    'Largest feed body, also after decompression.',
  ),
  FEED_MAX_REDIRECTS: integer(5, 0, 20).describe('Redirects followed per fetch, each one checked again.'),
  FEED_PER_HOST_CONCURRENCY: integer(2, 1, 100).describe('Requests in flight to one host.'),
  DEDUPE_TTL_DAYS: integer(90, 1, 3650).describe(
    'How long an emitted article is remembered, so a re-poll never emits it twice.',
  ),
  REDIS_KEY_PREFIX: z
    .string()
    .default('news:')
    .refine((s) => /^[A-Za-z0-9:_.-]{1,64}$/.test(s), {
      message: 'expected 1-64 characters of A-Z a-z 0-9 : _ . -',
    })
    .meta({
      accepted: '1-64 characters of A-Z a-z 0-9 : _ . -',
      description:
        'Prefix of every Redis key the poller writes (dedupe, poll state, locks): separates environments sharing a Redis.',
    }),
  OUTBOUND_ALLOW_LIST: commaList().describe(
    'Hosts and CIDRs feeds may use although they are private, loopback or link-local (tests, the demo).',
  ),
};

export const loadPollerConfig = (env?: NodeJS.ProcessEnv) => loadConfig(pollerEnv, env);
