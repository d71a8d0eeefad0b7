// A source's WebSub subscription as a small state machine, pure so that its timing can be tested
// without a clock or a hub:
//
//   (none) --request--> pending --verified--> active --(lease ends within the margin)--> pending (renewal)
//                         |  \--denied-------> denied ---(retryAt)--> pending
//                         \--unconfirmed/failed--> failed ---(retryAt)--> pending
//   any --source removed--> unsubscribing --verified--> (deleted)
//
// A renewal keeps the lease it renews (`expiresAt`): notifications go on being accepted, and polling
// stays at the safety-net interval, while the hub confirms the new one.
import type { Source } from '../runtime/events/types.generated.ts';

export type SubscriptionState = 'pending' | 'active' | 'denied' | 'failed' | 'unsubscribing';

export interface Subscription {
  state: SubscriptionState;
  sourceId: string;
  hub: string;
  topic: string;
  /** Identifies the latest request to the hub, so that a late answer to an older one changes nothing. */
  request: string;
  requestedAt: number;
  /** A pending request not verified by then is unconfirmed. */
  verifyBy: number | null;
  /** End of the lease the hub granted (kept while a renewal is pending); null before the first. */
  expiresAt: number | null;
  /** Lease granted, in seconds (for the renewal margin). */
  leaseSeconds: number | null;
  /** Failed, denied or unconfirmed requests in a row: the backoff grows with them. */
  failures: number;
  /** When a failed or denied subscription may be asked for again. */
  retryAt: number | null;
  /** Why the latest request failed or was denied (no secrets: hub answers and our own words). */
  reason: string | null;
  /** The source as last seen by its poller: lets any poller ingest a notification for it. */
  source: Source;
}

export interface Timing {
  verifyTimeoutMs: number;
  renewMarginMs: number;
  retryMs: number;
}

const maxRetryMs = 24 * 60 * 60 * 1000;

/** Wait after `failures` failed requests in a row: retryMs, doubled each time, at most a day. */
export const retryDelay = (retryMs: number, failures: number) =>
  Math.min(maxRetryMs, retryMs * 2 ** Math.max(0, Math.min(failures - 1, 20)));

/**
 * When an active lease is renewed: `margin` before it ends, but never earlier than half-way through it,
 * so a hub granting a lease shorter than the margin is not asked again at every poll.
 */
export function renewAt(subscription: Pick<Subscription, 'expiresAt' | 'leaseSeconds'>, marginMs: number) {
  if (subscription.expiresAt === null) return null;
  const leaseMs = (subscription.leaseSeconds ?? 0) * 1000;
  return subscription.expiresAt - Math.min(marginMs, leaseMs / 2);
}

/** What a poller knows of a source's lease in force (null when none is). */
export interface WebsubLease {
  /** When the subscription next needs its keeper (upkeepAt), ms; null: never while the lease lasts. */
  upkeepAt: number | null;
}

/**
 * When the subscription next needs its keeper, which acts after a poll: the renewal of an active lease,
 * the check of a request the hub has not verified, the retry of a failed or denied one. A source with a
 * lease in force is polled only as a safety net, hours apart, and a hub may grant a lease shorter than
 * that; its poll is brought forward to this moment (poll-interval.ts), so a lease never ends for want of
 * a poll.
 */
export function upkeepAt(subscription: Subscription, marginMs: number): number | null {
  switch (subscription.state) {
    case 'active':
      return renewAt(subscription, marginMs);
    case 'pending':
      return subscription.verifyBy;
    case 'denied':
    case 'failed':
      return subscription.retryAt;
    case 'unsubscribing':
      return null;
  }
}

/** A lease in force: notifications are accepted and the source is polled only as a safety net. */
export const leaseInForce = (subscription: Subscription | null, now: number) =>
  subscription !== null &&
  subscription.state !== 'unsubscribing' &&
  subscription.expiresAt !== null &&
  subscription.expiresAt > now;

export type Step =
  | { kind: 'subscribe'; why: 'new' | 'renewal' | 'retry' | 'hub changed' }
  /** A pending request the hub never verified: record it as unconfirmed (it will be retried). */
  | { kind: 'unconfirmed' }
  | { kind: 'wait' };

/** What to do about a source whose feed (or its stored subscription) names `hub` and `topic`. */
export function nextStep(
  current: Subscription | null,
  wanted: { hub: string; topic: string },
  now: number,
  timing: Timing,
): Step {
  if (current === null) return { kind: 'subscribe', why: 'new' };
  switch (current.state) {
    case 'pending':
      return current.verifyBy !== null && now >= current.verifyBy
        ? { kind: 'unconfirmed' }
        : { kind: 'wait' };
    case 'active': {
      if (current.hub !== wanted.hub || current.topic !== wanted.topic)
        return { kind: 'subscribe', why: 'hub changed' };
      const renewal = renewAt(current, timing.renewMarginMs);
      return renewal === null || now >= renewal ? { kind: 'subscribe', why: 'renewal' } : { kind: 'wait' };
    }
    case 'denied':
    case 'failed':
      return current.retryAt === null || now >= current.retryAt
        ? { kind: 'subscribe', why: 'retry' }
        : { kind: 'wait' };
    case 'unsubscribing':
      // The source came back before the hub confirmed the unsubscription.
      return { kind: 'subscribe', why: 'new' };
  }
}

/** A subscription request about to be sent (stored first: the hub may verify before it answers). */
export function requested(
  current: Subscription | null,
  request: { id: string; hub: string; topic: string; source: Source },
  now: number,
  timing: Timing,
): Subscription {
  const renewing = current !== null && leaseInForce(current, now) && current.hub === request.hub;
  return {
    state: 'pending',
    sourceId: request.source.source_id,
    hub: request.hub,
    topic: request.topic,
    request: request.id,
    requestedAt: now,
    verifyBy: now + timing.verifyTimeoutMs,
    expiresAt: renewing ? current.expiresAt : null,
    leaseSeconds: renewing ? current.leaseSeconds : null,
    failures: current?.failures ?? 0,
    retryAt: null,
    reason: null,
    source: request.source,
  };
}

/** The hub verified the pending subscription: its lease starts now. */
export const verified = (pending: Subscription, leaseSeconds: number, now: number): Subscription => ({
  ...pending,
  state: 'active',
  verifyBy: null,
  expiresAt: now + leaseSeconds * 1000,
  leaseSeconds,
  failures: 0,
  retryAt: null,
  reason: null,
});

/** The request failed (hub refused or unreachable, denied, or never verified): retry after a backoff. */
export function failed(
  pending: Subscription,
  state: 'denied' | 'failed',
  reason: string,
  now: number,
  timing: Timing,
): Subscription {
  const failures = pending.failures + 1;
  return {
    ...pending,
    state,
    verifyBy: null,
    failures,
    retryAt: now + retryDelay(timing.retryMs, failures),
    reason,
  };
}

/** The source is gone: unsubscribe, keeping the record until the hub confirms (or it expires). */
export const unsubscribing = (
  current: Subscription,
  requestId: string,
  now: number,
  timing: Timing,
): Subscription => ({
  ...current,
  state: 'unsubscribing',
  request: requestId,
  requestedAt: now,
  verifyBy: now + timing.verifyTimeoutMs,
  retryAt: null,
});

/**
 * The topic a hub echoes may be spelled differently from the one we sent (a hub that parsed and
 * re-serialised it: case of the host, default port, escapes); the same URL is the same topic.
 */
function sameTopic(echoed: string, requested: string): boolean {
  if (echoed === requested) return true;
  try {
    return new URL(echoed).href === new URL(requested).href;
  } catch {
    return false;
  }
}

/** The verification of intent a hub sent (WebSub §5.3), as the callback parsed it. */
export interface IntentCheck {
  mode: string;
  topic: string;
  leaseSeconds: number | null;
  reason: string | null;
}

export type IntentVerdict =
  | { kind: 'confirm'; next: Subscription | null }
  | { kind: 'denied'; next: Subscription }
  | { kind: 'reject'; why: string };

/**
 * The answer to a hub's verification of intent: confirm only what we asked for (the mode and topic of
 * the pending request), so that nobody can subscribe us to something through a hub on our behalf.
 * `next` null: the record is deleted (an unsubscription confirmed).
 */
export function answerIntent(
  current: Subscription | null,
  check: IntentCheck,
  requestedLeaseSeconds: number,
  now: number,
  timing: Timing,
): IntentVerdict {
  if (current === null) return { kind: 'reject', why: 'no subscription for this source' };
  if (!sameTopic(check.topic, current.topic))
    return { kind: 'reject', why: 'topic does not match the request' };
  switch (check.mode) {
    case 'subscribe':
      // An active subscription is confirmed again: a hub repeats a verification whose answer it did not
      // get, and some refresh a lease by verifying again (PubSubHubbub 0.3); a 404 would end a
      // subscription we still want while we took it for active.
      if (current.state !== 'pending' && current.state !== 'active')
        return { kind: 'reject', why: `no pending subscription (${current.state})` };
      return {
        kind: 'confirm',
        next: verified(current, check.leaseSeconds ?? requestedLeaseSeconds, now),
      };
    case 'unsubscribe':
      if (current.state !== 'unsubscribing') return { kind: 'reject', why: 'no pending unsubscription' };
      return { kind: 'confirm', next: null };
    case 'denied':
      if (current.state !== 'pending' && current.state !== 'active')
        return { kind: 'reject', why: `nothing to deny (${current.state})` };
      return {
        kind: 'denied',
        next: {
          ...failed(
            current,
            'denied',
            `denied by the hub: ${check.reason ?? 'no reason given'}`,
            now,
            timing,
          ),
          // A denial ends the lease too (WebSub §5.2: the hub may deny at any time).
          expiresAt: null,
          leaseSeconds: null,
        },
      };
    default:
      return { kind: 'reject', why: 'unknown hub.mode' };
  }
}
