import { describe, expect, it } from 'vitest';
import { noPollState, pollStateOf } from './poll-state.ts';

describe('pollStateOf', () => {
  it('reads a hash written before the pace was remembered as a source with no pace yet', () => {
    expect(
      pollStateOf({ etag: '"e"', last_modified: 'Tue, 01 Mar 2005 00:00:00 GMT', failures: '2' }),
    ).toEqual({
      ...noPollState(),
      etag: '"e"',
      lastModified: 'Tue, 01 Mar 2005 00:00:00 GMT',
      consecutiveFailures: 2,
    });
    expect(pollStateOf({})).toEqual(noPollState());
    expect(pollStateOf(null)).toEqual(noPollState());
  });

  it('reads the pace, and skips what is not a whole positive number', () => {
    expect(
      pollStateOf({
        failures: '0',
        published: '1795000000,,abc,-5,1.5,1794990000',
        ttl: '3600',
        update_interval: 'soon',
        interval: '0',
      }),
    ).toMatchObject({
      pace: {
        publications: [1_795_000_000_000, 1_794_990_000_000],
        publisher: { ttlSeconds: 3600, updateIntervalSeconds: null },
        intervalSeconds: null,
      },
    });
  });

  it('reads the move streak, and a hash without one as no move in progress', () => {
    expect(
      pollStateOf({
        failures: '0',
        move_url: 'https://new.example/feed',
        move_polls: '2',
        move_read: '1',
        move_taken_by: '',
      }).move,
    ).toEqual({ url: 'https://new.example/feed', polls: 2, feedRead: true, takenBy: null });
    expect(
      pollStateOf({
        move_url: 'https://new.example/feed',
        move_polls: 'x',
        move_read: '0',
        move_taken_by: 'src_a',
      }).move,
    ).toEqual({ url: 'https://new.example/feed', polls: 0, feedRead: false, takenBy: 'src_a' });
    expect(pollStateOf({ failures: '1', move_url: '' }).move).toBeUndefined();
  });
});
