// What a documentary request may ask for (POST /api/v1/documentaries), shared by the API that checks it
// and the processor that carries it out.

/**
 * Where the articles come from:
 * - `news`: the catalog's sources (the publishers this service polls for everyone);
 * - `internal`: the tenant's own sources, those it added or subscribed to (POST /v1/sources);
 * - `social`: community and social feeds, the sources whose category is `social` or `community`
 *   (forums, link aggregators, social networks' public feeds); none of the bundled catalog is one, so
 *   only sources added with such a category count.
 */
export const documentarySources = ['news', 'internal', 'social'] as const;
export type DocumentarySource = (typeof documentarySources)[number];

/** The source categories that make a source `social`. */
export const socialCategories = ['social', 'community'] as const;

/** `audio+transcript`: the audio, a WebVTT transcript and a JSON one; `audio`: the audio alone. */
export const documentaryFormats = ['audio+transcript', 'audio'] as const;
export type DocumentaryFormat = (typeof documentaryFormats)[number];

/** short ≈ 2 minutes, medium ≈ 5, long ≈ 10 (of speech; the script may be shorter when news is scarce). */
export const documentaryLengths = ['short', 'medium', 'long'] as const;
export type DocumentaryLength = (typeof documentaryLengths)[number];

/** Most articles cited when the request does not say: enough stories for the length. */
export const defaultMaxArticles: Record<DocumentaryLength, number> = { short: 8, medium: 16, long: 30 };
export const maxArticlesLimit = 50;

export const topicLimits = { minCharacters: 2, maxCharacters: 200 } as const;

/** The language of a documentary whose request names none. */
export const defaultDocumentaryLanguage = 'en';

/** The period when date_range is absent: the last 7 days. */
export const defaultPeriodMs = 7 * 86_400_000;
/** The longest period a documentary may cover. */
export const maxPeriodMs = 366 * 86_400_000;
