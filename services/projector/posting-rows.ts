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
import type { BufferPool, Column } from '../runtime/clickhouse/row-binary.ts';
import { cityHash64Into, type Hash64 } from '../search/city-hash.ts';
import type { Postings } from '../search/article-terms.ts';
import { indexedTerms, isIndexed, maxIndexedWordLength } from '../search/search-words.ts';

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

  /** Scratch space by id, for a batch's encoding: its place in the batch's term order. */
  rank = new Int32Array(1024);
  /** Scratch space by id, for an article's words: the place of its posting among the article's. */
  place = new Int32Array(1024);
  private seen = new Int32Array(1024);
  private batch = 0;

  /** A stamp for `seen`: ids stamped before it count as not seen. */
  stamp(): number {
    return ++this.batch;
  }

  /** Whether the id was seen since `stamp`, marking it seen. */
  saw(id: number, stamp: number): boolean {
    if (this.seen[id] === stamp) return true;
    this.seen[id] = stamp;
    return false;
  }

  /** The distinct ids among the first `count` of `ids`, in order of first appearance. */
  distinct(ids: ArrayLike<number>, count = ids.length): number[] {
    const stamp = ++this.batch;
    const seen = this.seen;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      if (seen[id] !== stamp) {
        seen[id] = stamp;
        out.push(id);
      }
    }
    return out;
  }

  /** Call between batches only: the ids a batch holds stay valid until the next call. */
  trim(): void {
    if (this.ids.size < this.capacity) return;
    this.ids.clear();
    this.slots.fill(0);
    this.slotsUsed = 0;
    this.keyLength.fill(0);
    this.arenaEnd = 0;
  }

  // The words of ASCII text by their bytes, lowercased (asciiId), with no string made for a word met
  // before: an open-addressing table of ids (plus one; 0 is an empty slot), each id's bytes in `arena`.
  private slots = new Int32Array(1 << 14);
  private slotsUsed = 0;
  private keyHash = new Int32Array(1024);
  private keyStart = new Int32Array(1024);
  /** 0: the id is not in the table. */
  private keyLength = new Int32Array(1024);
  private arena = Buffer.allocUnsafe(1 << 18);
  private arenaEnd = 0;
  /** Where a word of ASCII text is put, lowercased, for asciiId. */
  readonly word = Buffer.alloc(maxIndexedWordLength);

  /**
   * The id of the word in `word` (its first `length` bytes, lowercase ASCII letters and digits), whose
   * FNV-1a hash is `hash`: the id id() gives the same word as a string.
   */
  asciiId(length: number, hash: number): number {
    const { word, arena } = this;
    let slots = this.slots;
    let slot = hash & (slots.length - 1);
    for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
      const id = entry - 1;
      if (this.keyHash[id] === hash && this.keyLength[id] === length) {
        const start = this.keyStart[id]!;
        let i = 0;
        while (i < length && arena[start + i] === word[i]) i++;
        if (i === length) return id;
      }
      slot = (slot + 1) & (slots.length - 1);
    }
    const id = this.id(word.toString('latin1', 0, length));
    if (this.arenaEnd + length > this.arena.length) {
      const grown = Buffer.allocUnsafe(this.arena.length * 2);
      this.arena.copy(grown, 0, 0, this.arenaEnd);
      this.arena = grown;
    }
    word.copy(this.arena, this.arenaEnd, 0, length);
    this.keyHash[id] = hash;
    this.keyStart[id] = this.arenaEnd;
    this.keyLength[id] = length;
    this.arenaEnd += length;
    slots[slot] = id + 1;
    if (++this.slotsUsed * 2 > slots.length) {
      // Half full: twice the slots, every id in the table placed again.
      slots = this.slots = new Int32Array(slots.length * 2);
      const mask = slots.length - 1;
      for (let k = 0; k < this.ids.size; k++) {
        if (this.keyLength[k] === 0) continue;
        let at = this.keyHash[k]! & mask;
        while (slots[at] !== 0) at = (at + 1) & mask;
        slots[at] = k + 1;
      }
    }
    return id;
  }

  id(word: string): number {
    let id = this.ids.get(word);
    if (id !== undefined) return id;
    id = this.ids.size;
    if (id === this.hi.length) {
      this.hi = grow(this.hi);
      this.lo = grow(this.lo);
      const seen = new Int32Array(this.hi.length);
      seen.set(this.seen);
      this.seen = seen;
      this.rank = new Int32Array(this.hi.length);
      // Kept, not cleared: id() is called in the middle of an article, whose words' places it holds.
      this.place = growInt(this.place);
      this.keyHash = growInt(this.keyHash);
      this.keyStart = growInt(this.keyStart);
      this.keyLength = growInt(this.keyLength);
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
const growInt = (a: Int32Array) => {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
};
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
  private term = new IntColumn();
  private titleTf = new IntColumn();
  private summaryTf = new IntColumn();
  private readonly key: Hash64 = { hi: 0, lo: 0 };
  private readonly idBytes = new Uint8Array(1024);

  constructor(private readonly terms: TermHashes = sharedTermHashes) {
    terms.trim();
  }

  get rows(): number {
    return this.term.length;
  }

  /**
   * One revision of an article, from its title and summary: the postings articlePostings
   * (article-terms.ts) finds, made straight into the batch's rows, each word looked up once. Returns the
   * fields' lengths in words, as articlePostings gives them.
   */
  addText(
    publishedAt: number,
    articleId: string,
    version: number,
    title: string,
    summary: string,
  ): { title_length: number; summary_length: number } {
    this.addArticle(publishedAt, articleId, version);
    const stamp = this.terms.stamp();
    const first = this.term.length;
    const title_length = this.count(words(title), stamp, first, this.titleTf);
    const summary_length = this.count(words(summary), stamp, first, this.summaryTf);
    this.first.push(this.term.length);
    return { title_length, summary_length };
  }

  /**
   * As addText, from the UTF-8 of a title and summary that are ASCII alone (isAscii): the words are
   * read from the bytes (the runs of letters and digits, lowercased, as searchWords takes them from
   * ASCII text) and looked up by their bytes, with no string made for a word met before.
   */
  addAscii(
    publishedAt: number,
    articleId: string,
    version: number,
    title: Uint8Array | ByteRange,
    summary: Uint8Array | ByteRange,
  ): { title_length: number; summary_length: number } {
    this.addArticle(publishedAt, articleId, version);
    const stamp = this.terms.stamp();
    const first = this.term.length;
    const t = title instanceof Uint8Array ? whole(title) : title;
    const s = summary instanceof Uint8Array ? whole(summary) : summary;
    const title_length = this.countAscii(t.bytes, t.start, t.end, stamp, first, this.titleTf);
    const summary_length = this.countAscii(s.bytes, s.start, s.end, stamp, first, this.summaryTf);
    this.first.push(this.term.length);
    return { title_length, summary_length };
  }

  /**
   * Where the term `id` is among the article's postings (which begin at `first`): its place if the
   * article has had the word before (`stamp` marks this article's words), else a new posting for it.
   */
  private placeOf(id: number, stamp: number, first: number): number {
    const { terms, term } = this;
    if (terms.saw(id, stamp)) return first + terms.place[id]!;
    const p = term.length;
    terms.place[id] = p - first;
    term.push(id);
    this.titleTf.push(0);
    this.summaryTf.push(0);
    return p;
  }

  /** The words of [start, n) of `text`, counted as count() does. */
  private countAscii(
    text: Uint8Array,
    start: number,
    n: number,
    stamp: number,
    first: number,
    tfs: IntColumn,
  ): number {
    const { terms } = this;
    const word = terms.word;
    let words = 0;
    for (let i = start; i < n;) {
      let c = lowerAlnum[text[i]!]!;
      if (c === 0) {
        i++;
        continue;
      }
      let length = 0;
      let hash = 0x811c9dc5;
      while (c !== 0) {
        if (length < maxIndexedWordLength) word[length] = c;
        length++;
        hash = Math.imul(hash ^ c, 0x01000193);
        c = ++i < n ? lowerAlnum[text[i]!]! : 0;
      }
      words++;
      if (length > maxIndexedWordLength) continue; // not indexed (isIndexed)
      const id = terms.asciiId(length, hash);
      const p = this.placeOf(id, stamp, first);
      if (tfs.data[p]! < maxCount) tfs.data[p]!++;
    }
    return words;
  }

  /** Counts the words into the article's postings (which begin at `first`), adding one for each new word. */
  private count(list: readonly string[], stamp: number, first: number, tfs: IntColumn): number {
    const { terms } = this;
    for (const word of list) {
      if (!isIndexed(word)) continue;
      const id = terms.id(word);
      const p = this.placeOf(id, stamp, first);
      if (tfs.data[p]! < maxCount) tfs.data[p]!++;
    }
    return list.length;
  }

  /** One revision of an article: its key in `articles` (published_at, article_id), version and postings. */
  add(publishedAt: number, articleId: string, version: number, postings: Postings): void {
    this.addArticle(publishedAt, articleId, version);
    for (let i = 0; i < postings.terms.length; i++) {
      this.term.push(this.terms.id(postings.terms[i]!));
      this.titleTf.push(postings.title_tfs[i]!);
      this.summaryTf.push(postings.summary_tfs[i]!);
    }
    this.first.push(this.term.length);
  }

  private addArticle(publishedAt: number, articleId: string, version: number): void {
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
    this.articles++;
  }

  /** The rows as RowBinary of postingColumns, in key order. */
  encode(pool?: BufferPool): Buffer {
    const { publishedAt, keyHi, keyLo, version, first } = this;
    const { data: term, length: postings } = this.term;
    const titleTf = this.titleTf.data;
    const summaryTf = this.summaryTf.data;
    const { hi, lo } = this.terms;
    // The articles in (published_at, article) order: within one term, its postings follow it.
    const byKey = Array.from({ length: this.articles }, (_, i) => i).sort(
      (a, b) => publishedAt[a]! - publishedAt[b]! || keyHi[a]! - keyHi[b]! || keyLo[a]! - keyLo[b]!,
    );
    // The batch's distinct terms in hash order; each posting goes to its term's place, articles in order
    // (a counting sort: one pass, where comparing 120,000 rows would cost more than the encoding).
    const distinct = this.terms.distinct(term, postings);
    distinct.sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]!);
    const rank = this.terms.rank;
    for (let r = 0; r < distinct.length; r++) rank[distinct[r]!] = r;
    const start = new Int32Array(distinct.length + 1);
    for (let p = 0; p < postings; p++) start[rank[term[p]!]! + 1]!++;
    for (let r = 0; r < distinct.length; r++) start[r + 1]! += start[r]!;
    // Rows of 32 bytes, each eight aligned little-endian words: term (lo, hi), published_at, article (lo,
    // hi), the two counts, version (lo, hi).
    // Every word of every row is written below, so a pool's buffer (offset 0) needs no clearing.
    const words = pool
      ? new Uint32Array(pool.take(postings * 32).buffer, 0, postings * 8)
      : new Uint32Array(postings * 8);
    for (const a of byKey) {
      const t0 = publishedAt[a]!;
      const k0 = keyLo[a]!;
      const k1 = keyHi[a]!;
      const v = version[a]!;
      const v0 = v % 0x1_0000_0000;
      const v1 = Math.floor(v / 0x1_0000_0000);
      for (let p = first[a]!; p < first[a + 1]!; p++) {
        const t = term[p]!;
        const w = start[rank[t]!]!++ * 8;
        words[w] = lo[t]!;
        words[w + 1] = hi[t]!;
        words[w + 2] = t0;
        words[w + 3] = k0;
        words[w + 4] = k1;
        words[w + 5] = titleTf[p]! | (summaryTf[p]! << 16);
        words[w + 6] = v0;
        words[w + 7] = v1;
      }
    }
    return littleEndian(words);
  }
}

const maxCount = 65_535; // UInt16, as article-terms.ts counts

/**
 * A growing column of 32-bit integers, for what a batch holds per posting (term ids, counts). A batch has
 * ~25 postings an article, 120,000 for 5,000 articles: in JavaScript arrays, grown a push at a time, they
 * were the projection's largest allocation (a ninth of what it allocated on the V8 heap, copied as
 * the arrays grew and by each scavenge while the batch was built); a typed array's memory is outside
 * the heap the garbage collector copies.
 */
class IntColumn {
  data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/** By byte: an ASCII letter or digit lowercased, 0 for anything else. */
const lowerAlnum = new Uint8Array(256);
for (let c = 0x30; c <= 0x39; c++) lowerAlnum[c] = c;
for (let c = 0x61; c <= 0x7a; c++) lowerAlnum[c] = c;
for (let c = 0x41; c <= 0x5a; c++) lowerAlnum[c] = c + 0x20;

/** Whether UTF-8 bytes, [start, end) of `bytes`, are ASCII alone (for addAscii). */
export function isAscii(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** [start, end) of `bytes`. */
export interface ByteRange {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly end: number;
}
const whole = (bytes: Uint8Array): ByteRange => ({ bytes, start: 0, end: bytes.length });

/**
 * A text's index terms as indexedTerms (search-words.ts) takes them. A text of ASCII alone, most titles
 * and summaries, is lowercased once and split at what is not a letter or digit, which gives the same
 * words (an ASCII letter or digit is one in Unicode, ASCII has no marks and no unspaced script, and
 * lowercasing ASCII keeps a letter one) without lowercasing each word on its own.
 */
export function words(text: string): string[] {
  // ASCII alone when its UTF-8 is a byte a character.
  if (Buffer.byteLength(text, 'utf8') !== text.length) return indexedTerms(text);
  return text.toLowerCase().match(asciiWord) ?? [];
}
const asciiWord = /[a-z0-9]+/g;

const isLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The words' bytes, little-endian whatever the machine's order. */
function littleEndian(words: Uint32Array): Buffer {
  const bytes = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  return isLittleEndian ? bytes : bytes.swap32();
}
