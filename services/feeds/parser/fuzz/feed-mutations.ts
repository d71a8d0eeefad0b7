// What the fuzz tests do to real feeds, and what they hold the parser to. A case is a snapshot's name
// and a list of mutations described by small numbers (fractions of the length, byte values, charset
// labels), never the mutated bytes themselves: fast-check prints a failing case in a few lines, and
// `bodyOf` rebuilds its exact bytes from them.
import fc from 'fast-check';
import { decodeBody } from '../encoding.ts';
import { FeedParseError } from '../errors.ts';
import { parseFeed } from '../parse-feed.ts';
import type { ParsedFeed } from '../types.ts';
import { readRealFeed, readTestdata, realFeedNames } from '../testdata/read.ts';

// ---- the snapshots ------------------------------------------------------------------------------

/** Above this a snapshot is "large": parsed in few cases, since one parse costs a few hundred ms. */
export const LARGE_BYTES = 512 * 1024;

const snapshots = new Map<string, Uint8Array>([
  ...realFeedNames().map((name): [string, Uint8Array] => [`real/${name}`, readRealFeed(name)]),
  // The JSON Feed and Atom fixtures, since real/ holds no JSON Feed.
  ['bbc.json', readTestdata('bbc.json')],
  ['bbc.atom', readTestdata('bbc.atom')],
]);

export const smallSnapshots = [...snapshots].filter(([, b]) => b.length <= LARGE_BYTES).map(([n]) => n);
export const largeSnapshots = [...snapshots].filter(([, b]) => b.length > LARGE_BYTES).map(([n]) => n);

// ---- the mutations ------------------------------------------------------------------------------

/**
 * Where in the body, as a fraction of its length (so a case reads the same for any snapshot). Drawn
 * from integers: fast-check's doubles crowd near 0, which would put nearly every mutation at the start.
 */
const at = fc.integer({ min: 0, max: 0xffff }).map((n) => n / 0x10000);

// Bytes that have broken parsers before: NUL and other C0/C1 controls, lone UTF-8 lead and
// continuation bytes, an encoded surrogate (ED A0 80), BOMs mid-stream, and markup that ends or opens
// a construct or refers to a character XML forbids.
const awkward = [
  '\u0000',
  '\u001b',
  '\u000b',
  '\r',
  '<',
  '&',
  ']]>',
  '<![CDATA[',
  '<!--',
  '&#0;',
  '&#1;',
  '&#x1B;',
  '&#128;',
  '&#x85;',
  '&#x9F;',
  '&#xD800;',
  '&#xDFFF;',
  '&#xFFFE;',
  '&#x110000;',
  '&amp;#x1;',
  '&lt;b&gt;',
  '</item>',
  '<item>',
  '</entry>',
  '"',
  '\\u0000',
  '\\ud800',
].map((s) => Buffer.from(s, 'utf8'));
const awkwardBytes = [
  [0x80],
  [0x9b],
  [0xc0],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
];

const inserted = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 8 }),
  fc.constantFrom(...awkward, ...awkwardBytes.map((b) => Uint8Array.from(b))),
);

/** Re-encodings: what a feed's bytes are turned into. */
const encodings = [
  'utf-8',
  'utf-8-bom',
  'utf-16le',
  'utf-16le-bom',
  'utf-16be',
  'utf-16be-bom',
  'latin1',
] as const;
type Encoding = (typeof encodings)[number];

/** Labels put in the Content-Type or the XML prolog: right, wrong, unusual, or unknown. */
const labels = [
  null,
  'utf-8',
  'UTF8',
  'utf-16',
  'utf-16le',
  'utf-16be',
  'utf-32',
  'iso-8859-1',
  'windows-1252',
  'us-ascii',
  'koi8-r',
  'shift_jis',
  'gb2312',
  'big5',
  'x-user-defined',
  'replacement',
  'bogus-charset',
] as const;
type Label = (typeof labels)[number];

export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'duplicate'; at: number; times: number }
  | { kind: 'reencode'; to: Encoding; prolog: Label | 'keep'; header: Label | 'keep' };

export const truncation = fc.record({ kind: fc.constant('truncate' as const), at });
export const insertion = fc.record({ kind: fc.constant('insert' as const), at, bytes: inserted });
export const duplication = fc.record({
  kind: fc.constant('duplicate' as const),
  at,
  times: fc.integer({ min: 1, max: 3 }),
});
export const reencoding = fc.record({
  kind: fc.constant('reencode' as const),
  to: fc.constantFrom(...encodings),
  prolog: fc.constantFrom<Label | 'keep'>('keep', ...labels),
  header: fc.constantFrom<Label | 'keep'>('keep', ...labels),
});
export const anyMutation = fc.oneof(truncation, insertion, duplication, reencoding);

export interface FeedCase {
  snapshot: string;
  contentType: string | null;
  mutations: Mutation[];
}

const contentTypes = [
  null,
  'application/rss+xml',
  'application/atom+xml',
  'application/xml; charset=utf-8',
  'text/xml',
  'application/feed+json',
  'text/html; charset=iso-8859-1',
  'application/octet-stream',
];

/**
 * A snapshot, each picked about in inverse proportion to what parsing it costs (its size, plus a fixed
 * part), so every snapshot gets about the same share of the time rather than the same number of cases:
 * the 1.4 KB feeds get hundreds of cases, the 290 KB one still dozens.
 */
function snapshotOf(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...names.map((name) => ({
      arbitrary: fc.constant(name),
      weight: Math.max(1, Math.round(10_000_000 / (snapshots.get(name)!.length + 16 * 1024))),
    })),
  );
}

export function feedCase(names: readonly string[], mutation: fc.Arbitrary<Mutation>, most = 3) {
  return fc.record({
    snapshot: snapshotOf(names),
    contentType: fc.constantFrom(...contentTypes),
    mutations: fc.array(mutation, { minLength: 1, maxLength: most }),
  });
}

/** The body and Content-Type a case stands for. */
export function bodyOf(c: FeedCase): { body: Uint8Array; contentType: string | null } {
  let body: Buffer = Buffer.from(snapshots.get(c.snapshot)!);
  let contentType = c.contentType;
  for (const m of c.mutations) {
    const offset = 'at' in m ? Math.floor(m.at * body.length) : 0;
    switch (m.kind) {
      case 'truncate':
        body = body.subarray(0, offset);
        break;
      case 'insert':
        body = Buffer.concat([body.subarray(0, offset), m.bytes, body.subarray(offset)]);
        break;
      case 'duplicate':
        body = duplicateElement(body, m.at, m.times);
        break;
      case 'reencode': {
        const reencoded = reencode(body, contentType, m);
        body = reencoded.body;
        contentType = reencoded.contentType;
        break;
      }
    }
  }
  return { body, contentType };
}

/**
 * Repeats an element in place (an item, a title, a category, whichever element starts nearest after
 * the position), as feeds with a duplicated item or a doubled field do. Byte-wise, through latin1,
 * so the bytes around it are kept whatever their charset.
 */
function duplicateElement(body: Buffer, fraction: number, times: number): Buffer {
  const text = body.toString('latin1');
  const starts = [...text.matchAll(/<([A-Za-z][\w:.-]*)[\s>/]/g)];
  if (starts.length === 0) return body;
  const start = starts[Math.floor(fraction * starts.length)]!;
  const name = start[1]!;
  const close = text.indexOf(`</${name}>`, start.index);
  const end = close === -1 ? text.indexOf('>', start.index) + 1 : close + name.length + 3;
  if (end <= start.index) return body;
  const element = text.slice(start.index, end);
  return Buffer.from(text.slice(0, end) + element.repeat(times) + text.slice(end), 'latin1');
}

/**
 * The document's text (as the parser decodes it) written in another charset, with its XML prolog's
 * encoding and the Content-Type's charset each kept, removed or set to a label that may be wrong.
 */
function reencode(
  body: Buffer,
  contentType: string | null,
  m: Extract<Mutation, { kind: 'reencode' }>,
): { body: Buffer; contentType: string | null } {
  let text: string;
  try {
    text = decodeBody(body, contentType).text;
  } catch {
    text = body.toString('latin1'); // what the parser refuses to decode is still bytes to re-encode
  }
  if (m.prolog !== 'keep') {
    text = text.replace(/^(\s*<\?xml[^>]*?)\s+encoding\s*=\s*["'][^"']*["']/, '$1');
    if (m.prolog !== null) text = text.replace(/^(\s*<\?xml)/, `$1 encoding="${m.prolog}"`);
  }
  let type = contentType;
  if (m.header !== 'keep') {
    const bare = (contentType ?? 'application/xml').replace(/;.*$/, '');
    type = m.header === null ? bare : `${bare}; charset=${m.header}`;
  }
  return { body: encode(text, m.to), contentType: type };
}

function encode(text: string, to: Encoding): Buffer {
  const bom = to.endsWith('-bom') ? '\ufeff' : '';
  switch (to) {
    case 'utf-8':
    case 'utf-8-bom':
      return Buffer.from(bom + text, 'utf8');
    case 'utf-16le':
    case 'utf-16le-bom':
      return Buffer.from(bom + text, 'utf16le');
    case 'utf-16be':
    case 'utf-16be-bom':
      return Buffer.from(bom + text, 'utf16le').swap16();
    case 'latin1':
      // Characters latin1 lacks become '?', as a careless re-encoder writes them.
      return Buffer.from(text.replace(/[\u0100-\uffff]/g, '?'), 'latin1');
  }
}

// ---- what the parser is held to -----------------------------------------------------------------

/** C0 controls but tab and newline, C1 controls, and surrogates that are not half of a pair. */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  /[\u0000-\u0008\u000b-\u001f\u0080-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The text fields a reader sees, each with where it is, for a failure message. */
function* texts(feed: ParsedFeed): Generator<[string, string]> {
  if (feed.title !== null) yield ['feed.title', feed.title];
  for (const [i, item] of feed.items.entries()) {
    if (item.title !== null) yield [`items[${i}].title`, item.title];
    if (item.summaryHtml !== null) yield [`items[${i}].summaryHtml`, item.summaryHtml];
    if (item.contentHtml !== null) yield [`items[${i}].contentHtml`, item.contentHtml];
    if (item.author !== null) yield [`items[${i}].author`, item.author];
    for (const [j, category] of item.categories.entries()) yield [`items[${i}].categories[${j}]`, category];
  }
}

export interface Timing {
  bytes: number;
  ms: number;
}

/**
 * A parse may take this much CPU time: 2 s per MB and 250 ms for the fixed costs (detection, the first
 * call of a path), several times what a linear parse takes on a slow core.
 */
export const allowedMs = (bytes: number) => (2_000 * bytes) / (1024 * 1024) + 250;

// CPU time, not wall time: the machine is shared, and another process's load must not fail a parse.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const timed = (body: Uint8Array, contentType: string | null) => {
  const started = cpuMs();
  try {
    return { feed: parseFeed(body, contentType), ms: cpuMs() - started };
  } catch (error) {
    return { error, ms: cpuMs() - started };
  }
};

/**
 * Parses the case's body and throws (failing the property) if the parser threw anything but a
 * FeedParseError, took longer than allowedMs, or returned a text field with a forbidden character.
 */
export function checkCase(c: FeedCase, timings: Timing[]): void {
  const { body, contentType } = bodyOf(c);
  let outcome = timed(body, contentType);
  // A parse over its time is timed twice more and the fastest counts, so the bound catches a parse
  // that is slow every time (super-linear), not a garbage collection or a busy neighbour.
  for (let again = 0; again < 2 && outcome.ms > allowedMs(body.length); again++) {
    const retry = timed(body, contentType);
    outcome = { ...outcome, ms: Math.min(outcome.ms, retry.ms) };
  }
  timings.push({ bytes: body.length, ms: outcome.ms });
  if ('error' in outcome && !(outcome.error instanceof FeedParseError)) throw outcome.error;
  if (outcome.ms > allowedMs(body.length))
    throw new Error(`a ${body.length}-byte body took ${outcome.ms.toFixed(0)} ms of CPU to parse`);
  if (!('feed' in outcome) || !outcome.feed) return;
  for (const [where, text] of texts(outcome.feed)) {
    const bad = FORBIDDEN.exec(text);
    if (bad)
      throw new Error(
        `${where} holds U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index}: ${JSON.stringify(text.slice(Math.max(0, bad.index - 20), bad.index + 20))}`,
      );
  }
}

/** The fuzz settings: a fixed seed unless FUZZ_SEED is set; FUZZ_RUNS scales every property's runs. */
export function fuzzSettings(runs: number): { seed: number; numRuns: number } {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 16;
  const scale = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / 10_000 : 1;
  return { seed, numRuns: Math.max(1, Math.round(runs * scale)) };
}

/** One line on what the runs measured: the slowest parse per MB (bodies of 64 KiB up) and overall, in CPU time. */
export function timingSummary(label: string, timings: readonly Timing[]): string {
  const perMb = (t: Timing) => t.ms / (t.bytes / (1024 * 1024));
  const sized = timings.filter((t) => t.bytes >= 64 * 1024);
  const worstPerMb = sized.reduce<Timing | null>((w, t) => (w && perMb(w) >= perMb(t) ? w : t), null);
  const slowest = timings.reduce<Timing | null>((w, t) => (w && w.ms >= t.ms ? w : t), null);
  return (
    `${label}: ${timings.length} parses; worst per MB (bodies >= 64 KiB) ` +
    (worstPerMb
      ? `${perMb(worstPerMb).toFixed(0)} ms/MB (${worstPerMb.bytes} B in ${worstPerMb.ms.toFixed(1)} ms)`
      : 'n/a') +
    `; slowest ${slowest ? `${slowest.ms.toFixed(1)} ms (${slowest.bytes} B)` : 'n/a'}`
  );
}
