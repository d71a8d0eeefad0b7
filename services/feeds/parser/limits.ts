// Bounds on what one feed may cost to parse. Every real feed seen so far is far
// below them (the largest test feed, a 730-episode podcast, is 1.6 MB); they
// exist so that a hostile or broken source costs a rejection, not the poller.

/**
 * Bodies above this are refused before decoding. Large podcast feeds reach a few
 * MB; parsing costs roughly 0.2-0.5 s per MB of XML, so this caps one parse at a few seconds.
 */
export const MAX_FEED_BYTES = 10 * 1024 * 1024;

/** Feeds with more items than this are refused rather than truncated. */
export const MAX_ITEMS = 20_000;

/** Deepest element nesting accepted (real feeds, inline XHTML included, stay under 30). */
export const MAX_XML_DEPTH = 100;

/** How much of the decoded text is inspected to tell binary data from a document. */
export const SNIFF_CHARS = 1024;

/**
 * An item's addresses (its link, image, enclosure, its publisher's home page) longer than this are
 * dropped (item-bounds.ts). Servers refuse request lines past 8 KiB (Apache's default is 8,190 bytes),
 * so such a link opens nothing, while its megabytes would push the article's event past what one Kafka
 * record may be.
 */
export const MAX_URL_CHARS = 8_192;

/** Guids longer than this are dropped: the item is then known by its link (item-bounds.ts). */
export const MAX_GUID_CHARS = 2_048;
