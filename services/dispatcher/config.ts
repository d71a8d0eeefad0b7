import { z } from 'zod';
import { opsEnv } from '../runtime/ops-server.ts';
import { boolean, commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';
import { parseSecretBoxKeys } from '../webhooks/secret-box.ts';
import { retryScheduleSetting } from '../webhooks/retry-plan.ts';
import { apiPublicUrlSetting } from '../audio/audio-address.ts';
import { audioUrlEnv } from '../audio/signed-url.ts';
import { dnsCacheSetting } from '../runtime/outbound/cached-lookup.ts';

export const dispatcherEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  DISPATCHER_GROUP: text('dispatcher').describe(
    'Prefix of the consumer groups: `<group>.alerts`, `<group>.articles` and `<group>.documentaries` ' +
      '(fan-out), `<group>.deliveries`, and `<group>.webhooks…` (each instance following the webhook ' +
      'registrations).',
  ),
  DISPATCHER_FROM_BEGINNING: boolean(true).describe(
    'Where a group with no committed offsets starts: true reads the topics from the beginning (a new ' +
      'deployment owes every alert and ready documentary its deliveries), false from their end when the ' +
      'process starts (tests on a shared stack).',
  ),
  DISPATCHER_CONCURRENCY: integer(16, 1, 1000).describe(
    'Webhook requests in flight at once, across all partitions (one endpoint gets one at a time).',
  ),
  DISPATCHER_SESSION_TIMEOUT_MS: integer(30_000, 6_000, 300_000).describe(
    'How long a dispatcher that died silently keeps its partitions before the others take them over.',
  ),
  WEBHOOK_RETRY_SCHEDULE: retryScheduleSetting.meta({
    accepted: 'comma-separated durations such as 5s, 5m, 2h (units ms, s, m, h, d)',
    description:
      'Delays between delivery attempts; after the last, the delivery is dead-lettered. Must match the ' +
      'schedule the topics were provisioned with (one retry topic per distinct delay).',
  }),
  WEBHOOK_SECRET_KEYS: z
    .string()
    .default('')
    .superRefine((value, context) => {
      if (value.trim() === '') return;
      try {
        parseSecretBoxKeys(value);
      } catch (error) {
        // The parser's messages name the entry and kid, never the key; the setting's name is said once.
        const message = (error as Error).message.replace(/^WEBHOOK_SECRET_KEYS: /, '');
        context.addIssue({ code: 'custom', message });
      }
    })
    .meta({
      accepted: '`kid:base64url-32-byte-key` pairs, comma-separated',
      description:
        "Keys opening the sealed webhook signing secrets; the same list as the API's. Empty: the " +
        'built-in development key, with a warning.',
    }),
  WEBHOOK_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000).describe('Connect timeout of a delivery.'),
  WEBHOOK_TIMEOUT_MS: integer(10_000, 500, 300_000).describe(
    'One whole attempt: DNS, connect, sending, and the response headers.',
  ),
  WEBHOOK_MAX_RESPONSE_BYTES: integer(65_536, 1_024, 10 * 1024 * 1024).describe(
    "A receiver's answer is read up to this, then the connection is dropped.",
  ),
  WEBHOOK_USER_AGENT: text('news-intelligence-webhooks/0.1').describe('User-Agent of webhook deliveries.'),
  OUTBOUND_ALLOW_LIST: commaList().describe(
    'Hosts and CIDRs webhooks may reach although they are private, loopback or link-local (tests, the demo).',
  ),
  OUTBOUND_DNS_CACHE_SECONDS: dnsCacheSetting,
  API_PUBLIC_URL: apiPublicUrlSetting,
  AUDIO_URL_KEYS: audioUrlEnv.AUDIO_URL_KEYS,
  AUDIO_URL_WEBHOOK_TTL_SECONDS: integer(7 * 86_400, 3_600, 30 * 86_400).describe(
    'How long the `audio_url` in a webhook payload can be fetched, from the attempt that sent it (each ' +
      'attempt signs the stored unsigned addresses afresh): a receiver may queue it before playing.',
  ),
};

export const loadDispatcherConfig = (env?: NodeJS.ProcessEnv) => loadConfig(dispatcherEnv, env);
export type DispatcherConfig = ReturnType<typeof loadDispatcherConfig>;
