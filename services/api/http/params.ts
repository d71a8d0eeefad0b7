// Query-parameter schemas shared by the endpoints. Each one validates a raw
// query-string value and says, in its message, what it expected, so the 400
// names the parameter and the rule (the parameter name is added from the
// schema's key). They are zod schemas so that the OpenAPI document is produced
// from the very objects that validate requests.
import { z } from 'zod';
import { searchFields } from '../articles/article-query.ts';
import { parseSearch, SearchSyntaxError } from '../articles/search-expression.ts';
import { categories, categoryAliases, categoryWord } from '../../runtime/categories.ts';
import { isCountryCode, isLanguageCode, isoCountryCode } from '../../sources/source.ts';
import { parseDateRange } from './date-range.ts';

/**
 * A whole number as a query string (or a JSON body) writes it: decimal digits, perhaps a minus sign.
 * `z.coerce.number` goes through Number(), which also takes `0x10`, `1e1`, `+5`, `0b1` and `` (as 0),
 * so a typo would page somewhere nobody asked for. Anything else reaches `schema` as it came and fails
 * there, with its message. The OpenAPI document shows an integer; give a default as `.prefault(n)`
 * (zod leaves a `.default` of a preprocessed value out of the document's input form).
 */
export function wholeNumber(schema: z.ZodNumber) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' && decimalDigits.test(value) ? decimal(value) : value),
      schema,
    )
    .meta({ type: 'integer' });
}

// Any number of digits: a long number (or one padded with zeros) fails on the schema's bounds, whose
// message names them, not as "not an integer". One beyond 2^53 (which zod's int() refuses as unsafe) is
// read as the largest safe integer of its sign: every bound here is far below it.
const decimalDigits = /^\s*-?\d+\s*$/;
const decimal = (digits: string) =>
  Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Number(digits)));

export const limitParam = (max: number, fallback: number) =>
  wholeNumber(
    z
      .number({ error: `must be an integer from 1 to ${max}` })
      .int({ error: `must be an integer from 1 to ${max}` })
      .min(1, { error: `must be an integer from 1 to ${max}` })
      .max(max, { error: `must be an integer from 1 to ${max}` }),
  )
    .prefault(fallback)
    .meta({ description: `Page size, 1 to ${max}.`, example: fallback, minimum: 1, maximum: max });

const offsetOf = (tooFar: string) =>
  wholeNumber(
    z
      .number({ error: 'must be an integer of at least 0' })
      .int({ error: 'must be an integer of at least 0' })
      .min(0, { error: 'must be an integer of at least 0' })
      .max(1_000_000, { error: tooFar }),
  )
    .prefault(0)
    .meta({ description: 'Number of items to skip.', example: 0, minimum: 0, maximum: 1_000_000 });

export const offsetParam = offsetOf('must be at most 1000000');

/** `cursor`: the opaque `paging.next_cursor` of a list that pages by keyset; `description` says how. */
export const cursorParam = (description: string) => z.string().max(400).optional().meta({ description });

/** The offset of a list that also pages by cursor, which its message points to past the limit. */
export const cursorListOffsetParam = offsetOf('must be at most 1000000 (walk further with cursor)');

// Booleans as clients send them: `true`/`false` in any case (Python's requests sends `True`) and `1`/`0`.
const booleanWords = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

export const booleanParam = (description: string) =>
  z
    .string()
    .transform((raw, ctx) => {
      const value = booleanWords.get(raw.trim().toLowerCase());
      if (value !== undefined) return value;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, 1 or 0' });
      return z.NEVER;
    })
    .meta({
      description: `${description} \`true\` or \`false\` (any case), or \`1\` or \`0\`.`,
      enum: ['true', 'false', '1', '0'],
    });

/**
 * The schemas that take several values separated by commas. A client may also repeat such a parameter
 * (`category=world&category=science`, OpenAPI's default form for arrays) or name it with brackets
 * (`topics[]=a`, axios and PHP): route.ts joins those values with commas before validating.
 */
const commaLists = new WeakSet<z.ZodType>();

/** Marks a schema as taking comma-separated values (above); returns it. */
export function commaList<S extends z.ZodType>(schema: S): S {
  commaLists.add(schema);
  return schema;
}

/**
 * The comma lists whose values may hold commas themselves (names: listParam's alsoWhole). Their repeated
 * values are joined with `givenSeparator` instead, so that each value given can still be read whole.
 */
const wholeValueLists = new WeakSet<z.ZodType>();

/** What route.ts joins the repeated values of a whole-value list with (a control character, in no name). */
export const givenSeparator = '\u001f';

/** Whether a parameter's schema, under optional() or default(), takes comma-separated values. */
export function takesCommaList(schema: unknown): boolean {
  return unwrapsTo(schema, commaLists);
}

/** Whether a parameter's schema is a comma list whose every value given is also read whole. */
export function keepsValuesWhole(schema: unknown): boolean {
  return unwrapsTo(schema, wholeValueLists);
}

function unwrapsTo(schema: unknown, marked: WeakSet<z.ZodType>): boolean {
  let current = schema;
  for (let depth = 0; depth < 5 && current instanceof z.ZodType; depth++) {
    if (marked.has(current)) return true;
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    )
      current = current.unwrap();
    else return false;
  }
  return false;
}

/** A comma-separated list whose every item passes `check`; at most `max` items. */
export function listParam(options: {
  check: (item: string) => boolean;
  expected: string;
  description: string;
  example: string;
  max?: number;
  lowercase?: boolean;
  /** An item as the vocabulary spells it (`sport` → `sports`), before it is checked. */
  normalise?: (item: string) => string;
  /**
   * Items are ids matched exactly as they were stored: only trimmed, their accents and spaces left as
   * they came (names are read composed, with single spaces). Implies `lowercase: false`.
   */
  verbatim?: boolean;
  /**
   * The whole value counts as an item too, commas and all: for names that may hold a comma ("Medium:
   * Invironment, food"), which would otherwise be read as two names and match nothing.
   */
  alsoWhole?: boolean;
}) {
  const max = options.max ?? 20;
  // As names are stored: composed accents (macOS and iOS send them decomposed), single spaces.
  const tidy = (s: string) => (options.verbatim ? s.trim() : s.normalize('NFC').replace(/\s+/g, ' ').trim());
  const lowercase = options.lowercase !== false && !options.verbatim;
  const schema = z
    .string()
    .transform((raw, ctx) => {
      const given = raw.split(givenSeparator);
      const items = given
        .flatMap((value) => value.split(','))
        .map(tidy)
        .map((s) => (lowercase ? s.toLowerCase() : s))
        .filter(Boolean)
        .map((s) => options.normalise?.(s) ?? s);
      if (items.length === 0) {
        ctx.addIssue({ code: 'custom', message: `must not be empty; expected ${options.expected}` });
        return z.NEVER;
      }
      if (items.length > max) {
        ctx.addIssue({ code: 'custom', message: `at most ${max} comma-separated values` });
        return z.NEVER;
      }
      const bad = items.find((i) => !options.check(i));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `${quote(bad)} is not ${options.expected}` });
        return z.NEVER;
      }
      // Every run of neighbouring pieces is read whole too: "A (live, RSS),B" names the source
      // "A (live, RSS)" and B, where the value whole and its pieces alone named only B. At most the
      // 20 pieces checked above, so at most 190 runs.
      if (options.alsoWhole)
        for (const value of given) {
          const pieces = value.split(',');
          for (let from = 0; from < pieces.length; from++)
            for (let to = from + 2; to <= pieces.length; to++) {
              const run = tidy(pieces.slice(from, to).join(','));
              if (options.check(run)) items.push(run);
            }
        }
      return [...new Set(items)];
    })
    .meta({ description: options.description, example: options.example });
  if (options.alsoWhole) wholeValueLists.add(schema);
  return commaList(schema);
}

export { categoryWord };

/**
 * A category in a request body (a source's, a webhook filter's): read as the `category` parameter reads
 * it (any case, the same aliases), so that a word a list filter takes is not refused by a write.
 */
export const categoryValue = z
  .preprocess(
    (value) => (typeof value === 'string' ? categoryWord(value.trim().toLowerCase()) : value),
    z.enum(categories, {
      error: `must be one of ${categories.join(', ')} (${[...categoryAliases.keys()].join(', ')} are read as theirs)`,
    }),
  )
  .meta({ enum: [...categories] });

export const categoryParam = listParam({
  check: (c) => (categories as readonly string[]).includes(c),
  normalise: categoryWord,
  expected: `a category (one of ${categories.join(', ')})`,
  description:
    `Category, or several separated by commas: ${categories.join(', ')} ` +
    `(${[...categoryAliases].map(([alias, category]) => `${alias} is read as ${category}`).join(', ')}).`,
  example: 'technology',
});

/** A locale (en-us, pt_br, zh-hant-tw; lowercase) as its language: articles carry ISO 639-1 codes. */
export const languageOfLocale = (l: string) =>
  /^[a-z]{2}(?:[-_][a-z0-9]{2,8})+$/.test(l) ? l.slice(0, 2) : l;

export const languageParam = listParam({
  check: isLanguageCode,
  normalise: languageOfLocale,
  expected: 'an ISO 639-1 language code such as en, de, pt',
  description:
    'ISO 639-1 language code, or several separated by commas; a locale (en-US) is read as its language.',
  example: 'en',
});

export const countryParam = listParam({
  check: isCountryCode,
  normalise: isoCountryCode,
  expected: 'an ISO 3166-1 alpha-2 country code such as gb, us, br',
  description: 'ISO 3166-1 alpha-2 country code, or several separated by commas (uk is read as gb).',
  example: 'gb',
});

export const sourceParam = listParam({
  check: (s) => s.length <= 200,
  expected: 'a source id or name of at most 200 characters',
  description:
    'Source id (as in GET /v1/sources) or source name (case-insensitive), or several separated by commas. ' +
    'A name that holds a comma may be given as it is, alone or in a list: every run of neighbouring ' +
    'comma-separated pieces of a value (the parameter may be repeated) is also read as one name.',
  example: 'BBC News',
  lowercase: false,
  alsoWhole: true,
});

export const entityParam = listParam({
  check: (e) => e.length > 0 && e.length <= 200,
  expected: 'an entity name of at most 200 characters',
  description:
    'A person, organisation or place the enrichment found in the article (as in `enrichment.entities`, ' +
    'case-insensitive), or several separated by commas: an article naming any of them matches.',
  example: 'Microsoft',
  lowercase: false,
});

export const sentimentLabels = ['positive', 'neutral', 'negative', 'mixed'] as const;

export const sentimentParam = listParam({
  check: (s) => (sentimentLabels as readonly string[]).includes(s),
  expected: `a sentiment (one of ${sentimentLabels.join(', ')})`,
  description: `The enrichment's overall sentiment, or several separated by commas: ${sentimentLabels.join(', ')}.`,
  example: 'negative',
});

export const dateRangeParam = z
  .string()
  .transform((raw, ctx) => {
    // To the second, which is all the read model keeps: requests within one second ask the same thing
    // (and share a read, article-store.ts).
    const parsed = parseDateRange(raw, new Date(Math.floor(Date.now() / 1000) * 1000));
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({
    description:
      'Publication window: a span up to now (`24h`, `7d`, `2w`, `3mo`, `1y`, `90min`: any number of ' +
      'minutes, hours, days, weeks, calendar months or years; an ISO 8601 duration such as `PT12H`, `P7D`, ' +
      '`P1M`; or words such as `last_7_days`, `past week`), `today` or `yesterday` (UTC days), one date ' +
      '(`2026-01-31`), month (`2026-01`) or year (`2026`), or ' +
      '`FROM..TO` with ISO 8601 dates, months, years or instants, either end open (`2026-01-01..`, ' +
      '`..2026-02-01T12:00:00Z`); the ISO 8601 interval `FROM/TO` and `FROM,TO` are read the same way. ' +
      'FROM is inclusive; TO is exclusive for an instant and includes the whole day for a date.',
    example: '7d',
  });

export const searchParam = z
  .string()
  .max(200, { error: 'must be at most 200 characters' })
  .transform((raw, ctx) => {
    try {
      return parseSearch(raw);
    } catch (error) {
      if (!(error instanceof SearchSyntaxError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  })
  .meta({
    description:
      'Search, as whole words in any case: `bank rates` (both), `"interest rates"` (a phrase), `fed OR ecb`, ' +
      '`NOT china` or `-china`, and parentheses: `(fed OR ecb) AND rates`. Operators in capitals (or `&&`, ' +
      '`||`, `!`); NOT binds tighter than AND, AND than OR. No wildcards, field names (`title:`: use ' +
      'search_in), boosts (`^2`), fuzzy or proximity searches (`~`) or `|` (refused, saying so). Text in a script written without spaces (Chinese, Japanese, Korean, Thai, Lao, Khmer, ' +
      'Burmese) is found wherever it occurs: `首相` finds "日本の首相が辞任". At most 20 ' +
      'terms; a query that cannot be read is 400, saying where.',
    example: '"interest rates" (fed OR ecb) -china',
  });

export const searchInParam = listParam({
  check: (f) => (searchFields as readonly string[]).includes(f),
  expected: `a field to search (one of ${searchFields.join(', ')})`,
  description: `Where \`q\` looks, one or several separated by commas: ${searchFields.join(', ')} (default title,summary); without \`q\`, 400.`,
  example: 'title,summary,content',
});

/** Shows a rejected value in a message: quoted, and cut short so a huge value does not flood it. */
export function quote(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(shown);
}

/**
 * One of `values` (`fallback` when absent), in any case, or a word clients guess for one of them
 * (`aliases`: `high` for `deep`), which is read as that value; the answer echoes the value, never the
 * alias. The interface leaves these enumerations unshown, so clients guess. Documented as the
 * enumeration itself (zod leaves out the default of a schema that transforms its input, so callers'
 * descriptions name it).
 */
export function enumWithAliases<const V extends readonly [string, ...string[]]>(
  values: V,
  aliases: Readonly<Record<string, V[number]>>,
  fallback: V[number],
) {
  return enumInAnyCase(values, aliases)
    .default(fallback as never)
    .meta({ type: 'string', enum: [...values] });
}

/** enumWithAliases without a default: left out, it stays undefined (a filter not applied). */
export function enumInAnyCase<const V extends readonly [string, ...string[]]>(
  values: V,
  aliases: Readonly<Record<string, V[number]>> = {},
) {
  const known = new Map<string, V[number]>(values.map((v) => [v, v]));
  for (const [alias, value] of Object.entries(aliases)) known.set(alias, value);
  const shown = Object.keys(aliases);
  return z
    .preprocess(
      (raw) => (typeof raw === 'string' ? (known.get(raw.trim().toLowerCase()) ?? raw) : raw),
      z.enum(values, {
        error: `must be one of ${values.join(', ')}${shown.length > 0 ? ` (or ${shown.join(', ')})` : ''}`,
      }),
    )
    .meta({ type: 'string', enum: [...values] });
}
