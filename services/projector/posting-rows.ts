// The search postings of a batch of article events as rows of `article_postings`
// (projections/migrations/0014_article_postings.sql), encoded as RowBinary in the table's key order
// (term, published_at, article). ClickHouse 18.16 sorts every inserted block by the key before writing
// it, and sorting ~25 postings an article by their key cost it 1 µs a row, more than everything else
// about them; a block that arrives in order it writes as it is (0.9 s of ClickHouse CPU for 2.3 million
// postings, against 2.1 s unsorted, measured with clickhouse-client). The order is only that: should it
// ever be wrong, ClickHouse sorts the block and the rows are the same.
//
// Built from numbers alone, without an object per posting: a batch of 5,000 articles has 120,000
// postings, and a row object each was what bound the projector before (see docs/benchmarks.md).
import type { Column } from '../runtime/clickhouse/row-binary.ts';
import { cityHash64Into, type Hash64 } from '../search/city-hash.ts';
import type { Postings } from '../search/article-terms.ts';

export const postingsTable = 'article_postings';

/** The columns, in the order rows are encoded. */
export const postingColumns: readonly Column[] = [
  { name: 'term', type: { kind: 'UInt64' } },
  { name: 'published_at', type: { kind: 'DateTime' } },
  { name: 'article', type: { kind: 'UInt64' } },
  { name: 'title_tf', type: { kind: 'UInt16' } },
  { name: 'summary_tf', type: { kind: 'UInt16' } },
  { name: 'version', type: { kind: 'UInt64' } },
];
const rowBytes = 8 + 4 + 8 + 2 + 2 + 8;

/**
 * The hash of each word seen (termHash: cityHash64 of its UTF-8 bytes), by a small id: most words of a
 * batch were in the batches before it. Forgets everything once it holds `capacity` words.
 */
export class TermHashes {
  private readonly ids = new Map<string, number>();
  hi = new Uint32Array(1024);
  lo = new Uint32Array(1024);
  private readonly bytes = new Uint8Array(4 * 64 + 8);
  private readonly hash: Hash64 = { hi: 0, lo: 0 };

  constructor(private readonly capacity = 1 << 20) {}

  get size(): number {
    return this.ids.size;
  }

  /** Call between batches only: the ids a batch holds stay valid until the next call. */
  trim(): void {
    if (this.ids.size >= this.capacity) this.ids.clear();
  }

  id(word: string): number {
    let id = this.ids.get(word);
    if (id !== undefined) return id;
    id = this.ids.size;
    if (id === this.hi.length) {
      this.hi = grow(this.hi);
      this.lo = grow(this.lo);
    }
    // Indexed words are at most 64 UTF-16 units (search-words.ts), so at most 192 bytes of UTF-8.
    const { written } = encoder.encodeInto(word, this.bytes);
    cityHash64Into(this.bytes, 0, written, this.hash);
    this.hi[id] = this.hash.hi;
    this.lo[id] = this.hash.lo;
    this.ids.set(word, id);
    return id;
  }
}

const encoder = new TextEncoder();
const grow = (a: Uint32Array) => {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
};

/** The words every projector's batch has hashed so far. */
export const sharedTermHashes = new TermHashes();

/** The postings of one batch of article events, added one article at a time. */
export class PostingRows {
  private articles = 0;
  private publishedAt: number[] = [];
  private keyHi: number[] = [];
  private keyLo: number[] = [];
  private version: number[] = [];
  /** Each article's postings are [first[i], first[i + 1]) of the three below. */
  private first: number[] = [0];
  private term: number[] = [];
  private titleTf: number[] = [];
  private summaryTf: number[] = [];
  private readonly key: Hash64 = { hi: 0, lo: 0 };
  private readonly idBytes = new Uint8Array(1024);

  constructor(private readonly terms: TermHashes = sharedTermHashes) {
    terms.trim();
  }

  get rows(): number {
    return this.term.length;
  }

  /** One revision of an article: its key in `articles` (published_at, article_id), version and postings. */
  add(publishedAt: number, articleId: string, version: number, postings: Postings): void {
    const { written, read } = encoder.encodeInto(articleId, this.idBytes);
    const key =
      read === articleId.length
        ? cityHash64Into(this.idBytes, 0, written, this.key)
        : cityHash64Into(encoder.encode(articleId), 0, Buffer.byteLength(articleId), this.key);
    // DateTime is UInt32 seconds: what it cannot hold becomes its nearest bound, as row-binary.ts writes it.
    this.publishedAt.push(Math.min(0xffffffff, Math.max(0, publishedAt)));
    this.keyHi.push(key.hi);
    this.keyLo.push(key.lo);
    this.version.push(version);
    for (let i = 0; i < postings.terms.length; i++) {
      this.term.push(this.terms.id(postings.terms[i]!));
      this.titleTf.push(postings.title_tfs[i]!);
      this.summaryTf.push(postings.summary_tfs[i]!);
    }
    this.articles++;
    this.first.push(this.term.length);
  }

  /** The rows as RowBinary of postingColumns, in key order. */
  encode(): Buffer {
    const { publishedAt, keyHi, keyLo, version, first, term, titleTf, summaryTf } = this;
    const hi = this.terms.hi;
    const lo = this.terms.lo;
    // The articles in (published_at, article) order: within one term, its postings follow it.
    const byKey = Array.from({ length: this.articles }, (_, i) => i).sort(
      (a, b) => publishedAt[a]! - publishedAt[b]! || keyHi[a]! - keyHi[b]! || keyLo[a]! - keyLo[b]!,
    );
    // The batch's distinct terms in hash order; each posting goes to its term's place, articles in order
    // (a counting sort: one pass, where comparing 120,000 rows would cost more than the encoding).
    const rank = new Map<number, number>();
    for (const t of term) if (!rank.has(t)) rank.set(t, 0);
    const distinct = [...rank.keys()].sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]!);
    const start = new Int32Array(distinct.length + 1);
    distinct.forEach((t, r) => rank.set(t, r));
    const termRank = Int32Array.from(term, (t) => rank.get(t)!);
    for (const r of termRank) start[r + 1]!++;
    for (let r = 0; r < distinct.length; r++) start[r + 1]! += start[r]!;
    const order = new Int32Array(term.length);
    const article = new Int32Array(term.length);
    for (const a of byKey) {
      for (let p = first[a]!; p < first[a + 1]!; p++) {
        const at = start[termRank[p]!]!++;
        order[at] = p;
        article[at] = a;
      }
    }
    const body = Buffer.allocUnsafe(term.length * rowBytes);
    const view = new DataView(body.buffer, body.byteOffset, body.length);
    let o = 0;
    for (let i = 0; i < order.length; i++) {
      const p = order[i]!;
      const a = article[i]!;
      const t = term[p]!;
      const v = version[a]!;
      view.setUint32(o, lo[t]!, true);
      view.setUint32(o + 4, hi[t]!, true);
      view.setUint32(o + 8, publishedAt[a]!, true);
      view.setUint32(o + 12, keyLo[a]!, true);
      view.setUint32(o + 16, keyHi[a]!, true);
      view.setUint16(o + 20, titleTf[p]!, true);
      view.setUint16(o + 22, summaryTf[p]!, true);
      view.setUint32(o + 24, v % 0x1_0000_0000, true);
      view.setUint32(o + 28, Math.floor(v / 0x1_0000_0000), true);
      o += rowBytes;
    }
    return body;
  }
}
