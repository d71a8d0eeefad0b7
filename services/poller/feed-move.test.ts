import { describe, expect, it } from 'vitest';
import { moveVerdict, moveWarning, refusedStreak, type MoveStreak, type PollSighting } from './feed-move.ts';

const feedUrl = 'https://old.example/rss';
const newUrl = 'https://new.example/feed.xml';

const answered = (redirectStatuses: number[], finalUrl = newUrl, feedRead = true): PollSighting => ({
  kind: 'answered',
  finalUrl,
  redirectStatuses,
  feedRead,
});
const failed: PollSighting = { kind: 'failed' };

/** The verdicts of polls in a row, each starting from the streak the one before left. */
function run(sightings: PollSighting[], required = 3, start: MoveStreak | null = null) {
  let streak = start;
  return sightings.map((sighting) => {
    const verdict = moveVerdict(streak, feedUrl, sighting, required);
    streak = verdict.kind === 'none' ? null : verdict.streak;
    return verdict;
  });
}
const kinds = (sightings: PollSighting[], required = 3) => run(sightings, required).map((v) => v.kind);

describe('moveVerdict', () => {
  it('moves after N polls in a row whose redirects are all permanent and end at the same URL', () => {
    expect(kinds([answered([301]), answered([301]), answered([301])])).toEqual([
      'pending',
      'pending',
      'move',
    ]);
    expect(kinds([answered([308, 301]), answered([301, 308])], 2)).toEqual(['pending', 'move']);
    const last = run([answered([301]), answered([301]), answered([301])]).at(-1)!;
    expect(last).toMatchObject({ kind: 'move', to: newUrl, streak: { url: newUrl, polls: 3 } });
  });

  it('never moves on a chain with one temporary redirect anywhere in it', () => {
    for (const chain of [[302], [303], [307], [301, 302], [302, 301], [308, 307, 301]])
      expect(
        kinds([answered(chain), answered(chain), answered(chain), answered(chain)]),
        chain.join(','),
      ).toEqual(['none', 'none', 'none', 'none']);
  });

  it('starts counting again after a temporary chain, a failure, a poll without redirect or another URL', () => {
    const p = answered([301]);
    for (const interruption of [
      answered([302]),
      failed,
      answered([]),
      answered([301], 'https://elsewhere.example/feed.xml'),
    ])
      expect(kinds([p, p, interruption, p, p, p]), JSON.stringify(interruption)).toEqual([
        'pending',
        'pending',
        interruption.kind === 'answered' && interruption.finalUrl !== newUrl ? 'pending' : 'none',
        'pending',
        'pending',
        'move',
      ]);
  });

  it('counts a 304 at the new URL, but moves only once a feed was read there', () => {
    const notModified = answered([301], newUrl, false);
    expect(kinds([notModified, notModified, notModified, notModified])).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    expect(kinds([notModified, notModified, answered([301])])).toEqual(['pending', 'pending', 'move']);
    expect(kinds([answered([301]), notModified, notModified])).toEqual(['pending', 'pending', 'move']);
  });

  it('takes spellings of one URL as the same URL, and a redirect back to the feed URL as no move', () => {
    expect(
      kinds([
        answered([301], 'https://NEW.example/feed.xml'),
        answered([301], 'https://new.example:443/feed.xml#top'),
        answered([301], 'https://new.example/feed.xml?utm_source=rss'),
      ]),
    ).toEqual(['pending', 'pending', 'move']);
    expect(kinds([answered([301, 301], `${feedUrl}?utm_medium=feed`), answered([301], feedUrl)])).toEqual([
      'none',
      'none',
    ]);
  });

  it('ignores a final URL that is no http(s) URL, and never moves with N below 1', () => {
    expect(kinds([answered([301], 'ftp://new.example/feed'), answered([301], 'not a url')], 1)).toEqual([
      'none',
      'none',
    ]);
    expect(kinds([answered([301]), answered([301])], 0)).toEqual(['none', 'none']);
  });

  it('tries again N polls after the URL was found taken, and says why meanwhile', () => {
    const taken = refusedStreak({ url: newUrl, polls: 3, feedRead: true, takenBy: 'src_other' }, 'src_other');
    const verdicts = run([answered([301]), answered([301]), answered([301])], 3, taken);
    expect(verdicts.map((v) => v.kind)).toEqual(['pending', 'pending', 'move']);
    expect(moveWarning(verdicts[0]!, 3)).toBe(
      `the feed moved permanently to ${newUrl}, which is already source src_other: this source stays at its URL (tried again after 3 polls)`,
    );
    // Another URL is another story: nothing taken about it yet.
    const [elsewhere] = run([answered([301], 'https://elsewhere.example/x')], 3, taken);
    expect(elsewhere).toMatchObject({ kind: 'pending', streak: { polls: 1, takenBy: null } });
  });
});

describe('moveWarning', () => {
  it('says where the feed redirects and how many polls are left, and nothing when there is no move', () => {
    const [first] = run([answered([301], newUrl, false)]);
    expect(moveWarning(first!, 3)).toBe(
      `the feed redirects permanently to ${newUrl}: the source moves there after 3 polls in a row end there and a feed read there (1 so far)`,
    );
    const [, second] = run([answered([301]), answered([301])]);
    expect(moveWarning(second!, 3)).toBe(
      `the feed redirects permanently to ${newUrl}: the source moves there after 3 polls in a row end there (2 so far)`,
    );
    expect(moveWarning({ kind: 'none' }, 3)).toBeNull();
  });
});
