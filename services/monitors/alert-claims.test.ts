import { describe, expect, it } from 'vitest';
import { withoutRepeatedStories, type AlertClaim, type AlertClaims } from './alert-claims.ts';

/** Claims kept in a Map, as Redis keeps them: the first article to claim a (monitor, URL) pair holds it. */
function memoryClaims() {
  const held = new Map<string, string>();
  const asked: AlertClaim[][] = [];
  const claims: AlertClaims = {
    holders: async (batch) => {
      asked.push([...batch]);
      return batch.map((c) => {
        const key = `${c.monitorId}\n${c.url}`;
        if (!held.has(key)) held.set(key, c.articleId);
        return held.get(key)!;
      });
    },
  };
  return { claims, asked };
}

const alert = (monitor: string, article: string, url: string) => ({
  alert_id: `alr_${monitor}_${article}`,
  monitor_id: monitor,
  article_id: article,
  article_url: url,
});

describe('one alert per monitor and story', () => {
  it('raises the first article of a URL for a monitor and not a second article with that URL', async () => {
    const { claims, asked } = memoryClaims();
    const batch = [
      alert('m1', 'bbc-top-1', 'https://bbc.example/news/1'),
      alert('m2', 'bbc-top-1', 'https://bbc.example/news/1'),
      alert('m1', 'bbc-business-1', 'https://bbc.example/news/1'),
      alert('m1', 'bbc-top-2', 'https://bbc.example/news/2'),
    ];
    const { raised, repeated } = await withoutRepeatedStories(batch, claims);
    expect(raised.map((a) => a.alert_id)).toEqual([
      'alr_m1_bbc-top-1',
      'alr_m2_bbc-top-1',
      'alr_m1_bbc-top-2',
    ]);
    expect(repeated.map((a) => a.alert_id)).toEqual(['alr_m1_bbc-business-1']);
    expect(asked).toHaveLength(1); // one round trip for the batch

    // a later batch: the holder's re-enrichment raises its alert again, the other article still nothing
    const later = await withoutRepeatedStories(
      [
        alert('m1', 'bbc-business-1', 'https://bbc.example/news/1'),
        alert('m1', 'bbc-top-1', 'https://bbc.example/news/1'),
      ],
      claims,
    );
    expect(later.raised.map((a) => a.article_id)).toEqual(['bbc-top-1']);
    expect(later.repeated.map((a) => a.article_id)).toEqual(['bbc-business-1']);
  });

  it('raises alerts without a URL (an article the read model did not have) without claiming', async () => {
    const { claims, asked } = memoryClaims();
    const { raised } = await withoutRepeatedStories([alert('m1', 'a', ''), alert('m1', 'b', '')], claims);
    expect(raised.map((a) => a.article_id)).toEqual(['a', 'b']);
    expect(asked).toEqual([[]]);
  });
});
