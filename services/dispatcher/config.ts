import { z } from 'zod';
import { boolean, commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';
import { parseSecretBoxKeys } from '../webhooks/secret-box.ts';
import { provisionEnv } from '../provision/config.ts';

export const dispatcherEnv = {
  ...infrastructureEnv,
  /** Prefix of the two consumer groups: `<group>.alerts` (fan-out) and `<group>.deliveries`. */
  DISPATCHER_GROUP: text('dispatcher'),
  /**
   * Where a group with no committed offsets starts: true reads the topics from the beginning (a new
   * deployment owes every alert its deliveries), false from their end when the process starts (tests on a
   * shared stack).
   */
  DISPATCHER_FROM_BEGINNING: boolean(true),
  /** Webhook requests in flight at once, across all partitions (one endpoint gets one at a time). */
  DISPATCHER_CONCURRENCY: integer(16, 1, 1000),
  /** How long a dispatcher that died silently keeps its partitions before the others take them over. */
  DISPATCHER_SESSION_TIMEOUT_MS: integer(30_000, 6_000, 300_000),
  /** Must match the schedule the topics were provisioned with (one retry topic per distinct delay). */
  WEBHOOK_RETRY_SCHEDULE: provisionEnv.WEBHOOK_RETRY_SCHEDULE,
  /** `kid:base64url-key[,…]`; empty = the public development key (a warning is logged). */
  WEBHOOK_SECRET_KEYS: z
    .string()
    .default('')
    .superRefine((value, context) => {
      if (value.trim() === '') return;
      try {
        parseSecretBoxKeys(value);
      } catch (error) {
        // The parser's messages name the entry and kid, never the key.
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  WEBHOOK_CONNECT_TIMEOUT_MS: integer(5_000, 100, 60_000),
  /** One whole attempt: DNS, connect, send, and the response headers. */
  WEBHOOK_TIMEOUT_MS: integer(10_000, 500, 300_000),
  WEBHOOK_MAX_RESPONSE_BYTES: integer(65_536, 1_024, 10 * 1024 * 1024),
  WEBHOOK_USER_AGENT: text('news-intelligence-webhooks/0.1'),
  /** Hosts and CIDRs webhooks may reach even though they are private/loopback (tests, the demo). */
  OUTBOUND_ALLOW_LIST: commaList(),
};

export const loadDispatcherConfig = (env?: NodeJS.ProcessEnv) => loadConfig(dispatcherEnv, env);
export type DispatcherConfig = ReturnType<typeof loadDispatcherConfig>;
