import { describe, expect, it } from 'vitest';
import type { Source, SourceSubscription } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import { sourceState } from '../sources/source.ts';
import { FollowedSources, SourceFollowers, type SourceSchedule } from './source-followers.ts';

const source = (id: string, tenant: string | null, active = true): Source => ({
  ...sourceState(
    {
      name: id,
      feed_url: `https://example.org/${id}.xml`,
      category: 'world',
      language: 'en',
      country: 'gb',
      active,
    },
    null,
    1_000,
    tenant,
  ),
  source_id: id,
});

function followersOf(...subscriptions: [string, string, boolean][]) {
  const followers = new SourceFollowers(new Map(), createLogger('test', 'silent'));
  let offset = 0;
  const say = (tenant: string, sourceId: string, subscribed: boolean) => {
    const value: SourceSubscription = { tenant_id: tenant, source_id: sourceId, subscribed, occurred_at: 0 };
    followers.table.apply(0, String(offset++), `${tenant}/${sourceId}`, value);
  };
  for (const [tenant, sourceId, subscribed] of subscriptions) say(tenant, sourceId, subscribed);
  return { followers, say };
}

/** What the scheduler was last told of each source: its `active`, or 'removed'. */
function recordingSchedule() {
  const told = new Map<string, boolean | 'removed'>();
  const schedule: SourceSchedule = {
    upsert: (_partition, s) => told.set(s.source_id, s.active),
    remove: (id) => told.set(id, 'removed'),
    retainPartitions: () => undefined,
  };
  return { told, schedule };
}

describe('the followers of a source', () => {
  it('are the tenants whose latest subscription state says subscribed', () => {
    const { followers, say } = followersOf(['t1', 'a', true], ['t2', 'a', true], ['t1', 'b', true]);
    expect([followers.followers('a'), followers.followers('b'), followers.followers('c')]).toEqual([2, 1, 0]);
    say('t1', 'a', false);
    say('t1', 'a', false); // unsubscribing twice is once
    say('t1', 'b', true); // subscribing twice is once
    expect([followers.followers('a'), followers.followers('b')]).toEqual([1, 1]);
    say('t2', 'a', false);
    expect(followers.followers('a')).toBe(0);
  });

  it('decide whether a source a tenant added is polled; an operator’s source is polled whoever follows it', () => {
    const { followers } = followersOf(['t1', 'a', true], ['t1', 'b', false]);
    expect(followers.wanted(source('a', 't1'))).toBe(true);
    expect(followers.wanted(source('b', 't1'))).toBe(false);
    expect(followers.wanted(source('c', null))).toBe(true);
  });
});

describe('the sources given to the scheduler', () => {
  it('hold back a tenant’s source nobody follows, and give it again when someone does', () => {
    const { followers, say } = followersOf(['t1', 'a', true]);
    const { told, schedule } = recordingSchedule();
    const unfollowed: string[] = [];
    const followed = new FollowedSources(
      schedule,
      (s) => followers.wanted(s),
      (s) => unfollowed.push(s.source_id),
    );
    followers.onFollowChange((id) => followed.followChanged(id));
    followed.upsert(0, source('a', 't1'));
    followed.upsert(1, source('b', 't2'));
    followed.upsert(1, source('op', null));
    expect(Object.fromEntries(told)).toEqual({ a: true, b: false, op: true });
    expect(unfollowed).toEqual(['b']);
    followed.upsert(1, { ...source('b', 't2'), version: 2 }); // held back already: not told again
    expect(told.get('b')).toBe(false);
    expect(unfollowed).toEqual(['b']);

    say('t1', 'a', false); // the last follower leaves
    expect(told.get('a')).toBe(false);
    say('t3', 'b', true); // a first follower comes
    expect(told.get('b')).toBe(true);
    say('t3', 'a', true);
    expect(told.get('a')).toBe(true);
    expect(unfollowed).toEqual(['b', 'a']);
    say('t3', 'a', false); // followed again in between, so held back anew: told again
    expect(unfollowed).toEqual(['b', 'a', 'a']);
  });

  it('leave a paused source paused, and forget what was removed or left with its partition', () => {
    const { followers, say } = followersOf(['t1', 'a', true]);
    const { told, schedule } = recordingSchedule();
    const followed = new FollowedSources(schedule, (s) => followers.wanted(s));
    followers.onFollowChange((id) => followed.followChanged(id));
    followed.upsert(0, source('p', 't1', false));
    say('t1', 'p', true);
    expect(told.get('p')).toBe(false);
    followed.upsert(0, source('a', 't1'));
    followed.remove('a');
    say('t1', 'a', false);
    say('t1', 'a', true);
    expect(told.get('a')).toBe('removed');
    followed.upsert(2, source('x', 't1'));
    followed.retainPartitions([0]);
    told.clear();
    say('t1', 'x', true);
    expect(told.size).toBe(0);
  });
});
