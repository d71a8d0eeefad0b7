import { describe, expect, it } from 'vitest';
import { firstImageOf } from './body-image.ts';

describe('firstImageOf', () => {
  it('finds the first picture of the HTML, its address decoded', () => {
    expect(
      firstImageOf('<p>Intro</p><img class="hero" src="https://cdn.example/a.jpg?w=800&amp;h=600" alt="">'),
    ).toBe('https://cdn.example/a.jpg?w=800&h=600');
    expect(firstImageOf("<IMG SRC='/images/b.png'>")).toBe('/images/b.png');
    expect(firstImageOf('<img data-src="https://cdn.example/lazy.webp" src="">')).toBe(
      'https://cdn.example/lazy.webp',
    );
  });

  it("takes a lazily loaded image's address over the placeholder in its src, and a srcset's first", () => {
    const placeholder = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    expect(firstImageOf(`<img src="${placeholder}" data-src="https://cdn.example/real.jpg">`)).toBe(
      'https://cdn.example/real.jpg',
    );
    expect(
      firstImageOf(
        '<img src="/wp-content/plugins/lazy/blank.gif" data-lazy-src="https://cdn.example/wp.jpg">',
      ),
    ).toBe('https://cdn.example/wp.jpg');
    expect(firstImageOf(`<img src="${placeholder}" data-original="/img/jq.png">`)).toBe('/img/jq.png');
    expect(
      firstImageOf(
        `<img src="${placeholder}" data-srcset="https://cdn.example/s-480.jpg 480w, https://cdn.example/s-960.jpg 960w">`,
      ),
    ).toBe('https://cdn.example/s-480.jpg');
    expect(firstImageOf('<img srcset="/r/1x.png 1x, /r/2x.png 2x" alt="">')).toBe('/r/1x.png');
  });

  it('passes over tracking pixels, drawn emoji and data: URIs', () => {
    const html =
      '<img src="https://feeds.feedburner.com/~r/x/~4/abc" height="1" width="1">' +
      '<img src="https://s.w.org/images/core/emoji/14.0.0/72x72/1f600.png">' +
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
      '<img src="https://example.com/counter.gif" width="1" height="1">' +
      '<img src="https://cdn.example/photo.jpg" width="640">';
    expect(firstImageOf(html)).toBe('https://cdn.example/photo.jpg');
  });

  it('answers null for text with no picture, and reads a hostile body in bounded time', () => {
    expect(firstImageOf('No pictures here')).toBeNull();
    expect(firstImageOf(null)).toBeNull();
    expect(firstImageOf('<img'.repeat(50_000))).toBeNull();
  });
});
