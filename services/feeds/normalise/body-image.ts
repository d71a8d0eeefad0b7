// An item's picture when its feed names none in the places media.ts reads (enclosures, Media RSS,
// iTunes): the first image of its HTML, where many blogs and CMSs put the only one they have
// (`<description><![CDATA[<img src="…"> …]]>`). Left out: tracking pixels (a side of at most two
// pixels, the counters of feed services), emoji and smilies drawn as images, and data: URIs, which
// are no address to fetch.
import { decodeHTML } from 'entities';

/** How much of the HTML is searched: a picture that stands for the item comes near its start. */
const searchedCharacters = 20_000;
const imgTag = /<img\b[^>]{0,2000}>/gi;
const attributeOf = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  const value = match ? (match[1] ?? match[2] ?? match[3] ?? '') : null;
  return value === null ? null : decodeHTML(value).trim();
};

/** Addresses of counters and drawn emoji, never the item's picture. */
const notAPicture =
  /(?:feeds\.feedburner\.com\/~r|feedburner\.com\/~ff|stats\.wordpress\.com|pixel\.wp\.com|\/wp-includes\/images\/smilies\/|s\.w\.org\/images\/core\/emoji|\/emoji\/|[/._-](?:pixel|spacer|blank|tracking|beacon)\.(?:gif|png))/i;

/**
 * Where a lazily loaded image keeps its address: the script that loads it copies one of these into
 * `src`, which holds a placeholder until then (a data: URI, a blank GIF) or nothing.
 */
const lazyAttributes = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url'];

/**
 * An image tag's addresses, the likeliest picture first: a lazy loader's, then `src`, then the first
 * candidate of a `srcset` (the lazy loader's `data-srcset` first).
 */
function addressesOf(tag: string): string[] {
  const firstOfSet = (set: string | null) => set?.split(',')[0]?.trim().split(/\s+/)[0] ?? '';
  return [
    ...lazyAttributes.map((name) => attributeOf(tag, name)),
    attributeOf(tag, 'src'),
    firstOfSet(attributeOf(tag, 'data-srcset')),
    firstOfSet(attributeOf(tag, 'srcset')),
  ].filter((address): address is string => !!address);
}

/** The first picture of the HTML, as written (relative addresses are the caller's to resolve). */
export function firstImageOf(html: string | null | undefined): string | null {
  if (!html || !html.includes('<')) return null;
  for (const [tag] of html.slice(0, searchedCharacters).matchAll(imgTag)) {
    const src = addressesOf(tag).find((address) => !/^data:/i.test(address) && !notAPicture.test(address));
    if (!src) continue;
    const width = Number.parseInt(attributeOf(tag, 'width') ?? '', 10);
    const height = Number.parseInt(attributeOf(tag, 'height') ?? '', 10);
    if ((width >= 0 && width <= 2) || (height >= 0 && height <= 2)) continue;
    return src;
  }
  return null;
}
