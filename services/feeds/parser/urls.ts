// Feed links are often relative (to xml:base, or to the site). Absolute links
// are returned exactly as written, so that the same article keeps the same URL
// across polls; only relative ones are resolved.

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

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
  let base: string | null = null;
  for (const candidate of [...bases].reverse()) {
    if (candidate === null || candidate === '') continue;
    base = base === null ? (isAbsoluteUrl(candidate) ? candidate : null) : tryResolve(candidate, base);
  }
  return base === null ? reference : (tryResolve(reference, base) ?? reference);
}
