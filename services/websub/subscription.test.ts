// The subscription state machine and its timing: when to subscribe, renew, give up on a hub that never
// verifies, and retry; which verifications of intent are confirmed.
import { describe, expect, it } from 'vitest';
import { sourceState } from '../sources/source.ts';
import {
  answerIntent,
  failed,
  leaseInForce,
  nextStep,
  renewAt,
  requested,
  retryDelay,
  unsubscribing,
  upkeepAt,
  verified,
  type Subscription,
  type Timing,
} from './subscription.ts';

const source = sourceState(
  { name: 'S', feed_url: 'https://news.example/feed', category: 'general', language: 'en', country: 'gb' },
  null,
  0,
);
const timing: Timing = { verifyTimeoutMs: 300_000, renewMarginMs: 86_400_000, retryMs: 600_000 };
const hub = 'https://hub.example/';
const topic = 'https://news.example/feed';
const t0 = Date.UTC(2026, 10, 27, 12);
const day = 86_400_000;

const pending = (now = t0, current: Subscription | null = null) =>
  requested(current, { id: `req-${now}`, hub, topic, source }, now, timing);
const active = (lease = 864_000, at = t0) => verified(pending(at), lease, at);

describe('upkeepAt', () => {
  it('is when nextStep stops waiting: the renewal, the verification timeout, the end of the backoff', () => {
    const lease = active(3_600); // the hub granted an hour
    expect(upkeepAt(lease, timing.renewMarginMs)).toBe(t0 + 1_800_000);
    expect(nextStep(lease, { hub, topic }, t0 + 1_800_000, timing).kind).toBe('subscribe');
    expect(upkeepAt(active(), timing.renewMarginMs)).toBe(t0 + 9 * day);
    // A renewal asked for keeps the lease in force until the hub verifies it, or the timeout.
    const renewal = pending(t0 + 1_800_000, lease);
    expect(leaseInForce(renewal, t0 + 1_800_000)).toBe(true);
    expect(upkeepAt(renewal, timing.renewMarginMs)).toBe(t0 + 2_100_000);
    expect(nextStep(renewal, { hub, topic }, t0 + 2_100_000, timing)).toEqual({ kind: 'unconfirmed' });
    const refused = failed(renewal, 'failed', 'hub answered 500', t0 + 2_100_000, timing);
    expect(upkeepAt(refused, timing.renewMarginMs)).toBe(refused.retryAt);
    expect(nextStep(refused, { hub, topic }, refused.retryAt!, timing).kind).toBe('subscribe');
    expect(upkeepAt(unsubscribing(lease, 'req-u', t0, timing), timing.renewMarginMs)).toBeNull();
  });
});

describe('nextStep', () => {
  it('subscribes a source without subscription', () => {
    expect(nextStep(null, { hub, topic }, t0, timing)).toEqual({ kind: 'subscribe', why: 'new' });
  });

  it('waits for a pending request, and calls it unconfirmed once the verification timeout passed', () => {
    expect(nextStep(pending(), { hub, topic }, t0 + 299_999, timing)).toEqual({ kind: 'wait' });
    expect(nextStep(pending(), { hub, topic }, t0 + 300_000, timing)).toEqual({ kind: 'unconfirmed' });
  });

  it('renews an active lease once it ends within the margin, not before', () => {
    const sub = active(864_000); // 10 days
    expect(nextStep(sub, { hub, topic }, t0 + 9 * day - 1, timing)).toEqual({ kind: 'wait' });
    expect(nextStep(sub, { hub, topic }, t0 + 9 * day, timing)).toEqual({
      kind: 'subscribe',
      why: 'renewal',
    });
  });

  it('renews a lease shorter than the margin half-way through, not at every poll', () => {
    const sub = active(3_600); // the hub granted an hour
    expect(renewAt(sub, timing.renewMarginMs)).toBe(t0 + 1_800_000);
    expect(nextStep(sub, { hub, topic }, t0 + 1_799_999, timing)).toEqual({ kind: 'wait' });
    expect(nextStep(sub, { hub, topic }, t0 + 1_800_000, timing).kind).toBe('subscribe');
  });

  it('subscribes again when the feed names another hub or topic', () => {
    expect(nextStep(active(), { hub: 'https://other.example/', topic }, t0, timing)).toEqual({
      kind: 'subscribe',
      why: 'hub changed',
    });
    expect(nextStep(active(), { hub, topic: `${topic}?v=2` }, t0, timing).kind).toBe('subscribe');
  });

  it('retries a failed or denied subscription only after its backoff', () => {
    for (const state of ['failed', 'denied'] as const) {
      const sub = failed(pending(), state, 'hub answered 500', t0, timing);
      expect(sub.retryAt).toBe(t0 + 600_000);
      expect(nextStep(sub, { hub, topic }, t0 + 599_999, timing)).toEqual({ kind: 'wait' });
      expect(nextStep(sub, { hub, topic }, t0 + 600_000, timing)).toEqual({
        kind: 'subscribe',
        why: 'retry',
      });
    }
  });

  it('subscribes again a source that came back while its unsubscription was pending', () => {
    expect(nextStep(unsubscribing(active(), 'u', t0, timing), { hub, topic }, t0, timing).kind).toBe(
      'subscribe',
    );
  });
});

describe('backoff', () => {
  it('doubles with each failure in a row, up to a day', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(600_000, n))).toEqual([
      600_000, 1_200_000, 2_400_000, 4_800_000,
    ]);
    expect(retryDelay(600_000, 30)).toBe(day);
    let sub = pending();
    for (let i = 0; i < 3; i++)
      sub = failed(
        requested(sub, { id: `r${i}`, hub, topic, source }, t0, timing),
        'failed',
        'x',
        t0,
        timing,
      );
    expect(sub).toMatchObject({ failures: 3, retryAt: t0 + 2_400_000 });
    // Success resets the streak.
    expect(verified(requested(sub, { id: 'ok', hub, topic, source }, t0, timing), 60, t0).failures).toBe(0);
  });
});

describe('leases', () => {
  it('are in force from verification to expiry, and through a pending renewal', () => {
    const sub = active(3_600);
    expect(leaseInForce(pending(), t0)).toBe(false);
    expect(leaseInForce(sub, t0)).toBe(true);
    expect(leaseInForce(sub, t0 + 3_600_000)).toBe(false);
    const renewing = requested(sub, { id: 'renew', hub, topic, source }, t0 + 1_800_000, timing);
    expect(renewing).toMatchObject({ state: 'pending', expiresAt: t0 + 3_600_000 });
    expect(leaseInForce(renewing, t0 + 1_800_000)).toBe(true);
    // A failed renewal keeps the lease it had until it ends.
    expect(leaseInForce(failed(renewing, 'failed', 'x', t0 + 1_800_000, timing), t0 + 1_800_001)).toBe(true);
  });

  it('are not carried to another hub, and end with an unsubscription', () => {
    const moved = requested(
      active(),
      { id: 'moved', hub: 'https://other.example/', topic, source },
      t0,
      timing,
    );
    expect(moved.expiresAt).toBeNull();
    expect(leaseInForce(unsubscribing(active(), 'u', t0, timing), t0)).toBe(false);
  });
});

describe('answerIntent', () => {
  const check = (
    mode: string,
    extra: Partial<{ topic: string; leaseSeconds: number | null; reason: string | null }> = {},
  ) => ({
    mode,
    topic,
    leaseSeconds: null,
    reason: null,
    ...extra,
  });

  it('confirms the pending subscription, with the lease the hub granted or else the one asked for', () => {
    expect(
      answerIntent(pending(), check('subscribe', { leaseSeconds: 7_200 }), 864_000, t0, timing),
    ).toMatchObject({
      kind: 'confirm',
      next: { state: 'active', leaseSeconds: 7_200, expiresAt: t0 + 7_200_000 },
    });
    expect(answerIntent(pending(), check('subscribe'), 864_000, t0, timing)).toMatchObject({
      next: { leaseSeconds: 864_000 },
    });
  });

  it('rejects what was not asked for: another topic, no request, an unsubscription never requested', () => {
    expect(
      answerIntent(pending(), check('subscribe', { topic: 'https://evil.example/' }), 1, t0, timing).kind,
    ).toBe('reject');
    expect(answerIntent(null, check('subscribe'), 1, t0, timing).kind).toBe('reject');
    expect(
      answerIntent(failed(pending(), 'failed', 'x', t0, timing), check('subscribe'), 1, t0, timing).kind,
    ).toBe('reject');
    expect(answerIntent(pending(), check('unsubscribe'), 1, t0, timing).kind).toBe('reject');
    expect(answerIntent(pending(), check('bogus'), 1, t0, timing).kind).toBe('reject');
  });

  it('confirms an active subscription verified again (a repeated or refreshing hub), with a new lease', () => {
    const later = t0 + day;
    expect(
      answerIntent(active(), check('subscribe', { leaseSeconds: 3_600 }), 1, later, timing),
    ).toMatchObject({
      kind: 'confirm',
      next: { state: 'active', leaseSeconds: 3_600, expiresAt: later + 3_600_000 },
    });
  });

  it('takes the topic as the same URL when the hub spells it differently, not another one', () => {
    const echoed = 'HTTPS://News.Example:443/feed';
    expect(answerIntent(pending(), check('subscribe', { topic: echoed }), 1, t0, timing).kind).toBe(
      'confirm',
    );
    expect(
      answerIntent(pending(), check('subscribe', { topic: 'https://news.example/feed2' }), 1, t0, timing)
        .kind,
    ).toBe('reject');
    expect(answerIntent(pending(), check('subscribe', { topic: 'not a url' }), 1, t0, timing).kind).toBe(
      'reject',
    );
  });

  it('confirms a requested unsubscription by deleting the record', () => {
    expect(
      answerIntent(unsubscribing(active(), 'u', t0, timing), check('unsubscribe'), 1, t0, timing),
    ).toEqual({
      kind: 'confirm',
      next: null,
    });
  });

  it('records a denial with its reason, ending any lease and scheduling a retry', () => {
    const verdict = answerIntent(active(), check('denied', { reason: 'over quota' }), 1, t0, timing);
    expect(verdict).toMatchObject({
      kind: 'denied',
      next: {
        state: 'denied',
        expiresAt: null,
        retryAt: t0 + 600_000,
        reason: 'denied by the hub: over quota',
      },
    });
  });
});
