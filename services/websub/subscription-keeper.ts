// Keeps each source that names a hub subscribed through it: subscribes when a poll first finds the
// hub, renews before the lease ends, records a hub that refuses, denies or never verifies (and asks
// again later, with backoff), and unsubscribes, best effort, when the source goes. Polls drive it: a
// source with a lease in force is still polled at the safety-net interval, and sooner when its
// subscription is due for upkeep (lease()), so no timer of its own is needed.
import { randomUUID } from 'node:crypto';
import type { Source } from '../runtime/events/types.generated.ts';
import type { Logger } from '../runtime/logger.ts';
import type { HubClient } from './hub-client.ts';
import { callbackUrl, type WebsubSettings } from './settings.ts';
import { hubSecretFor } from './signature.ts';
import {
  failed,
  leaseInForce,
  nextStep,
  requested,
  unsubscribing,
  upkeepAt,
  type Subscription,
  type WebsubLease,
  type Timing,
} from './subscription.ts';
import type { Subscriptions } from './subscription-store.ts';
import type { WebsubMetrics } from './websub-metrics.ts';

/** What a poll found: the hubs named by the feed or its Link header, and the feed's own URL. */
export interface HubDiscovery {
  hubs: readonly string[];
  selfUrl: string | null;
}

export interface KeeperDependencies {
  store: Subscriptions;
  hub: HubClient;
  settings: Pick<
    WebsubSettings,
    'publicBaseUrl' | 'masterSecret' | 'leaseSeconds' | 'renewMarginMs' | 'verifyTimeoutMs' | 'retryMs'
  >;
  metrics: WebsubMetrics;
  logger: Logger;
  clock: () => number;
}

export const timingOf = (settings: KeeperDependencies['settings']): Timing => ({
  verifyTimeoutMs: settings.verifyTimeoutMs,
  renewMarginMs: settings.renewMarginMs,
  retryMs: settings.retryMs,
});

export class SubscriptionKeeper {
  private readonly timing: Timing;

  constructor(private readonly deps: KeeperDependencies) {
    this.timing = timingOf(deps.settings);
  }

  /** True while the source has a lease in force: its poller only polls it as a safety net. */
  async isActive(sourceId: string): Promise<boolean> {
    return (await this.lease(sourceId)) !== null;
  }

  /**
   * The source's lease, if one is in force: its poller polls it as a safety net, and no later than
   * `upkeepAt`, when the subscription next needs ensure() (a renewal, most often).
   */
  async lease(sourceId: string): Promise<WebsubLease | null> {
    const current = await this.deps.store.get(sourceId);
    if (current === null || !leaseInForce(current, this.deps.clock())) return null;
    return { upkeepAt: upkeepAt(current, this.timing.renewMarginMs) };
  }

  /**
   * When the source's poller should next poll it for its subscription's sake, whatever its lease: the
   * renewal of an active lease, or for a request the hub has not verified yet, when it should have
   * (`pending`: the lease it grants is known then); null for any other state. A poll that asks a hub for
   * a lease chooses its next poll before the hub answers, at the interval of a source without one (hours
   * for a quiet feed), and the hub may grant a shorter lease: the poller brings that poll forward to the
   * renewal once the lease is known.
   */
  async upkeep(sourceId: string): Promise<{ at: number; pending: boolean } | null> {
    const current = await this.deps.store.get(sourceId);
    if (current === null || (current.state !== 'pending' && current.state !== 'active')) return null;
    const at = upkeepAt(current, this.timing.renewMarginMs);
    return at === null ? null : { at, pending: current.state === 'pending' };
  }

  /**
   * After a poll of `source`: subscribe if it names a hub and has no subscription, renew a lease that
   * ends within the margin, retry a failed one once its backoff is over. A poll that found no hub (a
   * 304 without Link header) renews what is stored.
   */
  async ensure(source: Source, found: HubDiscovery): Promise<void> {
    const { store, clock } = this.deps;
    const current = await store.get(source.source_id);
    let hub = found.hubs[0];
    let topic = found.selfUrl ?? source.feed_url;
    if (hub === undefined) {
      if (current === null || current.state === 'unsubscribing') return;
      ({ hub, topic } = current);
    }
    const now = clock();
    const step = nextStep(current, { hub, topic }, now, this.timing);
    if (step.kind === 'unconfirmed' && current !== null) {
      const seconds = Math.round(this.deps.settings.verifyTimeoutMs / 1000);
      const next = failed(
        current,
        'failed',
        `the hub did not verify the request within ${seconds} s`,
        now,
        this.timing,
      );
      if (await store.replace(source.source_id, current.request, next)) {
        this.deps.metrics.subscription('unconfirmed');
        this.deps.logger.warn(
          {
            sourceId: source.source_id,
            hub,
            failures: next.failures,
            retryAt: new Date(next.retryAt!).toISOString(),
          },
          'websub subscription unconfirmed: polling goes on at the normal interval',
        );
      }
      return;
    }
    if (step.kind === 'wait') {
      // Keep the stored source current: a notification is ingested with it.
      if (current !== null && current.source.version !== source.version)
        await store.replace(source.source_id, current.request, { ...current, source });
      return;
    }
    if (step.kind === 'subscribe') await this.subscribe(current, source, hub, topic, step.why);
  }

  private async subscribe(
    current: Subscription | null,
    source: Source,
    hub: string,
    topic: string,
    why: string,
  ): Promise<void> {
    const { store, settings, metrics, logger, clock } = this.deps;
    const id = randomUUID();
    const pending = requested(current, { id, hub, topic, source }, clock(), this.timing);
    // Stored before asking: a hub may verify our intent before it answers the request.
    await store.put(pending);
    metrics.subscription(why === 'renewal' ? 'renewal_requested' : 'requested');
    logger.info({ sourceId: source.source_id, hub, topic, why }, 'websub subscription requested');
    const answer = await this.deps.hub.send({
      hub,
      mode: 'subscribe',
      topic,
      callback: callbackUrl(settings.publicBaseUrl, source.source_id),
      leaseSeconds: settings.leaseSeconds,
      secret: hubSecretFor(settings.masterSecret.reveal(), source.source_id),
    });
    if (answer.ok) return;
    const next = failed(pending, 'failed', answer.reason, clock(), this.timing);
    if (await store.replace(source.source_id, id, next)) {
      metrics.subscription(answer.kind === 'refused' ? 'refused' : 'failed');
      logger.warn(
        { sourceId: source.source_id, hub, reason: answer.reason, failures: next.failures },
        'websub subscription request failed',
      );
    }
  }

  /**
   * The source was removed (`version` null) or paused (the version that paused it): ask the hub to stop,
   * best effort (its lease lapses otherwise). A pause older than the source the subscription was made
   * for is history a restarted poller replays from the sources topic, not a change: it is ignored.
   */
  async unsubscribe(sourceId: string, version: number | null = null): Promise<void> {
    const { store, settings, metrics, logger, clock } = this.deps;
    const current = await store.get(sourceId);
    if (current === null || current.state === 'unsubscribing') return;
    if (version !== null && current.source.version > version) return;
    if (current.state === 'denied' || current.state === 'failed') {
      await store.delete(sourceId);
      return;
    }
    const id = randomUUID();
    await store.put(unsubscribing(current, id, clock(), this.timing));
    metrics.subscription('unsubscribe_requested');
    const answer = await this.deps.hub.send({
      hub: current.hub,
      mode: 'unsubscribe',
      topic: current.topic,
      callback: callbackUrl(settings.publicBaseUrl, sourceId),
      leaseSeconds: settings.leaseSeconds,
      secret: hubSecretFor(settings.masterSecret.reveal(), sourceId),
    });
    if (!answer.ok) {
      // Nothing more to do: notifications for the source are answered 410 and the lease runs out.
      await store.replace(sourceId, id, null);
      logger.info({ sourceId, hub: current.hub, reason: answer.reason }, 'websub unsubscription failed');
    }
  }
}
