import { describe, expect, it } from 'vitest';
import { articlePostings, articleKey, termHash } from '../search/article-terms.ts';
import { indexedTerms } from '../search/search-words.ts';
import { PostingRows, TermHashes, isAscii, postingColumns, words } from './posting-rows.ts';

const big = (h: { hi: number; lo: number }) => (BigInt(h.hi) << 32n) | BigInt(h.lo);

/** The rows of a RowBinary body of postingColumns. */
function decode(body: Buffer) {
  const rows = [];
  for (let o = 0; o < body.length; o += 32)
    rows.push({
      term: body.readBigUInt64LE(o),
      published_at: body.readUInt32LE(o + 8),
      article: body.readBigUInt64LE(o + 12),
      title_tf: body.readUInt16LE(o + 20),
      summary_tf: body.readUInt16LE(o + 22),
      version: body.readBigUInt64LE(o + 24),
    });
  return rows;
}

const articles = [
  { id: 'b', at: 200, title: 'Rates rise again', summary: 'Rates rose for a second month.', version: 5 },
  { id: 'a', at: 200, title: 'Über rates', summary: '', version: 2 ** 40 + 3 },
  { id: 'c', at: 100, title: 'Markets fall', summary: 'Markets fell as rates rose.', version: 1 },
];

describe('posting rows', () => {
  const rows = new PostingRows(new TermHashes());
  for (const a of articles) rows.add(a.at, a.id, a.version, articlePostings(a));
  const decoded = decode(rows.encode());

  it('are one row per distinct word of each article, keyed by the hashes of the word and of the id', () => {
    const expected = articles.flatMap((a) => {
      const p = articlePostings(a);
      return p.terms.map((word, i) => ({
        term: big(termHash(word)),
        published_at: a.at,
        article: big(articleKey(a.id)),
        title_tf: p.title_tfs[i],
        summary_tf: p.summary_tfs[i],
        version: BigInt(a.version),
      }));
    });
    expect(rows.rows).toBe(expected.length);
    const key = (r: (typeof expected)[number]) => `${r.term}/${r.article}`;
    expect([...decoded].sort((x, y) => (key(x) < key(y) ? -1 : 1))).toEqual(
      [...expected].sort((x, y) => (key(x) < key(y) ? -1 : 1)),
    );
  });

  it("come in the table's key order: term, published_at, article", () => {
    const sorted = [...decoded].sort(
      (x, y) =>
        Number(x.term > y.term) - Number(x.term < y.term) ||
        x.published_at - y.published_at ||
        Number(x.article > y.article) - Number(x.article < y.article),
    );
    expect(decoded).toEqual(sorted);
  });

  it('are 32 bytes a row in the columns postingColumns names', () => {
    expect(postingColumns.map((c) => c.name)).toEqual([
      'term',
      'published_at',
      'article',
      'title_tf',
      'summary_tf',
      'version',
    ]);
    expect(rows.encode().length).toBe(32 * rows.rows);
  });

  it('hash each word once, until the cache holds its capacity and starts again', () => {
    const terms = new TermHashes(3);
    expect([terms.id('a'), terms.id('b'), terms.id('a'), terms.id('c')]).toEqual([0, 1, 0, 2]);
    terms.trim();
    expect(terms.size).toBe(0);
    expect(terms.id('d')).toBe(0);
    expect(big({ hi: terms.hi[0]!, lo: terms.lo[0]! })).toBe(big(termHash('d')));
  });

  it('from a title and summary are the rows of articlePostings, in the same bytes', () => {
    const texts = [
      ...articles,
      {
        id: 'd',
        at: 150,
        title: 'ISTANBUL İstanbul ΣΟΦΟΣ straße STRASSE x'.repeat(2),
        summary: `rates ${'z'.repeat(64)} ${'y'.repeat(65)} RATES rates, 3.5% C3PO`,
        version: 9,
      },
      { id: 'e', at: 150, title: '', summary: 'go '.repeat(70_000), version: 10 },
    ];
    const fromPostings = new PostingRows(new TermHashes());
    const fromText = new PostingRows(new TermHashes());
    for (const a of texts) {
      const p = articlePostings(a);
      fromPostings.add(a.at, a.id, a.version, p);
      expect(fromText.addText(a.at, a.id, a.version, a.title, a.summary)).toEqual({
        title_length: p.title_length,
        summary_length: p.summary_length,
      });
    }
    expect(fromText.rows).toBe(fromPostings.rows);
    expect(fromText.encode().toString('hex')).toBe(fromPostings.encode().toString('hex'));
  });

  it('take the terms of a text as indexedTerms does', () => {
    for (const text of [
      "Rates RISE again: 3.5% in Q3, said O'Neil_Smith (BBC-News)",
      'Zürich İstanbul ΣΟΦΟΣ straße ǅemal ﬁne Ⅻ ½ ٣',
      'G7サミット、日本の首相が辞任 हिन्दी समाचार',
      '',
      '  ,,  ',
    ])
      expect(words(text)).toEqual(indexedTerms(text));
  });

  it('from the bytes of ASCII text are the rows of articlePostings, in the same bytes', () => {
    const texts = [
      ...articles.filter((a) => isAscii(Buffer.from(a.title + a.summary))),
      {
        id: 'd',
        at: 150,
        title: "RATES rates Rates, 3.5% C3PO x_y O'Neil",
        summary: `${'z'.repeat(64)} ${'y'.repeat(65)} ${'Z'.repeat(64)}!`,
        version: 9,
      },
      { id: 'e', at: 150, title: '', summary: 'go '.repeat(70_000), version: 10 },
      // Headlines and leads as news has them: capitals, figures, punctuation, hyphens, repeats.
      ...[
        [
          'Ad sales boost Time Warner profit',
          'Quarterly profits at US media giant TimeWarner jumped 76% to $1.13bn (600m) for the three months to December, from $639m year-earlier.',
        ],
        [
          'Dollar gains on Greenspan speech',
          'The dollar has hit its highest level against the euro in almost three months after the Federal Reserve head said the US trade deficit is set to stabilise.',
        ],
        [
          'Yukos unit buyer faces loan claim',
          'The owners of embattled Russian oil giant Yukos are to ask the buyer of its former production unit to pay back a $900m (479m) loan.',
        ],
        [
          "High fuel prices hit BA's profits",
          'British Airways has blamed high fuel prices for a 40% drop in profits. Reporting its results for the three months to 31 December 2004, the airline made a pre-tax profit of 75m ($141m).',
        ],
        [
          'Pernod takeover talk lifts Domecq',
          "Shares in UK drinks and food firm Allied Domecq have risen on speculation that it could be the target of a takeover by France's Pernod Ricard.",
        ],
        [
          'Japan narrowly escapes recession',
          "Japan's economy teetered on the brink of a technical recession in the three months to September, figures show. Revised figures indicated growth of just 0.1% - and a similar-sized contraction in the previous quarter.",
        ],
      ].map(([title, summary], i) => ({
        id: `n${i}`,
        at: 300 + i,
        title: title!,
        summary: summary!,
        version: 20 + i,
      })),
    ];
    // One cache for both ways in, as the projector has: a word met as a string first is found by its bytes.
    const terms = new TermHashes(1 << 20);
    terms.id('rates');
    const fromPostings = new PostingRows(new TermHashes());
    const fromBytes = new PostingRows(terms);
    for (const a of texts) {
      const p = articlePostings(a);
      fromPostings.add(a.at, a.id, a.version, p);
      expect(fromBytes.addAscii(a.at, a.id, a.version, Buffer.from(a.title), Buffer.from(a.summary))).toEqual(
        {
          title_length: p.title_length,
          summary_length: p.summary_length,
        },
      );
    }
    expect(texts.length).toBeGreaterThan(8);
    expect(fromBytes.rows).toBe(fromPostings.rows);
    expect(fromBytes.encode().toString('hex')).toBe(fromPostings.encode().toString('hex'));
  });

  it('find a word by its bytes after the table has grown and after the cache started again', () => {
    const terms = new TermHashes(5000);
    const rows = new PostingRows(terms);
    const many = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    rows.addAscii(1, 'a', 1, Buffer.from(many), Buffer.from(''));
    rows.addAscii(1, 'b', 1, Buffer.from(many.toUpperCase()), Buffer.from(''));
    expect(terms.size).toBe(3000);
    expect(rows.rows).toBe(6000);
    const more = Array.from({ length: 3000 }, (_, i) => `v${i}`).join(' ');
    new PostingRows(terms).addAscii(1, 'c', 1, Buffer.from(more), Buffer.from(''));
    expect(terms.size).toBe(6000);
    const again = new PostingRows(terms); // trims: the cache held its capacity
    expect(terms.size).toBe(0);
    again.addAscii(1, 'd', 1, Buffer.from('w1 v2 w1'), Buffer.from(''));
    expect(terms.size).toBe(2);
    expect(again.rows).toBe(2);
    const reference = new PostingRows(new TermHashes());
    reference.add(1, 'd', 1, articlePostings({ title: 'w1 v2 w1', summary: '' }));
    expect(again.encode().toString('hex')).toBe(reference.encode().toString('hex'));
  });

  it('count every word of an article in the middle of which the cache grows', () => {
    // 3,000 distinct words, each twice: the cache's arrays grow (at 1,024 and 2,048 ids) between a word's
    // first and second occurrence.
    const distinct = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const text = `${distinct} ${distinct}`;
    const p = articlePostings({ title: text, summary: 'w1 w2999' });
    const reference = new PostingRows(new TermHashes());
    reference.add(1, 'a', 1, p);
    for (const [label, add] of [
      ['text', (rows: PostingRows) => rows.addText(1, 'a', 1, text, 'w1 w2999')],
      ['bytes', (rows: PostingRows) => rows.addAscii(1, 'a', 1, Buffer.from(text), Buffer.from('w1 w2999'))],
    ] as const) {
      const rows = new PostingRows(new TermHashes());
      add(rows);
      expect(rows.encode().toString('hex'), label).toBe(reference.encode().toString('hex'));
    }
    expect(p.title_tfs.every((tf) => tf === 2)).toBe(true);
  });
});
