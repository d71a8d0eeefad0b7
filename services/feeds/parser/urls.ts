// Feed links are often relative (to xml:base, or to the site). Absolute links
// are returned exactly as written, so that the same article keeps the same URL
// across polls; only relative ones are resolved.

import { decodeHTMLStrict, escapeAttribute } from 'entities';

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const SCHEMELESS_HOST = /^www\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?=[/?#]|$)/;

export function isAbsoluteUrl(url: string): boolean {
  return ABSOLUTE.test(url);
}

function tryResolve(reference: string, base: string): string | null {
  try {
    return new URL(reference, base).href;
  } catch {
    return null;
  }
}

/**
 * Resolves a reference against the first usable base, innermost first (an
 * element's xml:base, then the feed's home page). A relative base is itself
 * resolved against the next one. Unresolvable references come back unchanged.
 */
export function resolveUrl(reference: string, ...bases: (string | null)[]): string {
  if (isAbsoluteUrl(reference)) return reference;
  const original = reference;
  // "www.example.com/a" is a host written without its scheme, never a path: it takes the base's scheme.
  if (SCHEMELESS_HOST.test(reference)) reference = `//${reference}`;
  let base: string | null = null;
  for (const candidate of [...bases].reverse()) {
    if (candidate === null || candidate === '') continue;
    base = base === null ? (isAbsoluteUrl(candidate) ? candidate : null) : tryResolve(candidate, base);
  }
  return base === null ? original : (tryResolve(reference, base) ?? original);
}

const TAG = /<[A-Za-z][^<>]*>/g;
const URL_ATTRIBUTE = /(\s(?:href|src|poster)\s*=\s*)(?:"([^"]*)"|'([^']*)')/gi;

/**
 * Resolves the relative href, src and poster values inside an HTML fragment
 * (summary, content) against `bases` as resolveUrl does: a reader shown the text
 * on another site needs "/images/a.png" to point at the publisher. Absolute
 * values, and every byte outside them, are left exactly as written, so a feed
 * with absolute links reads the same as before. Only inside tags, never in text.
 */
export function resolveHtmlUrls(html: string | null, ...bases: (string | null)[]): string | null {
  if (html === null || !bases.some((base) => base !== null && base !== '')) return html;
  return html.replace(TAG, (tag) =>
    tag.replace(URL_ATTRIBUTE, (whole, prefix: string, double?: string, single?: string) => {
      const raw = double ?? single ?? '';
      const value = decodeHTMLStrict(raw).trim();
      if (value === '' || value.startsWith('#') || isAbsoluteUrl(value)) return whole;
      const resolved = resolveUrl(value, ...bases);
      return resolved === value ? whole : `${prefix}"${escapeAttribute(resolved)}"`;
    }),
  );
}
