// The sources the demo registers: one live feed per corpus category (in turn
// RSS, Atom and JSON Feed, so every parser is on show) and every real feed
// snapshot, described as its publisher is. All are named "Demo: …" so they
// stand out among other sources in a shared stack.
import type { SourceInput } from '../sources/source.ts';
import type { FeedFormat } from './corpus.ts';

export const demoSourcePrefix = 'Demo: ';

type Described = Pick<SourceInput, 'category' | 'language' | 'country'> & { name: string; site_url: string };

/** The corpus's categories in the API's vocabulary. */
const liveCategories: Record<string, { category: SourceInput['category']; label: string }> = {
  business: { category: 'business', label: 'Business' },
  entertainment: { category: 'entertainment', label: 'Entertainment' },
  politics: { category: 'politics', label: 'Politics' },
  sport: { category: 'sports', label: 'Sport' },
  tech: { category: 'technology', label: 'Technology' },
};
const liveFormats: FeedFormat[] = ['rss', 'atom', 'json'];

/** Every real feed snapshot (services/feeds/parser/testdata/real), as its publisher would describe it. */
export const realFeedDescriptions: Record<string, Described> = {
  'content-encoded.rss': {
    name: 'Medium: Invironment, food',
    site_url: 'https://medium.com/invironment',
    category: 'environment',
    language: 'en',
    country: 'us',
  },
  'craigslist.rss': {
    name: 'craigslist SF bay area, apartments',
    site_url: 'https://sfbay.craigslist.org/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'encoding.rss': {
    name: 'Jornal de Notícias',
    site_url: 'http://www.jn.pt/',
    category: 'general',
    language: 'pt',
    country: 'pt',
  },
  'feedburner.atom': {
    name: 'Google Ads Developer Blog',
    site_url: 'https://ads-developers.googleblog.com/',
    category: 'technology',
    language: 'en',
    country: 'us',
  },
  'giantbomb-podcast.rss': {
    name: 'Giant Bombcast',
    site_url: 'https://www.giantbomb.com/',
    category: 'entertainment',
    language: 'en',
    country: 'us',
  },
  'guardian.rss': {
    name: 'The Guardian',
    site_url: 'https://www.theguardian.com/',
    category: 'general',
    language: 'en',
    country: 'gb',
  },
  'heise.atom': {
    name: 'heise developer',
    site_url: 'https://www.heise.de/developer/',
    category: 'technology',
    language: 'de',
    country: 'de',
  },
  'heraldsun.rss': {
    name: 'RSS 0.92 example',
    site_url: 'http://www.oreilly.com/example/',
    category: 'general',
    language: 'en',
    country: 'gb',
  },
  'incomplete-fields.atom': {
    name: 'An Atom feed with incomplete entries',
    site_url: 'https://github.com/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'instant-article.rss': {
    name: 'Instant Article Test',
    site_url: 'https://www.facebook.com/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'many-links.rss': {
    name: 'Google Testing Blog',
    site_url: 'https://testing.googleblog.com/',
    category: 'technology',
    language: 'en',
    country: 'us',
  },
  'missing-fields.atom': {
    name: 'GitHub releases (entries with an id only)',
    site_url: 'https://github.com/',
    category: 'technology',
    language: 'en',
    country: 'us',
  },
  'narro.rss': {
    name: 'foobar on Narro',
    site_url: 'http://on.narro.co/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'rdf-rss-1.rss': {
    name: 'Science (RSS 1.0)',
    site_url: 'http://science.sciencemag.org/',
    category: 'science',
    language: 'en',
    country: 'us',
  },
  'reddit-atom.rss': {
    name: 'reddit front page (Atom)',
    site_url: 'https://www.reddit.com/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'reddit.rss': {
    name: 'reddit front page (RSS)',
    site_url: 'https://www.reddit.com/',
    category: 'general',
    language: 'en',
    country: 'us',
  },
  'uolNoticias.rss': {
    name: 'UOL Notícias',
    site_url: 'https://noticias.uol.com.br/',
    category: 'general',
    language: 'pt',
    country: 'br',
  },
};

export interface DemoSourceOptions {
  /** Where the local feed server listens, e.g. http://127.0.0.1:8090 */
  feedServerUrl: string;
  /** Corpus categories the feed server releases. */
  liveCategories: readonly string[];
  /** Real snapshot file names the feed server serves. */
  realFeeds: readonly string[];
  /** Live feeds change every few seconds: poll them often. */
  livePollSeconds: number;
  /** Snapshots never change: a poll now and then shows conditional GETs at work. */
  snapshotPollSeconds: number;
}

export function demoSources(options: DemoSourceOptions): SourceInput[] {
  const live = options.liveCategories.map((corpusCategory, i): SourceInput => {
    const described = liveCategories[corpusCategory];
    if (!described) throw new Error(`no API category for the corpus category "${corpusCategory}"`);
    const format = liveFormats[i % liveFormats.length]!;
    return {
      name: `${demoSourcePrefix}BBC ${described.label} (live, ${format === 'json' ? 'JSON Feed' : format.toUpperCase()})`,
      feed_url: `${options.feedServerUrl}/live/${corpusCategory}.${format}`,
      site_url: `${options.feedServerUrl}/`,
      category: described.category,
      language: 'en',
      country: 'gb',
      poll_interval_seconds: options.livePollSeconds,
    };
  });
  const real = options.realFeeds.map((file): SourceInput => {
    const described = realFeedDescriptions[file];
    if (!described)
      throw new Error(`${file}: add it to realFeedDescriptions (services/demo/demo-sources.ts)`);
    return {
      ...described,
      name: `${demoSourcePrefix}${described.name}`,
      feed_url: `${options.feedServerUrl}/real/${file}`,
      poll_interval_seconds: options.snapshotPollSeconds,
    };
  });
  return [...live, ...real];
}
