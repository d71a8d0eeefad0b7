// Values for one field, by its schema: a valid one (so requests reach deep code, with ids of resources
// the fuzzer created where the field names one), or a hostile one of a chosen kind. Values are JSON
// values, or RawJson for what JSON.stringify cannot write (10,000 levels, 1e400, -0).
import type { Rng } from './prng.ts';
import type { Schema } from './openapi-walker.ts';

/** JSON text put into a body as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** What valid values are drawn from: ids and tokens the API handed out, and fixed local URLs. */
export interface ValuePools {
  /** Harvested values by pool name (`article`, `webhook`, `voice`, `cursor`…). */
  get(pool: string): readonly string[];
  feedUrl(rng: Rng): string;
  hookUrl(rng: Rng): string;
  credentials: { clientId: string; clientSecret: string };
}

export interface FieldContext {
  rng: Rng;
  pools: ValuePools;
  /** The field's name (last part of a body path, or the parameter's name). */
  name: string;
  /** Where it goes: query and path values are strings, header values too. */
  where: 'query' | 'path' | 'header' | 'body';
  /** The operation's path template, which says what `id` is the id of. */
  operationPath: string;
}

export const hostileKinds = [
  'boundary',
  'wrong-type',
  'huge',
  'control',
  'unicode',
  'injection',
  'deep',
  'missing',
  'encoding',
] as const;
export type HostileKind = (typeof hostileKinds)[number];

const types = (schema: Schema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : inferTypes(schema);

function inferTypes(schema: Schema): string[] {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.flatMap(types);
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  if (schema.enum) return [typeof schema.enum[0]];
  return ['string'];
}

/** The pool a field's ids come from, if it names a resource. */
export function poolOf(name: string, operationPath: string): string | undefined {
  if (name === 'id') {
    const segments = operationPath.split('/');
    const at = segments.indexOf('{id}');
    return singular(segments[at - 1] ?? '');
  }
  if (name === 'delivery_id') return 'delivery';
  const id = /^(.+?)_ids?$/.exec(name);
  if (id) return id[1];
  if (name === 'story') return 'story';
  if (name === 'cursor') return 'cursor';
  if (name === 'last_event_id') return 'event';
  if (name === 'voice') return 'voice';
  return undefined;
}

export const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word;

const words = ['economy', 'climate', 'election', 'rates', 'football', 'bank', 'film', 'health', 'china'];
const sentences = [
  'The central bank raised interest rates again on Tuesday, citing stubborn inflation.',
  'Shares in the chip maker rose after it reported record profits for the quarter.',
  'Floods closed roads across the coastal towns as the storm moved north.',
];

/** A value the field accepts (as far as its schema and name say). */
export function validValue(schema: Schema, ctx: FieldContext): unknown {
  const { rng, name, pools, where } = ctx;
  const pool = poolOf(name, ctx.operationPath);
  if (pool) {
    const found = pools.get(pool);
    if (found.length > 0 && rng.chance(0.9)) {
      const value = rng.pick(found);
      return types(schema).includes('array') ? [value] : value;
    }
  }
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const kind = types(schema).find((t) => t !== 'null') ?? 'string';
  switch (kind) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (name === 'speed' ? 0.5 : 1);
      const max = schema.maximum ?? (name === 'speed' ? 2.5 : Math.max(min, 50));
      if (name === 'speed') return rng.pick([1, 0.8, 1.25]);
      if (name === 'limit') return rng.pick([min, 5, Math.min(max, 20)]);
      return rng.pick([min, max, min + Math.floor((max - min) / 2)]);
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'array': {
      const item = schema.items ?? {};
      const count = Math.max(schema.minItems ?? 0, rng.int(1, Math.min(schema.maxItems ?? 3, 3)));
      const out = Array.from({ length: count }, () => validValue(item, { ...ctx, name: singular(name) }));
      return item.enum ? [...new Set(out)] : out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(field) || rng.chance(0.4))
          out[field] = validValue(fieldSchema, { ...ctx, name: field });
      }
      return out;
    }
    default:
      return validString(schema, ctx, where);
  }
}

function validString(schema: Schema, ctx: FieldContext, where: FieldContext['where']): string {
  const { rng, name, pools } = ctx;
  const list = (items: string[]) =>
    where === 'body' ? rng.pick(items) : items.slice(0, rng.int(1, 2)).join(',');
  switch (name) {
    case 'url':
      return ctx.operationPath.includes('source') ? pools.feedUrl(rng) : pools.hookUrl(rng);
    case 'alert_webhook':
    case 'site_url':
      return pools.hookUrl(rng);
    case 'country':
      return list(['gb', 'us', 'de']);
    case 'language':
      return schema.pattern ? rng.pick(['en', 'en-GB', 'de', 'pt-BR']) : list(['en', 'de', 'fr']);
    case 'languages':
    case 'language_code':
      return 'en';
    case 'category':
    case 'categories':
      return list(['business', 'technology', 'politics']);
    case 'date_range':
      return rng.pick([
        '24h',
        '7d',
        '30d',
        '2w',
        'PT6H',
        'yesterday',
        '2026-01-01..',
        '..2026-12-31',
        '2025-01-01..2026-12-31',
        '2025-01-01/2026-12-31',
      ]);
    case 'q':
      return rng.pick(['economy', '"interest rates"', 'bank OR rates', '(fed OR ecb) AND rates -china']);
    case 'topics':
    case 'topic':
      return where === 'body' ? rng.pick(['the economy', 'climate', 'football']) : list(words);
    case 'word':
    case 'words':
    case 'alias':
    case 'aliases':
      return rng.pick(words);
    case 'text':
    case 'content':
      return rng.pick(sentences);
    case 'title':
      return 'Rates rise again';
    case 'secret':
      return 'a-signing-secret-of-enough-length-2026';
    case 'company':
      return rng.pick(['Acme Corp', 'Northbridge Bank', 'Globex']);
    case 'contact_id':
      return `crm-${rng.int(1, 99)}`;
    case 'events':
      return list(['article.published', 'news.alert', 'article.enriched']);
    case 'grant_type':
      return 'client_credentials';
    case 'client_id':
      return pools.credentials.clientId;
    case 'client_secret':
      return pools.credentials.clientSecret;
    case 'scope':
      return rng.pick(['read:feeds', 'read:feeds use:ai', 'write:webhooks']);
    case 'access_token':
      return rng.pick(pools.get('stream-token').length ? pools.get('stream-token') : ['none']);
    case 'source':
    case 'source_id':
      return rng.pick([...pools.get('source'), 'BBC News']);
    case 'Range':
      return rng.pick(['bytes=0-', 'bytes=0-99', 'bytes=-100', 'bytes=10-20']);
  }
  if (typeof schema.example === 'string') return schema.example;
  if (schema.pattern?.startsWith('^[A-Za-z]{2,3}')) return 'en';
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 40;
  const word = rng.pick(words);
  return word.length >= min ? word.slice(0, max) : word.padEnd(min, 'x');
}

/** A value of the given hostile kind for a field; `undefined` means "leave the field out". */
export function hostileValue(schema: Schema, ctx: FieldContext, kind: HostileKind): unknown {
  const { rng } = ctx;
  const kinds = types(schema);
  switch (kind) {
    case 'boundary':
      return boundaryValue(schema, kinds, rng);
    case 'wrong-type':
      return wrongType(kinds, rng);
    case 'huge':
      return hugeValue(kinds, rng);
    case 'control':
      return controlString(rng, ctx.where);
    case 'unicode':
      return unicodeString(rng);
    case 'injection':
      return rng.pick(injections);
    case 'deep':
      return deepJson(rng);
    case 'missing':
      return rng.chance(0.5) ? undefined : null;
    case 'encoding':
      return new PercentEncoded(rng.pick(badEscapes));
  }
}

/** A query or path value written into the URL as it is (bad escapes, raw bytes). */
export class PercentEncoded {
  constructor(readonly raw: string) {}
}

export const badEscapes = [
  '%',
  '%zz',
  '%4',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE%FD',
  '%u0041',
  '%00',
  '%0D%0ASet-Cookie:%20x=1',
  '%252F',
  '%2F..%2F..%2Fetc%2Fpasswd',
  '%E2%80%AE%E2%80%8B',
  'a+b%2Bc',
  '%F0%9F%98',
  '%EF%BF%BF',
  '\xe9t\xe9',
  '%%%',
];

function boundaryValue(schema: Schema, kinds: string[], rng: Rng): unknown {
  if (kinds.includes('integer') || kinds.includes('number')) {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? 100;
    return rng.pick<unknown>([
      min - 1,
      max + 1,
      min,
      max,
      0,
      -1,
      -0.5,
      0.5,
      max + 0.5,
      Number.MAX_SAFE_INTEGER + 2,
      -Number.MAX_SAFE_INTEGER - 2,
      1e308,
      new RawJson('1e400'),
      new RawJson('-0'),
      new RawJson('1.0000000000000000000001'),
      new RawJson('123456789012345678901234567890'),
      'NaN',
      'Infinity',
      '-Infinity',
      '1e2',
      '0x10',
      '0b11',
      ' 5 ',
      '5abc',
      '١٢',
      '',
      '1_000',
    ]);
  }
  if (kinds.includes('array')) {
    const item = schema.items ?? {};
    const sample = item.enum ? item.enum[0] : 'x';
    const size = rng.pick([0, (schema.minItems ?? 1) - 1, (schema.maxItems ?? 100) + 1, 1000]);
    return Array.from({ length: Math.max(0, size) }, () => sample);
  }
  if (kinds.includes('boolean')) return rng.pick<unknown>(['true', 'false', 0, 1, 'yes', '']);
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  const length = rng.pick([0, Math.max(0, min - 1), min, max, max + 1]);
  const enumValue = schema.enum ? String(rng.pick(schema.enum)) : undefined;
  if (enumValue !== undefined && rng.chance(0.5))
    return rng.pick([enumValue.toUpperCase(), ` ${enumValue}`, `${enumValue} `, `${enumValue},${enumValue}`]);
  return 'a'.repeat(length);
}

function wrongType(kinds: string[], rng: Rng): unknown {
  const all: unknown[] = [
    123,
    -1,
    1.5,
    true,
    false,
    null,
    [],
    {},
    ['a'],
    { $gt: '' },
    'text',
    [[1]],
    { a: { b: 1 } },
  ];
  const wrong = all.filter((value) => {
    const t = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    if (t === 'number') return !kinds.includes('integer') && !kinds.includes('number');
    return !kinds.includes(t);
  });
  return rng.pick(wrong.length ? wrong : all);
}

function hugeValue(kinds: string[], rng: Rng): unknown {
  if (kinds.includes('array') && rng.chance(0.5)) return Array.from({ length: 100_000 }, (_, i) => `x${i}`);
  const size = rng.pick([5_001, 100_001, 1024 * 1024 + 1, 64 * 1024]);
  // One unbroken word, one run of Chinese or Thai (no spaces: ICU's dictionaries cut them), thousands of
  // short sentences: each once took time quadratic in its length in the embedded analysis.
  const unit = rng.pick(['a', 'é', '𝄞', 'ab ', '中', 'ก', 'Ab cD. ']);
  return unit.repeat(Math.ceil(size / (unit.length > 3 ? 2 * unit.length : 2)));
}

const controls = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
];

function controlString(rng: Rng, where: FieldContext['where']): unknown {
  const parts = Array.from({ length: rng.int(1, 4) }, () => rng.pick(controls));
  const text = `a${parts.join('b')}c`;
  // In a header, a raw control byte is the parser's business; as a URL value it goes percent-encoded.
  return where === 'header' ? text : rng.chance(0.2) ? `\u0000${'x'.repeat(10)}` : text;
}

const unicodeSamples = [
  '\ud800',
  'a\udfffb',
  '\udc00\ud800',
  '\u202eevil\u202c',
  '\u200b\u200c\u200d\ufeff',
  'e\u0301\u0301\u0301\u0301',
  `Z${'\u0336\u0335\u0334'.repeat(300)}`,
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ﬁ ﬀ Å Ω',
  'İstanbul ı',
  'ＡＢＣ１２３',
  '\ufffe\uffff',
  '\u{10ffff}',
  '\ue000',
  'مرحبا بالعالم',
  'שלום',
  '日本語のテキスト',
  '\u0000\ud800\u202e',
];

function unicodeString(rng: Rng): string {
  return rng.pick(unicodeSamples) + (rng.chance(0.3) ? rng.pick(unicodeSamples) : '');
}

const injections: unknown[] = [
  "' or '1'='1",
  '1; drop table articles --',
  "\\' or sleep(5) --",
  "x') union select 1 --",
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '%s%s%s%n',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '{"a":1}',
  '*',
  '%',
  '_',
  '\\',
  "'",
  '"',
  '`',
  '\\N',
  "\\'\\\\\\'",
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'javascript:alert(1)',
];

/** 10,000 levels of nesting (or 1,000), written as text: no object that deep is ever built. */
function deepJson(rng: Rng): RawJson {
  const depth = rng.pick([1_000, 10_000, 100_000]);
  return rng.chance(0.5)
    ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

/** JSON text of a value, RawJson written as it is. Lone surrogates come out escaped (well-formed JSON). */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof PercentEncoded) return JSON.stringify(value.raw);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A value as a query, path or header string: arrays joined with commas, objects as JSON. */
export function asText(value: unknown): string | PercentEncoded {
  if (value instanceof PercentEncoded) return value;
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : toJson(v))).join(',');
  return toJson(value);
}
