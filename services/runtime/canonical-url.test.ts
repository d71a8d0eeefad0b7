import { describe, expect, it } from 'vitest';
import { canonicalUrl } from './canonical-url.ts';

describe('canonicalUrl', () => {
  it('removes tracking parameters and the fragment, keeps real parameters sorted', () => {
    expect(
      canonicalUrl(
        'https://News.Example.com/world/story-1?utm_source=rss&id=7&utm_medium=feed&a=1&fbclid=x#comments',
      ),
    ).toBe('https://news.example.com/world/story-1?a=1&id=7');
  });

  it('gives the same result for the same article linked differently', () => {
    const a = canonicalUrl('https://www.bbc.co.uk/news/business-1?at_medium=RSS&at_campaign=KARANGA');
    const b = canonicalUrl('https://www.bbc.co.uk:443/news/business-1#top');
    expect(a).toBe(b);
  });

  it('removes the campaign tags of Webtrends as publishers add them to feed links', () => {
    expect(
      canonicalUrl('http://www.heise.de/developer/meldung/Foo-3088438.html?wt_mc=rss.developer.beitrag.atom'),
    ).toBe('http://www.heise.de/developer/meldung/Foo-3088438.html');
  });

  it("removes Medium's feed tag, and keeps a source parameter of another value", () => {
    expect(
      canonicalUrl(
        'https://medium.com/invironment/the-creative-forager-125af37d838f?source=rss----d12c403d4976--food',
      ),
    ).toBe('https://medium.com/invironment/the-creative-forager-125af37d838f');
    expect(canonicalUrl('https://site.example/a?source=archive')).toBe(
      'https://site.example/a?source=archive',
    );
  });

  it('takes the article a redirect carries at the end of its path', () => {
    expect(
      canonicalUrl(
        'https://redir.folha.com.br/redir/online/emcimadahora/rss091/*https://www1.folha.uol.com.br/mercado/2024/05/x.shtml?utm_source=rss',
      ),
    ).toBe('https://www1.folha.uol.com.br/mercado/2024/05/x.shtml');
    expect(canonicalUrl('https://site.example/gallery/*/photo')).toBe('https://site.example/gallery/*/photo');
    expect(canonicalUrl('https://r.example/go/*javascript:alert(1)')).toBe(
      'https://r.example/go/*javascript:alert(1)',
    );
  });

  it('drops credentials and default ports, keeps other ports', () => {
    expect(canonicalUrl('http://user:pw@example.com:80/a')).toBe('http://example.com/a');
    expect(canonicalUrl('http://example.com:8080/a')).toBe('http://example.com:8080/a');
  });

  it('resolves relative links against a base', () => {
    expect(canonicalUrl('/2024/story?utm_campaign=x', 'https://site.example/feed.xml')).toBe(
      'https://site.example/2024/story',
    );
  });

  it('rejects non-http(s) and malformed input', () => {
    expect(canonicalUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalUrl('mailto:a@b.c')).toBeNull();
    expect(canonicalUrl('not a url')).toBeNull();
    expect(canonicalUrl('')).toBeNull();
  });

  it('drops a fragment mark or query mark with nothing after it, and a trailing dot of the host', () => {
    expect(canonicalUrl('https://site.example/a#')).toBe('https://site.example/a');
    expect(canonicalUrl('https://site.example/a?')).toBe('https://site.example/a');
    expect(canonicalUrl('https://site.example/a?#x')).toBe('https://site.example/a');
    expect(canonicalUrl('https://Site.Example./a')).toBe('https://site.example/a');
    expect(canonicalUrl('https://@site.example/a')).toBe('https://site.example/a');
  });

  it('leaves a link that is canonical already as it is', () => {
    expect(canonicalUrl('http://127.0.0.7:8000/articles/12/3')).toBe('http://127.0.0.7:8000/articles/12/3');
    expect(canonicalUrl('https://site.example/a?b=1&c=2')).toBe('https://site.example/a?b=1&c=2');
  });
});
