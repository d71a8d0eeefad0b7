import { describe, expect, it } from 'vitest';
import { resolveHtmlUrls, resolveUrl } from './urls.ts';

describe('resolveUrl', () => {
  it('resolves against the innermost usable base, and leaves absolute links as written', () => {
    expect(resolveUrl('a', 'sub/', 'https://x.example/d/')).toBe('https://x.example/d/sub/a');
    expect(resolveUrl('HTTPS://X.example/A', 'https://y.example/')).toBe('HTTPS://X.example/A');
    expect(resolveUrl('/a', null, null)).toBe('/a');
  });

  it('reads "www.…" without a scheme as a host, in the scheme of the base, and not as a path', () => {
    expect(resolveUrl('www.example.com', 'https://feeds.example/rss/')).toBe('https://www.example.com/');
    expect(resolveUrl('www.example.co.uk/news?x=1', 'http://feeds.example/')).toBe(
      'http://www.example.co.uk/news?x=1',
    );
    // Without a base it stays as written; a file named like a host in a path is still a path.
    expect(resolveUrl('www.example.com', null)).toBe('www.example.com');
    expect(resolveUrl('pages/www.example.com', 'https://feeds.example/')).toBe(
      'https://feeds.example/pages/www.example.com',
    );
    expect(resolveUrl('www.html', 'https://feeds.example/')).toBe('https://feeds.example/www.html');
  });
});

describe('resolveHtmlUrls', () => {
  const base = 'https://x.example/posts/1/';

  it('resolves relative href, src and poster inside tags, and nothing else', () => {
    expect(
      resolveHtmlUrls(
        `<p>See <a href='../2/'>next</a>, href="not/a/tag"</p><img alt="" src="img/a.png?w=1&amp;h=2"><video poster=p.jpg>`,
        base,
      ),
    ).toBe(
      '<p>See <a href="https://x.example/posts/2/">next</a>, href="not/a/tag"</p><img alt="" src="https://x.example/posts/1/img/a.png?w=1&amp;h=2"><video poster=p.jpg>',
    );
  });

  it('leaves absolute, fragment-only and unresolvable values byte for byte', () => {
    const html = '<a href="HTTPS://Y.example/a b">y</a><a href="#top">t</a><a href="mailto:a@b">m</a>';
    expect(resolveHtmlUrls(html, base)).toBe(html);
    expect(resolveHtmlUrls('<a href="a">x</a>', null, 'not a url')).toBe('<a href="a">x</a>');
    expect(resolveHtmlUrls(null, base)).toBeNull();
  });
});
