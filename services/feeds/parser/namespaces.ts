// Elements are matched by namespace URI, not by prefix: feeds bind the same
// namespace to different prefixes (encoding.rss uses "atom10:link"), and the
// same prefix never guarantees the same vocabulary.

export const NS = {
  none: '',
  xml: 'http://www.w3.org/XML/1998/namespace',
  atom: 'http://www.w3.org/2005/Atom',
  rss1: 'http://purl.org/rss/1.0/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  content: 'http://purl.org/rss/1.0/modules/content/',
  media: 'http://search.yahoo.com/mrss/',
  itunes: 'http://www.itunes.com/dtds/podcast-1.0.dtd',
  enc: 'http://purl.oclc.org/net/rss_2.0/enc#',
  xhtml: 'http://www.w3.org/1999/xhtml',
  feedburner: 'http://rssnamespace.org/feedburner/ext/1.0',
  sy: 'http://purl.org/rss/1.0/modules/syndication/',
} as const;

// Variants that mean the same vocabulary for our purposes. RSS 2.0 has no
// namespace, but some feeds declare a historical one; RSS 0.90 uses the RSS 1.0
// element names; Atom 0.3 is read by the Atom adapter with its old date names.
// Matching ignores case: feeds write "http://www.itunes.com/DTDs/Podcast-1.0.dtd".
const ALIASES: ReadonlyArray<readonly [string, string]> = [
  ['http://backend.userland.com/rss2', NS.none],
  ['http://blogs.law.harvard.edu/tech/rss', NS.none],
  ['http://my.netscape.com/rdf/simple/0.9/', NS.rss1],
  ['http://purl.org/atom/ns#', NS.atom],
  ['http://search.yahoo.com/mrss', NS.media],
  ['http://tools.search.yahoo.com/mrss/', NS.media],
  ['http://purl.org/dc/elements/1.0/', NS.dc],
];

const CANONICAL: ReadonlyMap<string, string> = new Map([
  ...Object.values(NS).map((uri): [string, string] => [uri.toLowerCase(), uri]),
  ...ALIASES.map(([alias, uri]): [string, string] => [alias.toLowerCase(), uri]),
]);

export function canonicalNamespace(uri: string): string {
  return CANONICAL.get(uri.toLowerCase()) ?? uri;
}

// Broken feeds use these prefixes without declaring them; guessing is better
// than losing the author or the content.
export const UNDECLARED_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['xml', NS.xml],
  ['atom', NS.atom],
  ['rdf', NS.rdf],
  ['dc', NS.dc],
  ['dcterms', NS.dcterms],
  ['content', NS.content],
  ['media', NS.media],
  ['itunes', NS.itunes],
  ['feedburner', NS.feedburner],
  ['xhtml', NS.xhtml],
]);
