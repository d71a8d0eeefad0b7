import { describe, expect, it } from 'vitest';
import {
  pageOf,
  withoutRepeatedStories,
  type AlertClaim,
  type AlertClaims,
  type ClaimHolder,
} from './alert-claims.ts';

/** Claims kept in a Map, as Redis keeps them: the first article to claim a (monitor, URL) pair holds it. */
function memoryClaims() {
  const held = new Map<string, ClaimHolder>();
  const asked: AlertClaim[][] = [];
  const claims: AlertClaims = {
    holders: async (batch) => {
      asked.push([...batch]);
      return batch.map((c) => {
        const key = `${c.monitorId}\n${c.url}`;
        if (!held.has(key)) held.set(key, { articleId: c.articleId, revision: c.revision });
        return held.get(key)!;
      });
    },
  };
  return { claims, asked };
}

const alert = (monitor: string, article: string, url: string, revision = 1) => ({
  alert_id: `alr_${monitor}_${article}`,
  monitor_id: monitor,
  article_id: article,
  article_url: url,
  revision,
});
const revisionOf = (a: { revision: number }) => a.revision;

describe('one alert per monitor and story', () => {
  it('raises the first article of a URL for a monitor and not a second article with that URL', async () => {
    const { claims, asked } = memoryClaims();
    const batch = [
      alert('m1', 'bbc-top-1', 'https://bbc.example/news/1'),
      alert('m2', 'bbc-top-1', 'https://bbc.example/news/1'),
      alert('m1', 'bbc-business-1', 'https://bbc.example/news/1'),
      alert('m1', 'bbc-top-2', 'https://bbc.example/news/2'),
    ];
    const { raised, repeated } = await withoutRepeatedStories(batch, claims, revisionOf);
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
      revisionOf,
    );
    expect(later.raised.map((a) => a.article_id)).toEqual(['bbc-top-1']);
    expect(later.repeated.map((a) => a.article_id)).toEqual(['bbc-business-1']);
  });

  it('raises alerts without a URL (an article the read model did not have) without claiming', async () => {
    const { claims, asked } = memoryClaims();
    const { raised } = await withoutRepeatedStories(
      [alert('m1', 'a', ''), alert('m1', 'b', '')],
      claims,
      revisionOf,
    );
    expect(raised.map((a) => a.article_id)).toEqual(['a', 'b']);
    expect(asked).toEqual([[]]);
  });

  it('takes the forms of one page as one URL: http and https, www, AMP, a trailing slash, ?ref=rss', async () => {
    const { claims } = memoryClaims();
    const forms = [
      'https://news.example/business/acme-results',
      'http://news.example/business/acme-results',
      'https://www.news.example/business/acme-results/',
      'https://news.example/business/acme-results?ref=rss',
      'https://news.example/business/acme-results?amp=1',
      'https://news.example/business/acme-results/amp',
      'https://amp.news.example/business/acme-results?outputType=amp',
      'https://news.example/business/acme-results?utm_source=x&ref=rss',
    ];
    const { raised, repeated } = await withoutRepeatedStories(
      forms.map((url, i) => alert('m1', `a${i}`, url)),
      claims,
      revisionOf,
    );
    expect(raised.map((a) => a.article_id)).toEqual(['a0']);
    expect(repeated).toHaveLength(forms.length - 1);
  });

  it('keeps pages apart that differ in what names the page: path, query, port', () => {
    const pages = [
      'https://news.example/story?id=1',
      'https://news.example/story?id=2',
      'https://news.example/story',
      'https://news.example/story/2',
      'https://news.example:8443/story',
      'https://other.example/story',
      'https://news.example/Story',
      'https://news.example/story?from=home',
    ];
    expect(new Set(pages.map(pageOf)).size).toBe(pages.length);
    expect(pageOf('https://www.bbc.co.uk/news/world-123.amp')).toBe(
      pageOf('https://bbc.co.uk/news/world-123'),
    );
    expect(pageOf('https://news.example/')).toBe(pageOf('http://www.news.example'));
    expect(pageOf('not a url')).toBe('not a url');
  });

  it('raises an article once per monitor however often it is edited, and its own retries again', async () => {
    const { claims } = memoryClaims();
    const url = 'https://news.example/story';
    const first = await withoutRepeatedStories([alert('m1', 'a', url, 1)], claims, revisionOf);
    expect(first.raised).toHaveLength(1);
    // the edit (revision 2) matches again: no second alert, and it says why
    const edit = await withoutRepeatedStories(
      [alert('m1', 'a', url, 2), alert('m2', 'a', url, 2)],
      claims,
      revisionOf,
    );
    expect(edit.raised.map((a) => a.monitor_id)).toEqual(['m2']); // m2 first matched at revision 2
    expect(edit.edited.map((a) => a.monitor_id)).toEqual(['m1']);
    expect(edit.repeated).toEqual([]);
    // revision 1 retried or replayed: its alert again (same alert id, deduplicated downstream)
    const retried = await withoutRepeatedStories([alert('m1', 'a', url, 1)], claims, revisionOf);
    expect(retried.raised).toHaveLength(1);
    // a claim written before revisions were kept (the id alone) raises as before
    const legacy: AlertClaims = {
      holders: async (batch) => batch.map((c) => ({ articleId: c.articleId, revision: null })),
    };
    expect(
      (await withoutRepeatedStories([alert('m1', 'a', url, 3)], legacy, revisionOf)).raised,
    ).toHaveLength(1);
  });
});
