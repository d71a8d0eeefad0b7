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
});
