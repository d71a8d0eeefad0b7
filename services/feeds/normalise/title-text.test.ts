import { describe, expect, it } from 'vitest';
import { parseFeed } from '../parser/parse-feed.ts';
import { plainText } from '../../runtime/plain-text.ts';
import { escapeNonMarkup, titleText } from './title-text.ts';

describe('titleText', () => {
  it('keeps angle brackets that start no HTML tag: a title escaped once is text', () => {
    expect(titleText('std::vector<int> explained')).toBe('std::vector<int> explained');
    expect(titleText('The <dialog> element')).toBe('The <dialog> element');
    expect(titleText('Map<K, V> and Option<B> in Rust')).toBe('Map<K, V> and Option<B> in Rust');
    expect(titleText('Why x <y and y> z')).toBe('Why x <y and y> z');
    expect(titleText('Ends with a stray </int')).toBe('Ends with a stray </int');
    expect(titleText('a</template>b')).toBe('a</template>b');
    expect(titleText('<!important> rules')).toBe('<!important> rules');
  });

  it("keeps the tags a web developer's headline names, opened alone without markup's attributes", () => {
    expect(titleText('The <p> element is older than you think')).toBe(
      'The <p> element is older than you think',
    );
    expect(titleText('Drop the <div>: semantic HTML wins')).toBe('Drop the <div>: semantic HTML wins');
    expect(titleText('Lazy-loading with <img loading="lazy"> in 2026')).toBe(
      'Lazy-loading with <img loading="lazy"> in 2026',
    );
    expect(titleText('The <code> and <span> tags')).toBe('The <code> and <span> tags');
    expect(titleText('Why an <a> inside a <button> breaks')).toBe('Why an <a> inside a <button> breaks');
    // With what markup carries, they are markup.
    expect(titleText('<img src="https://x.example/i.png">Photo of the day')).toBe('Photo of the day');
    expect(titleText('<span class="kicker">Live</span> Rates')).toBe('Live Rates');
  });

  it('drops the tags titles carry, with or without attributes, opening or closing, alone or not', () => {
    expect(titleText('<b>Breaking</b>: rates rise')).toBe('Breaking: rates rise');
    expect(titleText('Rates <em>rise</em>')).toBe('Rates rise');
    expect(titleText('<a href="https://x.example/?a=1&amp;b=2" title="a <b>">Link</a> text')).toBe(
      'Link text',
    );
    expect(titleText('<FONT color=red>Alert</FONT> <span class="x">now</span>')).toBe('Alert now');
    expect(titleText('Line<br/>break, an extra<wbr />ordinary<br>one')).toBe(
      'Line break, an extraordinary one',
    );
    expect(titleText('<STRONG>Unclosed capitals and <i>unclosed')).toBe('Unclosed capitals and unclosed');
    expect(titleText('x<sup>2</sup> <!-- a comment --> done')).toBe('x2 done');
  });

  it('drops any element that the title opens and closes, as an XHTML title is written', () => {
    expect(titleText('The <dfn>term</dfn>, <time datetime="2026">then</time>')).toBe('The term, then');
    expect(titleText('<B>Capital</B> markup')).toBe('Capital markup');
  });

  it('keeps markup and text apart in one title', () => {
    expect(titleText('<b>Why</b> std::vector<int> &amp; <code>std::span</code>')).toBe(
      'Why std::vector<int> & std::span',
    );
    expect(titleText('Tom &amp; Jerry &lt;3')).toBe('Tom & Jerry <3');
  });

  it('reads a title without brackets as plainLine does, and an absent one as empty', () => {
    expect(titleText('  Plain\n title &amp; more ')).toBe('Plain title & more');
    expect(titleText(null)).toBe('');
    expect(titleText('')).toBe('');
    const simple = 'Markets fall';
    expect(escapeNonMarkup(simple)).toBe(simple);
  });

  it('reads a hostile title in one pass', () => {
    const started = performance.now();
    for (const unit of ['<a x="', '<a b ', '<!--', '<a x="<" ', '</b><b>'])
      titleText(unit.repeat(200_000 / unit.length));
    // Linear: about 20 ms each; quadratic would be minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('item titles from each format', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const itemTitles = (xml: string) => parseFeed(utf8(xml), null).items.map((item) => titleText(item.title));

  it('RSS: escaped text keeps its brackets, escaped markup is dropped', () => {
    const titles = itemTitles(`<rss version="2.0"><channel><title>c</title>
      <item><title>std::vector&lt;int&gt; explained</title></item>
      <item><title>The &lt;dialog&gt; element</title></item>
      <item><title>&lt;b&gt;Breaking&lt;/b&gt;: rates rise</title></item>
      <item><title>Rates &lt;em&gt;rise&lt;/em&gt;</title></item>
      <item><title><![CDATA[<strong>Live</strong>: Vec<u8> &amp; more]]></title></item>
    </channel></rss>`);
    expect(titles).toEqual([
      'std::vector<int> explained',
      'The <dialog> element',
      'Breaking: rates rise',
      'Rates rise',
      'Live: Vec<u8> & more',
    ]);
  });

  it('Atom: text, html and xhtml titles each as their type says', () => {
    const titles = itemTitles(`<feed xmlns="http://www.w3.org/2005/Atom">
      <entry><id>1</id><title>The &lt;dialog&gt; element</title></entry>
      <entry><id>2</id><title type="text">&lt;b&gt; is not bold here</title></entry>
      <entry><id>3</id><title type="html">&lt;b&gt;Bold&lt;/b&gt; and &amp;lt;int&amp;gt;</title></entry>
      <entry><id>4</id><title type="html">std::vector&lt;int&gt; escaped once</title></entry>
      <entry><id>5</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b>, <dfn>defined</dfn> &lt;move&gt;</div></title></entry>
    </feed>`);
    expect(titles).toEqual([
      'The <dialog> element',
      '<b> is not bold here',
      'Bold and <int>',
      'std::vector<int> escaped once',
      'A bold, defined <move>',
    ]);
  });

  it('gives the emoji through the feed parser and the HTML reading', () => {
    const feed = parseFeed(
      new TextEncoder().encode(
        '<rss version="2.0"><channel><title>c</title><item><title>Smile &#55357;&#56832;</title>' +
          '<description>A &amp;#xD83D;&amp;#xDE00; b</description></item></channel></rss>',
      ),
      null,
    );
    expect(titleText(feed.items[0]!.title)).toBe('Smile 😀');
    expect(plainText(feed.items[0]!.summaryHtml)).toBe('A 😀 b');
  });

  it('JSON Feed: a title is plain text by the spec', () => {
    const feed = parseFeed(
      utf8(
        JSON.stringify({
          version: 'https://jsonfeed.org/version/1.1',
          title: 'j',
          items: [{ id: '1', title: 'Promise<void> in TypeScript', content_text: 'x' }],
        }),
      ),
      null,
    );
    expect(feed.items.map((item) => titleText(item.title))).toEqual(['Promise<void> in TypeScript']);
  });
});
