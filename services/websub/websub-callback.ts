// The subscriber's side of the hub's two requests, independent of HTTP plumbing (callback-server.ts):
// the verification of intent (GET) and the content notification (POST). A notification is ingested
// only with a valid signature under the source's hub.secret; anything else is refused, counted and
// logged without secrets, and its content ignored.
import type { Source } from '../runtime/events/types.generated.ts';
import type { Logger } from '../runtime/logger.ts';
import type { WebsubSettings } from './settings.ts';
import { checkSignature, hubSecretFor } from './signature.ts';
import { answerIntent, leaseInForce, type Timing } from './subscription.ts';
import type { Subscriptions } from './subscription-store.ts';
import type { WebsubMetrics } from './websub-metrics.ts';

export interface CallbackAnswer {
  status: number;
  body: string;
}

/** Ingests pushed content as a poll would: `ok: false` when it is not a feed we can read. */
export type IngestPushed = (
  source: Source,
  body: Uint8Array,
  contentType: string | null,
) => Promise<{ ok: true; newItems: number } | { ok: false; reason: string }>;

export interface CallbackDependencies {
  store: Subscriptions;
  settings: Pick<WebsubSettings, 'masterSecret' | 'leaseSeconds'>;
  timing: Timing;
  ingest: IngestPushed;
  metrics: WebsubMetrics;
  logger: Logger;
  clock: () => number;
  /** A hub verified a subscription (a lease now in force), after it was recorded. */
  onVerified?: (sourceId: string) => void;
}

const leaseBound = 10 * 365 * 24 * 60 * 60;

export class WebsubCallback {
  constructor(private readonly deps: CallbackDependencies) {}

  /** GET {base}/websub/{sourceId}?hub.mode=…&hub.topic=…&hub.challenge=…&hub.lease_seconds=… */
  async verify(sourceId: string, query: URLSearchParams): Promise<CallbackAnswer> {
    const { store, metrics, logger, clock } = this.deps;
    const mode = query.get('hub.mode') ?? '';
    const challenge = query.get('hub.challenge');
    const lease = query.get('hub.lease_seconds');
    const leaseSeconds =
      lease !== null && /^\d{1,10}$/.test(lease) ? Math.min(Number(lease), leaseBound) : null;
    const reject = (why: string) => {
      metrics.subscription('verification_rejected');
      logger.info({ sourceId, mode, why }, 'websub verification rejected');
      return { status: 404, body: '' };
    };
    if ((mode === 'subscribe' || mode === 'unsubscribe') && !challenge) return reject('no hub.challenge');
    if (leaseSeconds === 0) return reject('hub.lease_seconds is 0');

    const current = await store.get(sourceId);
    const verdict = answerIntent(
      current,
      { mode, topic: query.get('hub.topic') ?? '', leaseSeconds, reason: query.get('hub.reason') },
      this.deps.settings.leaseSeconds,
      clock(),
      this.deps.timing,
    );
    if (verdict.kind === 'reject') return reject(verdict.why);
    // The record changed since it was read (a newer request): this answer is for an older one.
    if (!(await store.replace(sourceId, current!.request, verdict.next))) return reject('superseded request');
    if (verdict.kind === 'denied') {
      metrics.subscription('denied');
      logger.warn({ sourceId, hub: current!.hub, reason: verdict.next.reason }, 'websub subscription denied');
      return { status: 200, body: '' };
    }
    if (verdict.next === null) {
      metrics.subscription('unsubscribed');
      logger.info({ sourceId, hub: current!.hub }, 'websub unsubscription verified');
    } else {
      metrics.subscription('verified');
      logger.info(
        { sourceId, hub: current!.hub, leaseSeconds: verdict.next.leaseSeconds },
        'websub subscription verified',
      );
      this.deps.onVerified?.(sourceId);
    }
    return { status: 200, body: challenge! };
  }

  /** POST {base}/websub/{sourceId} with the hub's X-Hub-Signature and the feed as body. */
  async notify(
    sourceId: string,
    signature: string | undefined,
    contentType: string | null,
    body: Uint8Array,
  ): Promise<CallbackAnswer> {
    const { store, metrics, logger, clock } = this.deps;
    const current = await store.get(sourceId);
    if (current === null || !leaseInForce(current, clock())) {
      metrics.notification('unknown_source');
      // 410: WebSub hubs (and PubSubHubbub 0.4 ones) take it as "stop sending".
      return { status: 410, body: 'no subscription for this source\n' };
    }
    const verdict = checkSignature(
      signature,
      body,
      hubSecretFor(this.deps.settings.masterSecret.reveal(), sourceId),
    );
    if (!verdict.ok) {
      metrics.notification(verdict.outcome);
      logger.warn(
        { sourceId, hub: current.hub, outcome: verdict.outcome, reason: verdict.reason },
        'websub notification refused',
      );
      return { status: 403, body: `${verdict.reason}\n` };
    }
    const ingested = await this.deps.ingest(current.source, body, contentType);
    if (!ingested.ok) {
      metrics.notification('unparseable');
      logger.info({ sourceId, hub: current.hub, reason: ingested.reason }, 'websub notification unreadable');
      return { status: 400, body: `${ingested.reason}\n` };
    }
    metrics.notification('accepted');
    logger.debug({ sourceId, newItems: ingested.newItems }, 'websub notification ingested');
    return { status: 204, body: '' };
  }
}
