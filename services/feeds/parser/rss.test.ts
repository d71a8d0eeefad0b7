import { describe, expect, it } from 'vitest';
import { parseFeed } from './parse-feed.ts';
import { readRealFeed, utf8 } from './testdata/read.ts';

const rssType = 'application/rss+xml';

describe('RSS 2.0 / 0.9x real feeds', () => {
  it('content-encoded.rss: content:encoded, dc:creator, categories', () => {
    const feed = parseFeed(readRealFeed('content-encoded.rss'), rssType);
    expect(feed.format).toBe('rss');
    expect(feed.title).toBe('Food in Invironment on Medium');
    expect(feed.siteUrl).toBe('https://medium.com/invironment/tagged/food?source=rss----d12c403d4976--food');
    expect(feed.items).toHaveLength(7);
    const first = feed.items[0];
    expect(first?.title).toBe('THE CREATIVE FORAGER');
    expect(first?.url).toBe(
      'https://medium.com/invironment/the-creative-forager-125af37d838f?source=rss----d12c403d4976--food',
    );
    expect(first?.guid).toBe('https://medium.com/p/125af37d838f');
    expect(first?.published?.toISOString()).toBe('2018-04-09T18:55:38.000Z');
    expect(first?.author).toBe('Jeremy Puma');
    expect(first?.categories).toEqual(['plants', 'environment', 'nature', 'foraging', 'food']);
    expect(first?.summaryHtml).toBeNull();
    expect(
      first?.contentHtml?.startsWith(
        '<h4>Using Wild Ingredients in the\u00a0Kitchen</h4><figure><img alt=""',
      ),
    ).toBe(true);
    expect(feed.items[2]?.author).toBe('Thuận Sarzynski');
  });

  it('encoding.rss: ISO-8859-1 declared in the prolog decodes Portuguese text', () => {
    const feed = parseFeed(readRealFeed('encoding.rss'), 'text/xml');
    expect(feed.title).toBe('Jornal de Notícias - Últimas Notícias');
    expect(feed.language).toBe('pt-pt');
    expect(feed.items).toHaveLength(40);
    const first = feed.items[0];
    expect(first?.title).toBe('Mãe de utente é a nova presidente da Raríssimas');
    // feedburner:origLink, not FeedBurner's click-tracking <link>.
    expect(first?.url).toBe(
      'https://www.jn.pt/nacional/interior/sonia-laig-e-a-nova-presidente-da-rarissimas-9021600.html',
    );
    // The raw date keeps its text but not the newline and indentation after it.
    expect(first?.publishedRaw).toBe('Wed, 03 Jan 2018 13:47:00 GMT');
    expect(first?.published?.toISOString()).toBe('2018-01-03T13:47:00.000Z');
    expect(first?.author).toBeNull();
    expect(first?.summaryHtml).toBe(
      'Sónia Laygue, profissional na área da Recursos Humanos e mãe de uma criança de três anos, utente na Casa ' +
        'dos Marcos, é a nova presidente da direção da Raríssimas.' +
        '<img src="http://feeds.feedburner.com/~r/JN-ULTIMAS/~4/UBnb8Ra3Q1U" height="1" width="1" alt=""/>',
    );
    expect(feed.items[2]?.title).toBe('Tempestade Eleanor atinge França, Alemanha, Suíça e Reino Unido');
  });

  it('giantbomb-podcast.rss (1.6 MB): every episode has its mp3 enclosure', () => {
    const feed = parseFeed(readRealFeed('giantbomb-podcast.rss'), rssType);
    expect(feed.title).toBe('Giant Bombcast');
    expect(feed.language).toBe('en-us');
    expect(feed.items).toHaveLength(730);
    const first = feed.items[0];
    expect(first?.title).toBe('Giant Bombcast 603: Call of Tuesday');
    expect(first?.url).toBe('https://www.giantbomb.com/shows/603-call-of-tuesday/2970-19653/free-podcast');
    expect(first?.guid).toBe('1600-2823');
    expect(first?.publishedRaw).toBe('Tue, 01 Oct 2019 14:30:00 PST');
    expect(first?.published?.toISOString()).toBe('2019-10-01T22:30:00.000Z');
    expect(first?.author).toBe('Giant Bomb');
    expect(first?.enclosureUrl).toBe(
      'https://dts.podtrac.com/redirect.mp3/www.giantbomb.com/podcasts/download/2823/603__Call_of_Tuesday-10-01-2019-6277737276.mp3',
    );
    expect(first?.imageUrl).toBe(
      'https://giantbomb1.cbsistatic.com/uploads/original/0/30/3132120-mspac-marquee-full.jpg?20191008',
    );
    expect(feed.items.at(-1)?.enclosureUrl).toBe(
      'https://dts.podtrac.com/redirect.mp3/www.giantbomb.com/podcasts/download/20/arrowpointingdownpodcast-021808.mp3',
    );
    expect(feed.items.filter((item) => item.enclosureUrl?.endsWith('.mp3'))).toHaveLength(730);
    expect(feed.items.filter((item) => item.published !== null)).toHaveLength(730);
  }, 20_000);

  it('guardian.rss: media:content without a type is an image; the widest one wins', () => {
    const feed = parseFeed(readRealFeed('guardian.rss'), rssType);
    expect(feed.title).toBe('The Guardian');
    expect(feed.siteUrl).toBe('https://www.theguardian.com/us');
    expect(feed.language).toBe('en-gb');
    expect(feed.items).toHaveLength(55);
    const first = feed.items[0];
    expect(first?.title).toBe('Trump State of the Union address promised unity but emphasized discord');
    expect(first?.url).toBe(
      'https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord',
    );
    expect(first?.published?.toISOString()).toBe('2018-01-31T07:26:05.000Z');
    expect(first?.author).toBe('David Smith in Washington');
    expect(first?.categories).toEqual([
      'Donald Trump',
      'State of the Union address',
      'US news',
      'US politics',
      'Democrats',
      'Republicans',
      'US Congress',
    ]);
    expect(first?.imageUrl).toBe(
      'https://i.guim.co.uk/img/media/b73c8752cd4667c923dff7f1542f1fb20089e421/0_108_3000_1799/master/3000.jpg' +
        '?w=460&q=55&auto=format&usm=12&fit=max&s=a606a273a90104e57b1e09bc4c0a1e11',
    );
    expect(first?.summaryHtml?.startsWith('<p>The president’s ‘new American moment’ speech stirred')).toBe(
      true,
    );
  });

  it('heraldsun.rss: RSS 0.92 with audio enclosures and domain-qualified categories', () => {
    const feed = parseFeed(readRealFeed('heraldsun.rss'), rssType);
    expect(feed.title).toBe('RSS0.92 Example');
    expect(feed.siteUrl).toBe('http://www.oreilly.com/example/index.html');
    expect(feed.items).toHaveLength(2);
    expect(feed.items[0]).toEqual({
      guid: null,
      url: 'http://www.oreilly.com/example/001.html',
      title: 'The First Item',
      summaryHtml: 'This is the first item.',
      contentHtml: null,
      author: null,
      publishedRaw: null,
      published: null,
      categories: ['Business/Industries/Publishing/Publishers/Nonfiction/'],
      language: null,
      imageUrl: null,
      enclosureUrl: 'http://www.oreilly.com/001.mp3',
      publisher: { name: 'Another Site', url: 'http://www.anothersite.com/index.xml' },
    });
  });

  it('instant-article.rss: description and content:encoded kept apart', () => {
    const feed = parseFeed(readRealFeed('instant-article.rss'), rssType);
    expect(feed.title).toBe('Instant Article Test');
    expect(feed.language).toBe('en');
    expect(feed.items).toHaveLength(1);
    const item = feed.items[0];
    expect(item?.title).toBe('My first Instant Article');
    expect(item?.url).toBe('https://localhost:8000');
    expect(item?.summaryHtml).toBe('Lorem ipsum');
    expect(item?.contentHtml).toBe('<b>Lorem</b> ipsum');
    expect(item?.author).toBe('tobi');
    expect(item?.published?.toISOString()).toBe('2016-05-04T06:53:45.000Z');
  });

  it('narro.rss: podcast item with itunes:image, audio enclosure and a UTC date', () => {
    const feed = parseFeed(readRealFeed('narro.rss'), rssType);
    expect(feed.title).toBe('foobar on Narro');
    expect(feed.items).toHaveLength(1);
    const item = feed.items[0];
    expect(item?.title).toBe('FAQ for Narro');
    expect(item?.url).toBe('https://www.narro.co/article/54e703933058540300000069');
    expect(item?.published?.toISOString()).toBe('2015-02-20T09:51:15.000Z');
    expect(item?.author).toBe('foobar@gmail.com');
    expect(item?.imageUrl).toBe('http://example.com/someImage.jpg');
    expect(item?.enclosureUrl).toBe(
      'https://s3.amazonaws.com/nareta-articles/audio/54d046c293f79c0300000003/7e2d2b00-a945-441a-f49b-063786a319a4.mp3',
    );
    expect(item?.summaryHtml).toBe(
      'Listen to your reading list anywhere. Narro will take your bookmarked articles and read them back to you ' +
        'as a podcast.<br/> http://www.narro.co/faq<br/> <ul class="linkList"></ul>',
    );
  });

  it('reddit-atom.rss: unescaped HTML inside <description> keeps its order', () => {
    const feed = parseFeed(readRealFeed('reddit-atom.rss'), rssType);
    expect(feed.title).toBe('reddit: the front page of the internet');
    expect(feed.items).toHaveLength(24);
    const first = feed.items[0];
    expect(first?.title).toBe('The Difficulties in Space');
    expect(first?.url).toBe('https://www.reddit.com/r/space/comments/42babr/the_difficulties_in_space/');
    expect(first?.published?.toISOString()).toBe('2016-01-23T15:40:37.000Z');
    expect(first?.categories).toEqual(['space']);
    expect(first?.summaryHtml).toContain(
      '<td>submitted by<a href="https://www.reddit.com/user/benjaab123">benjaab123</a>to' +
        '<a href="https://www.reddit.com/r/space/">space</a><br />',
    );
    expect(first?.imageUrl).toBe(
      'https://b.thumbs.redditmedia.com/l50PUpLyyNMLwFrYMuCb3kwlDaq3k1Pwo5YhsdAz2jU.jpg',
    );
  });

  it('reddit.rss: escaped HTML description, media:thumbnail image', () => {
    const feed = parseFeed(readRealFeed('reddit.rss'), rssType);
    expect(feed.siteUrl).toBe('https://www.reddit.com/');
    expect(feed.items).toHaveLength(24);
    const first = feed.items[0];
    expect(first?.title).toBe('The water is too deep, so he improvises');
    expect(first?.url).toBe(
      'https://www.reddit.com/r/funny/comments/3skxqc/the_water_is_too_deep_so_he_improvises/',
    );
    expect(first?.published?.toISOString()).toBe('2015-11-12T21:16:39.000Z');
    expect(first?.author).toBeNull();
    expect(first?.summaryHtml?.startsWith('<table> <tr><td> <a href="https://www.reddit.com/r/funny/')).toBe(
      true,
    );
    expect(first?.imageUrl).toBe(
      'https://b.thumbs.redditmedia.com/z4zzFBqZ54WT-rFfKXVor4EraZtJVw7AodDvOZ7kitQ.jpg',
    );
  });

  it('uolNoticias.rss: no prolog, no charset, Latin-1 bytes and Portuguese dates', () => {
    const feed = parseFeed(readRealFeed('uolNoticias.rss'), null);
    expect(feed.title).toBe('UOL Noticias');
    expect(feed.language).toBeNull(); // <language></language>
    expect(feed.items).toHaveLength(15);
    const first = feed.items[0];
    expect(first?.title).toBe('Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno');
    expect(first?.url).toBe(
      'https://noticias.uol.com.br/politica/eleicoes/2018/noticias/2018/09/24/ibope-bolsonaro-perde-de-haddad-ciro-e-alckmin-em-simulacoes-de-2-turno.htm',
    );
    expect(first?.publishedRaw).toBe('Seg, 24 Set 2018 19:42:40 -0300');
    expect(first?.published?.toISOString()).toBe('2018-09-24T22:42:40.000Z');
    expect(first?.summaryHtml).toContain('Líder na pesquisa Ibope de intenção de voto');
    expect(feed.items[1]?.title).toBe(
      'Promotoria abre inquérito para apurar suspeita de improbidade de Skaf no Sebrae-SP',
    );
    expect(feed.items[1]?.summaryHtml).toBeNull(); // <description></description>
  });
});

describe('RSS details', () => {
  const rss = (channel: string, attributes = '') =>
    parseFeed(
      utf8(`<?xml version="1.0"?><rss version="2.0"${attributes}><channel>${channel}</channel></rss>`),
      null,
    );

  it('resolves relative item links against xml:base, then against the channel link', () => {
    const feed = rss(
      `<link>https://example.org/blog/</link>
       <item><link>posts/1</link></item>
       <item xml:base="https://cdn.example.net/a/"><link>b/c</link></item>
       <item><link>https://other.example/absolute?x=1&amp;y=2</link></item>`,
    );
    expect(feed.items.map((item) => item.url)).toEqual([
      'https://example.org/blog/posts/1',
      'https://cdn.example.net/a/b/c',
      'https://other.example/absolute?x=1&y=2',
    ]);
  });

  it('takes a permalink guid as the url when there is no link, but not an isPermaLink="false" one', () => {
    const feed = rss(
      `<item><guid>https://example.org/p/1</guid></item>
       <item><guid isPermaLink="false">https://example.org/p/2</guid></item>`,
    );
    expect(feed.items.map((item) => [item.guid, item.url])).toEqual([
      ['https://example.org/p/1', 'https://example.org/p/1'],
      ['https://example.org/p/2', null],
    ]);
  });

  it('resolves a root-relative permalink guid, the attribute said or left to its default, never a plain id', () => {
    const feed = rss(
      `<link>https://site.example/news/</link>
       <item><guid isPermaLink="true">/p/3</guid></item>
       <item><guid>/p/4</guid></item>
       <item><guid isPermaLink="false">/p/5</guid></item>
       <item><guid isPermaLink="true">12345</guid></item>
       <item><guid>12345</guid></item>`,
    );
    expect(feed.items.map((item) => [item.guid, item.url])).toEqual([
      ['/p/3', 'https://site.example/p/3'],
      ['/p/4', 'https://site.example/p/4'],
      ['/p/5', null],
      ['12345', null],
      ['12345', null],
    ]);
  });

  it('resolves a relative permalink guid against the base its link would have: xml:base, then the fetch URL', () => {
    const body = utf8(`<?xml version="1.0"?><rss version="2.0"><channel><title>No link</title>
      <item><title>a</title><guid>/news/2026/12/06/story</guid></item>
      <item xml:base="https://cdn.example/en/"><title>b</title><guid>/news/2026/12/06/other</guid></item>
      <item><title>c</title><guid isPermaLink="false">/news/2026/12/06/hidden</guid></item>
      <item><title>d</title><guid></guid><guid isPermaLink="false">/news/2026/12/06/blank-first</guid></item>
    </channel></rss>`);
    const feed = parseFeed(body, null, { baseUrl: 'https://feeds.example/rss/all.xml' });
    expect(feed.items.map((item) => [item.title, item.url])).toEqual([
      ['a', 'https://feeds.example/news/2026/12/06/story'],
      ['b', 'https://cdn.example/news/2026/12/06/other'],
      ['c', null],
      ['d', null],
    ]);
  });

  it('decodes undeclared HTML entities instead of rejecting the feed', () => {
    const feed = rss(`<title>Caf&eacute;&nbsp;Society &amp;amp; more &unknown;</title>
      <item><title>Q&A: R&D at AT&T</title><description>5 &lt; 6 &#8211; &#x2014;</description></item>`);
    // "&amp;amp;" is a generator escaping twice: the channel title (plain text) is unescaped once more.
    expect(feed.title).toBe('Café\u00a0Society & more &unknown;');
    expect(feed.items[0]?.title).toBe('Q&A: R&D at AT&T');
    expect(feed.items[0]?.summaryHtml).toBe('5 < 6 – —');
  });

  it('reads modules by namespace, whatever the prefix', () => {
    const feed = rss(
      `<item><title>t</title><d:creator>Ann</d:creator><d:creator>Bob</d:creator><d:date>2020-05-06T07:08Z</d:date>
         <c:encoded><![CDATA[<p>full &amp; text</p>]]></c:encoded><d:language>fr</d:language>
         <d:subject>politics</d:subject><category>politics</category><category>world</category></item>`,
      ' xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:c="http://purl.org/rss/1.0/modules/content/"',
    );
    const item = feed.items[0];
    expect(item?.author).toBe('Ann, Bob');
    expect(item?.publishedRaw).toBe('2020-05-06T07:08Z');
    expect(item?.published?.toISOString()).toBe('2020-05-06T07:08:00.000Z');
    expect(item?.contentHtml).toBe('<p>full &amp; text</p>');
    expect(item?.language).toBe('fr');
    expect(item?.categories).toEqual(['politics', 'world']);
  });

  it('takes the name out of an RSS "email (Name)" author', () => {
    const feed = rss('<item><author>jane@example.org (Jane Doe)</author></item>');
    expect(feed.items[0]?.author).toBe('Jane Doe');
  });

  it.each([
    // Found by feedparser's corpus (tests/wellformed/rss/item_*_map_author_detail_name.xml): the
    // address stayed in the byline.
    ['<author>Example editor (me@example.com)</author>', 'Example editor'],
    ['<dc:creator>Example editor (me@example.com)</dc:creator>', 'Example editor'],
    ['<dc:creator>Jane Doe &lt;jane@example.org&gt;</dc:creator>', 'Jane Doe'],
    ['<itunes:author>Jane Doe [mailto:jane@example.org]</itunes:author>', 'Jane Doe'],
    ['<author>jane@example.org(Jane Doe)</author>', 'Jane Doe'],
    [
      '<dc:creator>Ann (ann@example.org)</dc:creator><dc:creator>Bob &lt;bob@example.org&gt;</dc:creator><dc:creator>Ann</dc:creator>',
      'Ann, Bob',
    ],
    // Not an address in the brackets, or an address alone: kept as written.
    ['<dc:creator>Jane Doe (Reuters)</dc:creator>', 'Jane Doe (Reuters)'],
    ['<author>Jane Doe (@janedoe)</author>', 'Jane Doe (@janedoe)'],
    ['<author>jane@example.org</author>', 'jane@example.org'],
    // dc:author, which Dublin Core does not define and feeds write all the same
    ['<dc:author>Example editor (me@example.com)</dc:author>', 'Example editor'],
  ])('takes the address out of the author %s', (element, author) => {
    const feed = rss(
      `<item>${element}</item>`,
      ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"',
    );
    expect(feed.items[0]?.author).toBe(author);
  });

  it('names the outlet an aggregator item came from (<source>, as Google News writes it)', () => {
    const feed = rss(`<link>https://news.google.com/</link>
      <item><title>Rates held - Reuters</title><link>https://news.google.com/rss/articles/CBMi1</link>
        <source url="https://www.reuters.com">Reuters</source></item>
      <item><title>Only the name</title><link>https://news.google.com/2</link><source> Le Monde </source></item>
      <item><title>Relative url</title><link>https://news.google.com/3</link><source url="/wire.xml"></source></item>
      <item><title>Empty</title><link>https://news.google.com/4</link><source url=" "> </source></item>
      <item><title>None</title><link>https://news.google.com/5</link></item>`);
    expect(feed.items.map((item) => item.publisher)).toEqual([
      { name: 'Reuters', url: 'https://www.reuters.com' },
      { name: 'Le Monde', url: null },
      { name: null, url: 'https://news.google.com/wire.xml' },
      null,
      null,
    ]);
  });

  it('separates image enclosures from audio ones', () => {
    const feed = rss(`<item>
      <enclosure url="https://example.org/cover.jpg" type="image/jpeg" length="1"/>
      <enclosure url="https://example.org/episode.m4a" type="audio/x-m4a" length="2"/>
    </item>`);
    expect(feed.items[0]?.imageUrl).toBe('https://example.org/cover.jpg');
    expect(feed.items[0]?.enclosureUrl).toBe('https://example.org/episode.m4a');
  });

  it("reads Atom's elements in an item where RSS's own are missing, and RSS's first where both are", () => {
    // Found by gofeed's corpus (testdata/translator/rss: an RSS item with atom:author, atom:published,
    // atom:updated, atom:content, atom:category), as generators write them: the byline and the date were lost.
    const ns = ' xmlns:atom="http://www.w3.org/2005/Atom"';
    const [atomOnly] = rss(
      `<item><link>https://example.org/a</link>
        <atom:title type="text">Rates &amp; &lt;markets&gt;</atom:title>
        <atom:summary type="text">5 &lt; 6</atom:summary>
        <atom:content type="html">&lt;p&gt;Body&lt;/p&gt;</atom:content>
        <atom:author><atom:name>Jane Smith</atom:name></atom:author><atom:author><atom:name>Bob</atom:name></atom:author>
        <atom:updated>2020-01-02T15:04:05Z</atom:updated><atom:published>2019-01-02T15:04:05Z</atom:published>
        <atom:category term="atomterm" label="Atom term"/>
      </item>`,
      ns,
    ).items;
    expect(atomOnly).toMatchObject({
      title: 'Rates &amp; &lt;markets&gt;',
      summaryHtml: '5 &lt; 6',
      summaryIsText: true,
      contentHtml: '<p>Body</p>',
      author: 'Jane Smith, Bob',
      publishedRaw: '2019-01-02T15:04:05Z',
      categories: ['atomterm'],
    });
    expect(atomOnly?.published?.toISOString()).toBe('2019-01-02T15:04:05.000Z');
    const [both] = rss(
      `<item><title>RSS title</title><description>RSS summary</description><author>Ann</author>
        <pubDate>Wed, 01 Jan 2020 10:00:00 GMT</pubDate><category>rss</category>
        <atom:title>Atom title</atom:title><atom:summary>Atom summary</atom:summary>
        <atom:author><atom:name>Jane</atom:name></atom:author><atom:updated>2021-01-01T00:00:00Z</atom:updated>
        <atom:category term="atom"/></item>`,
      ns,
    ).items;
    expect(both).toMatchObject({
      title: 'RSS title',
      summaryHtml: 'RSS summary',
      author: 'Ann',
      publishedRaw: 'Wed, 01 Jan 2020 10:00:00 GMT',
      categories: ['rss'],
    });
    expect(both).not.toHaveProperty('summaryIsText');
  });

  it('takes an itunes:image by its href, or by url as some podcast hosts write it', () => {
    const ns = ' xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"';
    const image = (attribute: string) =>
      rss(`<item><itunes:image ${attribute}="https://example.org/cover.jpg"/></item>`, ns).items[0]?.imageUrl;
    expect(image('href')).toBe('https://example.org/cover.jpg');
    expect(image('url')).toBe('https://example.org/cover.jpg');
  });

  it('accepts the Netscape RSS 0.91 DOCTYPE', () => {
    const body = utf8(`<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
  "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91"><channel><title>Old school</title><language>en-us</language>
<item><title>One</title><link>http://example.com/1</link></item></channel></rss>`);
    const feed = parseFeed(body, null);
    expect(feed.title).toBe('Old school');
    expect(feed.items.map((item) => item.url)).toEqual(['http://example.com/1']);
  });
});
