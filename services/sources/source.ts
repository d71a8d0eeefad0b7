// A news source: what it is and how to validate one at the edge (admin
// command, OPML import, later POST /v1/sources). Its id is derived from the
// canonical feed URL it was created with, so the same feed added twice is the
// same source; a source whose feed moved for good keeps that id, and the URLs
// it was polled at before (`previous_urls`) still find it.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import { textLine } from '../runtime/plain-text.ts';
import { categories } from '../runtime/categories.ts';
import { languageCode } from '../runtime/language.ts';
import { countryCodes } from '../runtime/iso-codes.ts';
import type { Source } from '../runtime/events/types.generated.ts';

const countryMessage = 'country must be a lowercase ISO 3166-1 alpha-2 code such as gb, us, br';
const languageMessage =
  'language must be an ISO 639-1 code such as en, de, pt (a region, as in pt-BR, is accepted and dropped)';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A name shows as something: format characters alone (a left-to-right mark, a zero-width space) show blank. */
export const hasVisibleCharacter = (name: string) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(name);

/** ISO 3166-1 alpha-2, lowercase. */
export const isCountryCode = (code: string) => countryCodes.has(code);
/** uk is the United Kingdom's everyday code (ISO 3166-1 reserves it for it); ISO's own is gb. */
export const isoCountryCode = (code: string) => (code === 'uk' ? 'gb' : code);

/** ISO 639-1, lowercase: Intl knows the assigned two-letter codes (it echoes unknown ones back). */
export const isLanguageCode = (code: string) => /^[a-z]{2}$/.test(code) && languageNames.of(code) !== code;

export const defaultPollIntervalSeconds = 900;

export const sourceInput = z.object({
  // Shown with its articles to every tenant: no control character, line break or bidirectional override.
  name: z
    .string({ error: 'name is required' })
    .overwrite(textLine)
    .min(1, 'name is required')
    .max(200, 'name must be at most 200 characters')
    .refine(hasVisibleCharacter, {
      message: 'name must have a letter, digit or symbol: it is shown with every article',
    }),
  feed_url: z
    .string({ error: 'feed_url is required' })
    .trim()
    .refine((s) => canonicalUrl(s) !== null, { message: 'feed_url must be an absolute http(s) URL' }),
  site_url: z
    .string()
    .trim()
    .refine((s) => canonicalUrl(s) !== null, { message: 'site_url must be an absolute http(s) URL' })
    .nullable()
    .default(null),
  category: z.enum(categories, { message: `category must be one of ${categories.join(', ')}` }),
  // "pt-BR", "deu", "German" are what people and feeds write: read as the two-letter code they name.
  language: z
    .string({ error: languageMessage })
    .trim()
    .toLowerCase()
    .overwrite((s) => languageCode(s) ?? s)
    .refine(isLanguageCode, { message: languageMessage }),
  country: z
    .string({ error: countryMessage })
    .trim()
    .toLowerCase()
    .overwrite(isoCountryCode)
    .refine(isCountryCode, { message: countryMessage }),
  active: z.boolean().default(true),
  poll_interval_seconds: z
    .number()
    .int()
    .min(10, 'poll_interval_seconds must be at least 10')
    .max(86_400, 'poll_interval_seconds must be at most 86400')
    .default(defaultPollIntervalSeconds),
});

export type SourceInput = z.input<typeof sourceInput>;

export function sourceIdFor(feedUrl: string): string {
  const canonical = canonicalUrl(feedUrl);
  if (!canonical) throw new Error(`"${feedUrl}" is not an http(s) URL`);
  return `src_${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

/**
 * Validates input and builds the next state of the source (version after `previous`). A source keeps
 * its id and its former URLs whatever its feed URL is now: a moved source's id is its first URL's.
 */
export function sourceState(
  input: SourceInput,
  previous: Source | null,
  now: number,
  createdByTenant: string | null = null,
): Source {
  const valid = sourceInput.parse(input);
  const feedUrl = canonicalUrl(valid.feed_url)!;
  return {
    source_id: previous?.source_id ?? sourceIdFor(feedUrl),
    name: valid.name,
    feed_url: feedUrl,
    previous_urls: previous?.previous_urls ?? [],
    site_url: valid.site_url ? canonicalUrl(valid.site_url) : null,
    category: valid.category,
    language: valid.language,
    country: valid.country,
    active: valid.active,
    poll_interval_seconds: valid.poll_interval_seconds,
    created_by_tenant: previous?.created_by_tenant ?? createdByTenant,
    created_at: previous?.created_at ?? now,
    version: (previous?.version ?? 0) + 1,
    occurred_at: now,
  };
}

/** The same source with changed state: same version rules, nothing else touched. */
export function changedSource(previous: Source, change: Partial<SourceInput>, now: number): Source {
  return sourceState(
    {
      name: previous.name,
      feed_url: previous.feed_url,
      site_url: previous.site_url,
      category: previous.category as SourceInput['category'],
      language: previous.language,
      country: previous.country,
      active: previous.active,
      poll_interval_seconds: previous.poll_interval_seconds,
      ...change,
    },
    previous,
    now,
  );
}

/** Every URL that names this source: where it is polled now, and where it was before its feed moved. */
export const feedUrlsOf = (source: Pick<Source, 'feed_url' | 'previous_urls'>): string[] => [
  source.feed_url,
  ...source.previous_urls,
];

/**
 * Former URLs kept per source: enough for every real history (a feed moves once or twice in its life),
 * bounded so that a server moving its feed around on purpose cannot grow the record without end.
 */
export const maxPreviousUrls = 10;

/**
 * The source polled at `to` from now on, because its feed moved there for good (the poller decides
 * when, services/poller/feed-move.ts): the same id, the next version, and the URL it leaves kept in
 * previous_urls (a move back to a former URL takes that URL out of the list again).
 */
export function movedSource(previous: Source, to: string, now: number): Source {
  const feedUrl = canonicalUrl(to);
  if (feedUrl === null) throw new Error(`"${to}" is not an http(s) URL`);
  const left = [...previous.previous_urls, previous.feed_url].filter((url) => url !== feedUrl);
  return {
    ...previous,
    feed_url: feedUrl,
    previous_urls: [...new Set(left)].slice(-maxPreviousUrls),
    version: previous.version + 1,
    occurred_at: now,
  };
}
