// Builds default.opml from the openly licensed feed lists copied verbatim under origins/ (see
// docs/operations.md, "The bundled catalog"). Every feed URL comes from one of those lists; nothing here
// invents one. Run: `npx tsx services/sources/catalog/build-catalog.ts` (writes default.opml).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import type { Category } from '../../runtime/categories.ts';
import { attr as attribute, opmlParser, type Outline } from '../opml.ts';
import { isCountryCode, isLanguageCode, sourceIdFor } from '../source.ts';

const here = new URL('./', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, here), 'utf8');

export interface Origin {
  id: string;
  url: string;
  licence: string;
  commit: string;
  read: string;
}

export const origins: Origin[] = [
  {
    id: 'awesome-rss-feeds',
    url: 'https://github.com/plenaryapp/awesome-rss-feeds',
    licence: 'CC0-1.0',
    commit: '9ff012e43711d715b3415d81dca7ddc0d3483fc5',
    read: '2026-05-31',
  },
  {
    id: 'news-feed-list-of-countries',
    url: 'https://github.com/yavuz/news-feed-list-of-countries',
    licence: 'MIT',
    commit: '26a26b6ad1290c9c373b6e2e64eea95418fbe562',
    read: '2026-03-25',
  },
];

interface Entry {
  name: string;
  feedUrl: string;
  siteUrl: string | null;
  category: Category;
  language: string;
  country: string;
  origin: string;
}

// --- what is left out -------------------------------------------------------------------------------

/** Podcasts, video channels, aggregators, forums and personal blogs: not news publishers' feeds. */
const excludedHosts =
  /(^|\.)(youtube\.com|reddit\.com|news\.google\.com|news\.ycombinator\.com|libsyn\.com|libsynpro\.com|megaphone\.fm|acast\.com|simplecast\.com|spreaker\.com|podbean\.com|soundcloud\.com|relay\.fm|twit\.tv|art19\.com|whooshkaa\.com|gimletmedia\.com|wnyc\.org|tedcdn\.com|podcasts\.files\.bbci\.co\.uk|atp\.fm|songexploder\.net|daringfireball\.net|marco\.org|stratechery\.com|tim\.blog|wn\.com|123greetings\.com|blogspot\.com|fifplay\.com)$/i;
const excludedWords = /podcast|ideacast|\(audio\)|\bvideo\b|forums?\b|wishlist|request-for-proposals/i;
/** Entries whose feed is plainly another publication's (the list names one paper, links another's feed). */
const listSlips = new Set(['https://torontosun.com/feed/']);
/** Feeds that only work with a key or token. */
const needsKey = /[?&](api_?key|key|token|access_token)=/i;

const hostOf = (url: string) => new URL(url).hostname.toLowerCase();

/** Labels of a host that say who it is (not www, feeds, the TLD, ...). */
const meaningfulLabels = (host: string) =>
  host
    .split('.')
    .slice(0, -1)
    .filter(
      (l) => !/^(www\d?|m|en|rss|rssfeeds?|feeds?\d?|news|api|com|co|org|net|gov|ac|edu|data)$/.test(l),
    );

/** The list names a site and a feed: a feed on an unrelated host is a copy-paste slip in the list. */
const sameSite = (feedUrl: string, siteUrl: string | null) => {
  if (!siteUrl) return true;
  const feed = hostOf(feedUrl);
  if (/feedburner\.com$|feedsportal\.com$/.test(feed)) return true;
  const site = new Set(meaningfulLabels(hostOf(siteUrl)));
  return meaningfulLabels(feed).some((l) => site.has(l));
};

// --- language ---------------------------------------------------------------------------------------

/** The main language of each country the lists cover (ISO 3166-1 alpha-2 -> ISO 639-1). */
const countryLanguage: Record<string, string> = {
  af: 'fa',
  al: 'sq',
  ad: 'ca',
  ar: 'es',
  am: 'hy',
  au: 'en',
  at: 'de',
  az: 'az',
  be: 'nl',
  bd: 'bn',
  bg: 'bg',
  bs: 'en',
  ba: 'bs',
  by: 'be',
  bz: 'en',
  bm: 'en',
  bo: 'es',
  br: 'pt',
  bb: 'en',
  ca: 'en',
  ch: 'de',
  cl: 'es',
  cn: 'zh',
  cm: 'fr',
  cd: 'fr',
  co: 'es',
  cr: 'es',
  cu: 'es',
  ky: 'en',
  cy: 'el',
  cz: 'cs',
  de: 'de',
  dj: 'fr',
  dm: 'en',
  dk: 'da',
  do: 'es',
  dz: 'fr',
  ec: 'es',
  eg: 'ar',
  er: 'en',
  es: 'es',
  ee: 'et',
  et: 'am',
  fi: 'fi',
  fr: 'fr',
  ga: 'fr',
  gb: 'en',
  gh: 'en',
  gi: 'en',
  gn: 'fr',
  gm: 'en',
  gr: 'el',
  gt: 'es',
  gf: 'fr',
  gy: 'en',
  hk: 'zh',
  hr: 'hr',
  ht: 'fr',
  hu: 'hu',
  id: 'id',
  im: 'en',
  in: 'en',
  ie: 'en',
  ir: 'fa',
  iq: 'ar',
  is: 'is',
  il: 'he',
  it: 'it',
  jm: 'en',
  jo: 'ar',
  jp: 'ja',
  kz: 'ru',
  ke: 'en',
  kg: 'ru',
  kh: 'km',
  kn: 'en',
  kr: 'ko',
  lr: 'en',
  ly: 'ar',
  lk: 'en',
  lt: 'lt',
  lu: 'lb',
  lv: 'lv',
  ma: 'fr',
  mc: 'fr',
  md: 'ro',
  mg: 'fr',
  mv: 'dv',
  mx: 'es',
  mk: 'mk',
  mt: 'en',
  mm: 'my',
  me: 'sr',
  mq: 'fr',
  mu: 'fr',
  mw: 'en',
  my: 'ms',
  na: 'en',
  ne: 'fr',
  ng: 'en',
  ni: 'es',
  nl: 'nl',
  no: 'no',
  np: 'ne',
  nz: 'en',
  pk: 'en',
  pa: 'es',
  pe: 'es',
  ph: 'en',
  pl: 'pl',
  pr: 'es',
  pt: 'pt',
  ps: 'ar',
  pf: 'fr',
  ro: 'ro',
  ru: 'ru',
  sn: 'fr',
  sg: 'en',
  sb: 'en',
  sl: 'en',
  sm: 'it',
  so: 'so',
  rs: 'sr',
  sr: 'nl',
  sk: 'sk',
  si: 'sl',
  se: 'sv',
  tg: 'fr',
  th: 'th',
  tn: 'fr',
  tr: 'tr',
  ug: 'en',
  ua: 'uk',
  uy: 'es',
  us: 'en',
  uz: 'uz',
  ve: 'es',
  vi: 'en',
  vn: 'vi',
  ye: 'ar',
  za: 'en',
  zm: 'en',
  zw: 'en',
};

/** Publishers (by host) whose feed is known from the list's own title/site to be in another language. */
const hostLanguage: [RegExp, string][] = [
  [
    /(^|\.)(theguardian\.com|bbci\.co\.uk|nytimes\.com|thelocal\.com|riotimesonline\.com|brasilwire\.com)$/,
    'en',
  ],
  [
    /(^|\.)(mexiconewsdaily\.com|euroweeklynews\.com|parisstaronline\.com|japantimes\.co\.jp|japantoday\.com)$/,
    'en',
  ],
  [/(^|\.)(newsonjapan\.com|kyodonews\.net|themoscowtimes\.com|rt\.com|tass\.com|pravdareport\.com)$/, 'en'],
  [
    /(^|\.)(russia-insider\.com|hongkongfp\.com|thestandard\.com\.hk|hongkongnews\.net|thedailystar\.net)$/,
    'en',
  ],
  [
    /(^|\.)(bdnews24\.com|xinhuanet\.com|ecns\.cn|scmp\.com|jpost\.com|cyprus-mail\.com|thestar\.com\.my)$/,
    'en',
  ],
  [/(^|\.)(tribune\.com\.pk|nation\.com\.pk|thenews\.com\.pk|dvb\.no|myanmargazette\.net|axios\.com)$/, 'en'],
  [/(^|\.)(radio-canada\.ca|lapresse\.ca|journaldemontreal\.com|journaldequebec\.com|ledevoir\.com)$/, 'fr'],
  [
    /(^|\.)(lalibre\.be|dhnet\.be|rtbf\.be|7sur7\.be|lesoir\.be|24heures\.ch|tdg\.ch|letemps\.ch|rts\.ch)$/,
    'fr',
  ],
  [/(^|\.)(hespress\.com|elbotola\.com|hihi2\.com|shorouknews\.com|djelfa\.info)$/, 'ar'],
  [/(^|\.)(loksatta\.com|maharashtratimes\.com|lokmat\.news18\.com)$/, 'mr'],
  [
    /(^|\.)(censor\.net\.ua|korrespondent\.net|k\.img\.com\.ua|comments\.ua|vesti\.ua|telegraf\.com\.ua)$/,
    'ru',
  ],
  [/(^|\.)(gordonua\.com|kp\.ua|obozrevatel\.com)$/, 'ru'],
  [
    /(^|\.)(navbharattimes\.indiatimes\.com|jansatta\.com|livehindustan\.com|patrika\.com|bhaskar\.com)$/,
    'hi',
  ],
  [/(^|\.)(jagran\.com|amarujala\.com)$/, 'hi'],
  [/(^|\.)(gujaratsamachar\.com)$/, 'gu'],
  [/(^|\.)(urdupoint\.com)$/, 'ur'],
];

/** Language markers in a feed URL (an English edition, a Russian-language version, ...). */
const urlLanguage: [RegExp, string][] = [
  [
    /\/(en|eng|english)(\/|\.|$)|[._-](en|eng)\.(rss|xml)|[?&]lang=en\b|^https?:\/\/(en|english)\.|rss-en|\/en-/i,
    'en',
  ],
  [/\/(ru|rus)(\/|$)|[._](ru|rus)\.(rss|xml)|news_rus?\b|\/ru\//i, 'ru'],
  [/\/fr\/|[?&]lang=fr\b/i, 'fr'],
  [/\/kaz\//i, 'kk'],
  [/^https?:\/\/amharic\./i, 'am'],
  [/^https?:\/\/uz\./i, 'uz'],
  [/voasomali/i, 'so'],
  [/^https?:\/\/pa\.azadiradio/i, 'ps'],
];

/** The language a title's script says, where the script belongs to one language in that country. */
const scriptLanguage = (title: string, country: string): string | null => {
  if (/[\u3040-\u30ff]/.test(title)) return 'ja';
  if (/[\uac00-\ud7af]/.test(title)) return 'ko';
  if (/[\u4e00-\u9fff]/.test(title)) return country === 'jp' ? 'ja' : 'zh';
  if (/[\u0980-\u09ff]/.test(title)) return 'bn';
  if (/[\u0a80-\u0aff]/.test(title)) return 'gu';
  if (/[\u0900-\u097f]/.test(title)) return country === 'np' ? 'ne' : 'hi';
  if (/[\u0b80-\u0bff]/.test(title)) return 'ta';
  if (/[\u0e00-\u0e7f]/.test(title)) return 'th';
  if (/[\u0590-\u05ff]/.test(title)) return 'he';
  if (/[\u0600-\u06ff]/.test(title))
    return country === 'ir' || country === 'af' ? 'fa' : country === 'pk' ? 'ur' : 'ar';
  if (/[\u0400-\u04ff]/.test(title)) {
    if (country === 'ua') return /[іїєґ]/i.test(title) ? 'uk' : 'ru';
    if (['bg', 'mk', 'rs', 'me', 'by', 'kz', 'kg'].includes(country)) return null;
    return 'ru';
  }
  return null;
};

const languageFor = (title: string, feedUrl: string, country: string, given?: string): string => {
  const host = hostOf(feedUrl);
  for (const [pattern, language] of hostLanguage) if (pattern.test(host)) return language;
  for (const [pattern, language] of urlLanguage) if (pattern.test(feedUrl)) return language;
  return scriptLanguage(title, country) ?? given ?? countryLanguage[country] ?? 'en';
};

// --- category ---------------------------------------------------------------------------------------

/** Section words in a feed's title or URL path, in the languages of the lists. */
const sectionWords: [Category, RegExp][] = [
  ['sports', /\b(sports?|deportes?|esportes?|cricket|football|soccer|tennis|calcio|fu(ss|ß)ball)\b/i],
  [
    'business',
    /\b(business|economy|economia|economía|finance|financial|markets?|money|wirtschaft|negocios|mercado)\b/i,
  ],
  ['technology', /\b(tech|technology|tecnolog[ií]a|sci-tech|gadgets?)\b/i],
  ['science', /\b(science|ciencia|scienza|wissenschaft)\b/i],
  ['health', /\b(health|medicine|salud|saúde|santé|gesundheit)\b/i],
  ['entertainment', /\b(entertainment|showbiz|movies?|bollywood|celebrity|music|television|tv)\b/i],
  ['politics', /\b(politics|pol[ií]tica|politique|politik|playbook)\b/i],
  ['environment', /\b(environment|climate|clima)\b/i],
  ['world', /\b(world(?!')|international|internacional|ausland)\b/i],
];

const sectionOf = (...texts: string[]): Category | null => {
  for (const [category, pattern] of sectionWords) if (texts.some((t) => pattern.test(t))) return category;
  return null;
};

/**
 * The section a feed title names: "BBC Sport - Cricket", "Space | The Guardian", "NYT > Science". Only a
 * part of a short title that starts with the section word counts, so "Noticias de Jalisco, Deportes &
 * Entretenimiento" or a slogan listing every section names none.
 */
const titleSection = (title: string): Category | null => {
  const parts = title.split(/\s+[-–|:>]+\s+|\s*::\s*/).map((p) => p.replace(/^(top|latest)\s+/i, ''));
  if (parts.length > 3) return null;
  for (const part of parts) {
    const category = sectionOf(part.split(/\s+/).slice(0, 1).join(' '));
    if (category) return category;
  }
  return null;
};

/**
 * The section a publisher's host name is about, from a few stems that name one section only wherever they
 * stand in a host ("skysports", "techcrunch", "moneycontrol", "elfinanciero"). Only when title and path
 * name none; "world" is left out ("bworldonline" is a business paper).
 */
const hostStems: [Category, RegExp][] = [
  ['sports', /sport/],
  ['technology', /(^|[.-])tech|tech(crunch|central|radar)/],
  ['business', /money|financ|business|econom/],
  ['politics', /politic/],
];
const hostSection = (url: string): Category | null => {
  const host = hostOf(url);
  for (const [category, pattern] of hostStems) if (pattern.test(host)) return category;
  return null;
};

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname} ${u.search}`.replace(/[/_.?=&-]+/g, ' ');
};

// --- names ------------------------------------------------------------------------------------------

const decode = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

const nameOf = (...candidates: (string | undefined)[]) => {
  const name = candidates.map((c) => decode(c ?? '')).find((c) => c.length > 0 && !/^https?:\/\//.test(c));
  return name ? (name.length > 200 ? `${name.slice(0, 199)}…` : name) : undefined;
};

// --- origin: awesome-rss-feeds (CC0-1.0) ------------------------------------------------------------

const feedOutlines = (file: string): Outline[] => {
  const doc = opmlParser.parse(read(file)) as { opml: { body: { outline?: Outline[] } } };
  const all: Outline[] = [];
  const walk = (list: Outline[] | undefined) => {
    for (const o of list ?? []) {
      if (attribute(o, 'xmlUrl')) all.push(o);
      else walk(o.outline);
    }
  };
  walk(doc.opml.body.outline);
  return all;
};

/** The country files of awesome-rss-feeds (countries/with_category/<Country>.opml). */
const awesomeCountries: Record<string, string> = {
  Australia: 'au',
  Bangladesh: 'bd',
  Brazil: 'br',
  Canada: 'ca',
  France: 'fr',
  Germany: 'de',
  'Hong Kong SAR China': 'hk',
  India: 'in',
  Indonesia: 'id',
  Iran: 'ir',
  Ireland: 'ie',
  Italy: 'it',
  Japan: 'jp',
  Mexico: 'mx',
  'Myanmar (Burma)': 'mm',
  Nigeria: 'ng',
  Pakistan: 'pk',
  Philippines: 'ph',
  Poland: 'pl',
  Russia: 'ru',
  'South Africa': 'za',
  Spain: 'es',
  Ukraine: 'ua',
  'United Kingdom': 'gb',
  'United States': 'us',
};

/** The topic files used from awesome-rss-feeds/recommended and the category each maps to. */
const awesomeTopics: Record<string, Category> = {
  News: 'world',
  'Business & Economy': 'business',
  Science: 'science',
  Space: 'science',
  Tech: 'technology',
  Apple: 'technology',
  Android: 'technology',
  Sports: 'sports',
  Cricket: 'sports',
  Football: 'sports',
  Tennis: 'sports',
  Movies: 'entertainment',
  Music: 'entertainment',
  Television: 'entertainment',
};

/**
 * The topic lists name no country: the publisher's home country is taken from a country-code TLD, from
 * this table for well-known publishers, and is `us` otherwise (see docs/operations.md).
 */
const publisherCountry: [RegExp, string][] = [
  [
    /(^|\.)(bbci\.co\.uk|theguardian\.com|skynews\.com|newscientist\.com|football365\.com|wisden\.com)$/,
    'gb',
  ],
  [/(^|\.)(goal\.com|gsmarena\.com)$/, 'gb'],
  [
    /(^|\.)(ndtv\.com|economictimes\.indiatimes\.com|timesofindia\.indiatimes\.com|business-standard\.com|sportskeeda\.com)$/,
    'in',
  ],
  [/(^|\.)(nature\.com)$/, 'gb'],
  [/(^|\.)(thenextweb\.com)$/, 'nl'],
];
const ccTld = (host: string) => {
  const tld = host.split('.').pop()!;
  if (tld === 'uk') return 'gb';
  return tld.length === 2 && isCountryCode(tld) && !['io', 'co', 'fm', 'tv', 'me', 'ly', 'ai'].includes(tld)
    ? tld
    : null;
};
const countryOfPublisher = (feedUrl: string, siteUrl: string | null) => {
  const hosts = [hostOf(feedUrl), ...(siteUrl ? [hostOf(siteUrl)] : [])];
  for (const host of hosts)
    for (const [pattern, country] of publisherCountry) if (pattern.test(host)) return country;
  return hosts.map(ccTld).find((c) => c !== null) ?? 'us';
};

const fromAwesome = (): Entry[] => {
  const entries: Entry[] = [];
  for (const file of readdirSync(new URL('origins/awesome-rss-feeds/countries/', here)).sort()) {
    const country = awesomeCountries[file.replace(/\.opml$/, '')];
    if (!country) throw new Error(`awesome-rss-feeds: no country for ${file}`);
    for (const o of feedOutlines(`origins/awesome-rss-feeds/countries/${file}`)) {
      const feedUrl = attribute(o, 'xmlUrl')!;
      const siteUrl = attribute(o, 'htmlUrl') ?? null;
      const name = nameOf(attribute(o, 'title'), attribute(o, 'text'), attribute(o, 'description'));
      entries.push({
        name: name ?? hostOf(feedUrl).replace(/^www\./, ''),
        feedUrl,
        siteUrl,
        category: titleSection(name ?? '') ?? sectionOf(pathOf(feedUrl)) ?? hostSection(feedUrl) ?? 'general',
        language: languageFor(name ?? '', feedUrl, country),
        country,
        origin: 'awesome-rss-feeds',
      });
    }
  }
  for (const [topic, category] of Object.entries(awesomeTopics)) {
    for (const o of feedOutlines(`origins/awesome-rss-feeds/recommended/${topic}.opml`)) {
      const feedUrl = attribute(o, 'xmlUrl')!;
      const siteUrl = attribute(o, 'htmlUrl') ?? null;
      const name = nameOf(attribute(o, 'title'), attribute(o, 'text'), attribute(o, 'description'));
      const country = countryOfPublisher(feedUrl, siteUrl);
      entries.push({
        name: name ?? hostOf(feedUrl).replace(/^www\./, ''),
        feedUrl,
        siteUrl,
        category,
        language: languageFor(name ?? '', feedUrl, country, 'en'),
        country,
        origin: 'awesome-rss-feeds',
      });
    }
  }
  return entries;
};

// --- origin: news-feed-list-of-countries (MIT) ------------------------------------------------------

/** ISO 3166-1 alpha-3 (the list's keys) -> alpha-2. GLOBAL (no country) and XKK (Kosovo, no code) are left out. */
const alpha2: Record<string, string> = {
  AFG: 'af',
  ALB: 'al',
  AND: 'ad',
  ARG: 'ar',
  ARM: 'am',
  AUS: 'au',
  AUT: 'at',
  AZE: 'az',
  BEL: 'be',
  BGD: 'bd',
  BGR: 'bg',
  BHS: 'bs',
  BIH: 'ba',
  BLR: 'by',
  BLZ: 'bz',
  BMU: 'bm',
  BOL: 'bo',
  BRA: 'br',
  BRB: 'bb',
  CAN: 'ca',
  CHE: 'ch',
  CHL: 'cl',
  CHN: 'cn',
  CMR: 'cm',
  COD: 'cd',
  COL: 'co',
  CRI: 'cr',
  CUB: 'cu',
  CYM: 'ky',
  CYP: 'cy',
  CZE: 'cz',
  DEU: 'de',
  DJI: 'dj',
  DMA: 'dm',
  DNK: 'dk',
  DOM: 'do',
  DZA: 'dz',
  ECU: 'ec',
  EGY: 'eg',
  ERI: 'er',
  ESP: 'es',
  EST: 'ee',
  ETH: 'et',
  FIN: 'fi',
  FRA: 'fr',
  GAB: 'ga',
  GBR: 'gb',
  GHA: 'gh',
  GIB: 'gi',
  GIN: 'gn',
  GMB: 'gm',
  GRC: 'gr',
  GTM: 'gt',
  GUF: 'gf',
  GUY: 'gy',
  HKG: 'hk',
  HRV: 'hr',
  HTI: 'ht',
  HUN: 'hu',
  IDN: 'id',
  IMN: 'im',
  IND: 'in',
  IRL: 'ie',
  IRN: 'ir',
  IRQ: 'iq',
  ISL: 'is',
  ISR: 'il',
  ITA: 'it',
  JAM: 'jm',
  JOR: 'jo',
  JPN: 'jp',
  KAZ: 'kz',
  KEN: 'ke',
  KGZ: 'kg',
  KHM: 'kh',
  KNA: 'kn',
  KOR: 'kr',
  LBR: 'lr',
  LBY: 'ly',
  LKA: 'lk',
  LTU: 'lt',
  LUX: 'lu',
  LVA: 'lv',
  MAR: 'ma',
  MCO: 'mc',
  MDA: 'md',
  MDG: 'mg',
  MDV: 'mv',
  MEX: 'mx',
  MKD: 'mk',
  MLT: 'mt',
  MMR: 'mm',
  MNE: 'me',
  MTQ: 'mq',
  MUS: 'mu',
  MWI: 'mw',
  MYS: 'my',
  NAM: 'na',
  NER: 'ne',
  NGA: 'ng',
  NIC: 'ni',
  NLD: 'nl',
  NOR: 'no',
  NPL: 'np',
  NZL: 'nz',
  PAK: 'pk',
  PAN: 'pa',
  PER: 'pe',
  PHL: 'ph',
  POL: 'pl',
  PRI: 'pr',
  PRT: 'pt',
  PSE: 'ps',
  PYF: 'pf',
  ROU: 'ro',
  RUS: 'ru',
  SEN: 'sn',
  SGP: 'sg',
  SLB: 'sb',
  SLE: 'sl',
  SMR: 'sm',
  SOM: 'so',
  SRB: 'rs',
  SUR: 'sr',
  SVK: 'sk',
  SVN: 'si',
  SWE: 'se',
  TGO: 'tg',
  THA: 'th',
  TUN: 'tn',
  TUR: 'tr',
  UGA: 'ug',
  UKR: 'ua',
  URY: 'uy',
  USA: 'us',
  UZB: 'uz',
  VEN: 've',
  VIR: 'vi',
  VNM: 'vn',
  YEM: 'ye',
  ZAF: 'za',
  ZMB: 'zm',
  ZWE: 'zw',
};

interface Publication {
  publication_name: string;
  publication_website_uri?: string;
  publication_rss_feed_uri: string;
  category?: string;
}

const fromNewsFeedList = (): Entry[] => {
  const list = JSON.parse(
    read('origins/news-feed-list-of-countries/active-feeds-auto-generated.json'),
  ) as Record<string, Publication[]>;
  const entries: Entry[] = [];
  for (const [code, publications] of Object.entries(list)) {
    const country = alpha2[code];
    if (!country) continue;
    for (const p of publications) {
      const section = p.category?.trim();
      const base = nameOf(p.publication_name) ?? hostOf(p.publication_rss_feed_uri);
      const name = nameOf(section ? `${base} - ${section}` : base)!;
      entries.push({
        name,
        feedUrl: p.publication_rss_feed_uri,
        siteUrl: p.publication_website_uri ?? null,
        category:
          sectionOf(section ?? '') ??
          titleSection(base) ??
          sectionOf(pathOf(p.publication_rss_feed_uri)) ??
          hostSection(p.publication_rss_feed_uri) ??
          'general',
        language: languageFor(name, p.publication_rss_feed_uri, country),
        country,
        origin: 'news-feed-list-of-countries',
      });
    }
  }
  return entries;
};

// --- the catalog ------------------------------------------------------------------------------------

/** At most this many feeds of one host, so that one publisher's city editions do not crowd out others. */
const perHost = 6;

export function buildCatalog(): Entry[] {
  const kept = new Map<string, Entry>();
  for (const entry of [...fromAwesome(), ...fromNewsFeedList()]) {
    const canonical = canonicalUrl(entry.feedUrl);
    if (!canonical || listSlips.has(canonical)) continue;
    const host = hostOf(canonical);
    if (excludedHosts.test(host) || (entry.siteUrl && excludedHosts.test(hostOf(entry.siteUrl)))) continue;
    if (excludedWords.test(`${entry.name} ${canonical}`) || needsKey.test(canonical)) continue;
    if (!sameSite(canonical, entry.siteUrl)) continue;
    if (!isLanguageCode(entry.language) || !isCountryCode(entry.country)) continue;
    const siteUrl = entry.siteUrl && canonicalUrl(entry.siteUrl);
    const id = sourceIdFor(canonical);
    const previous = kept.get(id);
    if (previous) {
      // The same feed in two lists: one entry, with the more specific category.
      if (previous.category === 'general' && entry.category !== 'general') previous.category = entry.category;
      continue;
    }
    kept.set(id, { ...entry, feedUrl: canonical, siteUrl: siteUrl ?? null });
  }
  // Per host, sections with a category of their own first (each category once before any twice, so a
  // host's only health feed is not crowded out by its fifth business one), then the general ones, up to
  // the cap.
  const byHost = new Map<string, Entry[]>();
  for (const e of kept.values()) byHost.set(hostOf(e.feedUrl), [...(byHost.get(hostOf(e.feedUrl)) ?? []), e]);
  return [...byHost.values()].flatMap((list) =>
    [
      ...spreadOverCategories(list.filter((e) => e.category !== 'general')),
      ...list.filter((e) => e.category === 'general'),
    ].slice(0, perHost),
  );
}

/** Entries reordered so that the n-th of every category comes before the (n+1)-th of any; stable otherwise. */
function spreadOverCategories(entries: Entry[]): Entry[] {
  const seen = new Map<string, number>();
  return entries
    .map((entry, index) => {
      const nth = seen.get(entry.category) ?? 0;
      seen.set(entry.category, nth + 1);
      return { entry, index, nth };
    })
    .sort((a, b) => a.nth - b.nth || a.index - b.index)
    .map(({ entry }) => entry);
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function catalogOpml(entries: Entry[]): string {
  const byCategory = new Map<string, Entry[]>();
  for (const e of entries) byCategory.set(e.category, [...(byCategory.get(e.category) ?? []), e]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<!-- The default source catalog: real publishers' public feeds, spread over categories, languages and",
    '     countries. Imported by `npm start` when news.sources.v1 is empty; validated by',
    '     services/sources/catalog/catalog.test.ts. Generated by services/sources/catalog/build-catalog.ts',
    '     from the lists under services/sources/catalog/origins/; do not edit by hand.',
    '     Attributes beyond OPML 2.0: language (ISO 639-1), country (ISO 3166-1 alpha-2, lowercase),',
    '     pollInterval (seconds), origin (the list the feed comes from).',
    '     Origins:',
    ...origins.map((o) => `       ${o.id}: ${o.url} (${o.licence}, commit ${o.commit.slice(0, 12)})`),
    '-->',
    '<opml version="2.0">',
    '  <head>',
    '    <title>News intelligence: default sources</title>',
    '  </head>',
    '  <body>',
  ];
  for (const category of [...byCategory.keys()].sort()) {
    lines.push(`    <outline text="${category}" title="${category}">`);
    const sorted = byCategory
      .get(category)!
      .sort(
        (a, b) =>
          a.country.localeCompare(b.country) ||
          a.name.localeCompare(b.name) ||
          a.feedUrl.localeCompare(b.feedUrl),
      );
    for (const e of sorted) {
      const name = escape(e.name);
      const site = e.siteUrl ? ` htmlUrl="${escape(e.siteUrl)}"` : '';
      lines.push(
        `      <outline type="rss" text="${name}" title="${name}" xmlUrl="${escape(e.feedUrl)}"${site} category="/${e.category}" language="${e.language}" country="${e.country}" pollInterval="900" origin="${e.origin}"/>`,
      );
    }
    lines.push('    </outline>');
  }
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const entries = buildCatalog();
  writeFileSync(new URL('default.opml', here), catalogOpml(entries));
  const count = (key: keyof Entry) => new Set(entries.map((e) => e[key])).size;
  process.stdout.write(
    `${entries.length} feeds, ${count('country')} countries, ${count('language')} languages, ${count('category')} categories\n`,
  );
  for (const o of origins)
    process.stdout.write(`  ${o.id}: ${entries.filter((e) => e.origin === o.id).length}\n`);
}
