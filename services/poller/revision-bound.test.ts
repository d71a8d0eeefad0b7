import { describe, expect, it } from 'vitest';
import { revisionVerdict, rollingDayMs, updatesWithinDay } from './revision-bound.ts';

const minute = 60_000;
const bound = { perDay: 3, minIntervalMs: 15 * minute };
const now = Date.UTC(2026, 10, 20, 12);

describe('the bound on revisions', () => {
  it('allows an update once the minimum interval since the last revision has passed', () => {
    expect(revisionVerdict(bound, { lastRevisionAt: now - 15 * minute, recentUpdates: [] }, now)).toEqual({
      allowed: true,
    });
    expect(revisionVerdict(bound, { lastRevisionAt: now - 5 * minute, recentUpdates: [] }, now)).toEqual({
      allowed: false,
      reason: 'first seen 300 s ago (POLLER_UPDATE_MIN_INTERVAL_SECONDS=900)',
      notBefore: now + 10 * minute,
    });
    // The last revision an update, not the first sighting: the reason says which.
    expect(
      revisionVerdict(bound, { lastRevisionAt: now - 5 * minute, recentUpdates: [now - 5 * minute] }, now),
    ).toMatchObject({ allowed: false, reason: 'updated 300 s ago (POLLER_UPDATE_MIN_INTERVAL_SECONDS=900)' });
  });

  it('allows at most perDay updates in any rolling 24 hours', () => {
    const updates = [now - 23 * 60 * minute, now - 2 * 60 * minute, now - 60 * minute];
    const verdict = revisionVerdict(
      bound,
      { lastRevisionAt: now - 60 * minute, recentUpdates: updates },
      now,
    );
    expect(verdict).toEqual({
      allowed: false,
      reason: '3 updates in the last 24 hours (POLLER_UPDATES_PER_DAY=3)',
      notBefore: updates[0]! + rollingDayMs,
    });
    // An hour later the oldest has left the window.
    const later = now + 60 * minute;
    expect(
      revisionVerdict(bound, { lastRevisionAt: now - 60 * minute, recentUpdates: updates }, later),
    ).toEqual({
      allowed: true,
    });
    expect(updatesWithinDay({ lastRevisionAt: null, recentUpdates: updates }, later)).toEqual(
      updates.slice(1),
    );
  });

  it('knows no interval for an article whose last revision time is unknown, and none at all with perDay 0', () => {
    expect(revisionVerdict(bound, { lastRevisionAt: null, recentUpdates: [] }, now)).toEqual({
      allowed: true,
    });
    expect(
      revisionVerdict({ perDay: 0, minIntervalMs: 0 }, { lastRevisionAt: null, recentUpdates: [] }, now),
    ).toMatchObject({ allowed: false, reason: 'updates are off (POLLER_UPDATES_PER_DAY=0)' });
  });
});
