// What a feed's HTTP response says beyond its body: how long it stays fresh (Cache-Control max-age,
// Expires; RFC 9111 §4.2.1) and the WebSub hubs it names in Link headers (RFC 8288; WebSub §4 lets
// a publisher advertise its hub in the header instead of the document).

export interface ResponseHints {
  /** How long the response may be reused, in ms; 0 for no-cache/no-store; null when the server says nothing. */
  freshForMs: number | null;
  /** rel="hub" targets of the Link headers, absolute http(s) URLs, without repeats. */
  hubs: string[];
  /** The rel="self" target (the WebSub topic), or null. */
  selfUrl: string | null;
}

export const noResponseHints: ResponseHints = { freshForMs: null, hubs: [], selfUrl: null };

/**
 * `now` reads Expires when the response has no Date; with one, Expires is read against it (the
 * difference is what the server meant, whatever our clocks say).
 */
export function freshnessOf(
  cacheControl: string | null,
  expires: string | null,
  date: string | null,
  now: number,
): number | null {
  if (cacheControl !== null) {
    const directives = cacheControl
      .toLowerCase()
      .split(',')
      .map((d) => d.trim());
    if (directives.some((d) => d === 'no-cache' || d === 'no-store')) return 0;
    for (const directive of directives) {
      const match = /^max-age\s*=\s*"?(\d{1,10})"?$/.exec(directive);
      if (match) return Number(match[1]) * 1000;
    }
  }
  if (expires === null) return null;
  const at = Date.parse(expires);
  // An invalid Expires (often "0" or "-1") means "already expired" (RFC 9111 §5.3).
  if (Number.isNaN(at)) return 0;
  const reference = date === null ? now : Date.parse(date);
  return Math.max(0, at - (Number.isNaN(reference) ? now : reference));
}

/** Link header values, each `<url>; rel="a b"; ...`, several per header or several headers. */
export function linkTargets(
  values: readonly string[],
  baseUrl: string,
): { hubs: string[]; selfUrl: string | null } {
  const hubs: string[] = [];
  let selfUrl: string | null = null;
  for (const value of values)
    for (const match of value.matchAll(/<([^>]*)>([^<]*)/g)) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]!);
      if (!rel) continue;
      const rels = (rel[1] ?? rel[2]!).toLowerCase().split(/\s+/);
      let url: string;
      try {
        url = new URL(match[1]!.trim(), baseUrl).href;
      } catch {
        continue;
      }
      if (!/^https?:/i.test(url)) continue;
      if (rels.includes('hub') && !hubs.includes(url)) hubs.push(url);
      if (rels.includes('self') && selfUrl === null) selfUrl = url;
    }
  return { hubs, selfUrl };
}
