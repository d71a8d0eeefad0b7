// The WebSub settings of the process that serves the callback (the poller). WebSub is off unless
// WEBSUB_PUBLIC_BASE_URL is set: a hub can only reach us at a URL the operator vouches for, so we never
// guess one. Per-subscription hub.secret values are derived from WEBSUB_SECRET (hub-secret.ts), so any
// poller can check any notification without sharing state beyond the master key.
import type { z } from 'zod';
import { ConfigError, httpUrl, integer, text } from '../runtime/config.ts';
import { optionalSecret, type SecretValue } from '../runtime/secret.ts';

/** Shortest master key: a derived secret is only as strong as what it is derived from. */
const minSecretLength = 16;

export const websubEnv = {
  WEBSUB_PUBLIC_BASE_URL: httpUrl()
    .optional()
    .describe(
      "Public base URL at which hubs reach this process's WebSub callback ({base}/websub/{sourceId}). Unset: WebSub is off and every source is polled.",
    ),
  WEBSUB_LISTEN_HOST: text('0.0.0.0').describe('Address the WebSub callback server listens on.'),
  WEBSUB_LISTEN_PORT: integer(8095, 0, 65_535).describe(
    'Port of the WebSub callback server (it also serves /metrics). 0: any free port.',
  ),
  WEBSUB_SECRET: optionalSecret({
    accepted: `text of at least ${minSecretLength} characters`,
    description:
      "Master key of the WebSub signatures: each subscription's hub.secret is HMAC-SHA256(key, source id). Required when WEBSUB_PUBLIC_BASE_URL is set; changing it invalidates every subscription until it is renewed.",
  }),
  WEBSUB_LEASE_SECONDS: integer(864_000, 60, 31_536_000).describe(
    'Lease asked of hubs (hub.lease_seconds); the hub may grant another.',
  ),
  WEBSUB_RENEW_MARGIN_SECONDS: integer(86_400, 10, 2_592_000).describe(
    'A subscription is renewed once its lease ends within this margin (at most half the granted lease before its end), at the next poll of the feed.',
  ),
  WEBSUB_VERIFY_TIMEOUT_SECONDS: integer(300, 1, 86_400).describe(
    'How long a subscription request waits for the hub to verify it; past it, it counts as unconfirmed and is retried later with backoff.',
  ),
  WEBSUB_RETRY_SECONDS: integer(600, 1, 86_400).describe(
    'First wait before asking a hub again after a refused, denied or unconfirmed subscription; doubled at each further failure, up to a day.',
  ),
  WEBSUB_HUB_TIMEOUT_MS: integer(10_000, 100, 120_000).describe('Whole subscription request to a hub.'),
  WEBSUB_MAX_BODY_BYTES: integer(10 * 1024 * 1024, 1024, 200 * 1024 * 1024).describe(
    'Largest notification body a hub may push; a longer one is refused with 413.',
  ),
};

type WebsubConfig = { [K in keyof typeof websubEnv]: z.output<(typeof websubEnv)[K]> };

export interface WebsubSettings {
  /** Without trailing slash. */
  publicBaseUrl: string;
  listenHost: string;
  listenPort: number;
  masterSecret: SecretValue;
  leaseSeconds: number;
  renewMarginMs: number;
  verifyTimeoutMs: number;
  retryMs: number;
  hubTimeoutMs: number;
  maxBodyBytes: number;
}

/** Null when WebSub is off; a ConfigError when it is on but cannot work. */
export function websubSettings(config: WebsubConfig): WebsubSettings | null {
  if (config.WEBSUB_PUBLIC_BASE_URL === undefined) return null;
  const secret = config.WEBSUB_SECRET;
  if (secret === undefined)
    throw new ConfigError(['WEBSUB_SECRET: required when WEBSUB_PUBLIC_BASE_URL is set (it is not set)']);
  if (secret.reveal().length < minSecretLength)
    throw new ConfigError([`WEBSUB_SECRET: expected at least ${minSecretLength} characters (value hidden)`]);
  return {
    publicBaseUrl: config.WEBSUB_PUBLIC_BASE_URL.replace(/\/+$/, ''),
    listenHost: config.WEBSUB_LISTEN_HOST,
    listenPort: config.WEBSUB_LISTEN_PORT,
    masterSecret: secret,
    leaseSeconds: config.WEBSUB_LEASE_SECONDS,
    renewMarginMs: config.WEBSUB_RENEW_MARGIN_SECONDS * 1000,
    verifyTimeoutMs: config.WEBSUB_VERIFY_TIMEOUT_SECONDS * 1000,
    retryMs: config.WEBSUB_RETRY_SECONDS * 1000,
    hubTimeoutMs: config.WEBSUB_HUB_TIMEOUT_MS,
    maxBodyBytes: config.WEBSUB_MAX_BODY_BYTES,
  };
}

/** Where a hub delivers a source's notifications and verifications. */
export const callbackUrl = (publicBaseUrl: string, sourceId: string) =>
  `${publicBaseUrl}/websub/${encodeURIComponent(sourceId)}`;
