import { describe, expect, it } from 'vitest';
import { MAX_GUID_CHARS, MAX_URL_CHARS } from './limits.ts';
import { parseFeed } from './parse-feed.ts';
import { utf8 } from './testdata/read.ts';

const rss = (items: string) =>
  parseFeed(
    utf8(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://s.example/</link>
${items}</channel></rss>`),
    null,
  );

describe('item bounds', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('drops a link, guid, image, enclosure or publisher address past its bound, and says so', () => {
    const feed = rss(`
      <item><title>Link</title><link>https://s.example/${long(MAX_URL_CHARS)}</link><guid>https://s.example/1</guid></item>
      <item><title>Guid</title><link>https://s.example/2</link><guid isPermaLink="false">${long(MAX_GUID_CHARS + 1)}</guid></item>
      <item><title>Image</title><link>https://s.example/3</link>
        <enclosure url="https://s.example/${long(MAX_URL_CHARS)}.jpg" type="image/jpeg" length="1"/>
        <enclosure url="https://s.example/${long(MAX_URL_CHARS)}.mp3" type="audio/mpeg" length="1"/></item>
      <item><title>Publisher</title><link>https://s.example/4</link>
        <source url="https://p.example/${long(MAX_URL_CHARS)}">Paper</source></item>`);
    const [link, guid, image, publisher] = feed.items;
    // Without a link the item is skipped for want of one (normalise-item.ts), and the poll says why.
    expect(link).toMatchObject({ url: null, guid: 'https://s.example/1' });
    expect(guid).toMatchObject({ url: 'https://s.example/2', guid: null });
    expect(image).toMatchObject({ imageUrl: null, enclosureUrl: null });
    expect(publisher?.publisher).toEqual({ name: 'Paper', url: null });
    expect(feed.warnings).toEqual([
      `1 item(s): link longer than ${MAX_URL_CHARS} characters, dropped`,
      `1 item(s): guid longer than ${MAX_GUID_CHARS} characters, dropped`,
      `1 item(s): image address longer than ${MAX_URL_CHARS} characters, dropped`,
      `1 item(s): enclosure address longer than ${MAX_URL_CHARS} characters, dropped`,
      `1 item(s): publisher address longer than ${MAX_URL_CHARS} characters, dropped`,
    ]);
  });

  it('leaves addresses up to the bound, and a clean feed without warnings', () => {
    const atBound = `https://s.example/${long(MAX_URL_CHARS - 'https://s.example/'.length)}`;
    const feed = rss(`<item><title>At the bound</title><link>${atBound}</link></item>`);
    expect(feed.items[0]?.url).toBe(atBound);
    expect(feed.warnings).toEqual([]);
  });
});
