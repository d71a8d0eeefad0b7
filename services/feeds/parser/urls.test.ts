import { describe, expect, it } from 'vitest';
import { resolveHtmlUrls, resolveUrl } from './urls.ts';

describe('resolveUrl', () => {
  it('resolves against the innermost usable base, and leaves absolute links as written', () => {
    expect(resolveUrl('a', 'sub/', 'https://x.example/d/')).toBe('https://x.example/d/sub/a');
    expect(resolveUrl('HTTPS://X.example/A', 'https://y.example/')).toBe('HTTPS://X.example/A');
    expect(resolveUrl('/a', null, null)).toBe('/a');
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
