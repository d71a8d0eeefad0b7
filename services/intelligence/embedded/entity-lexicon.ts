// What a name is known to be: compromise's English lexicon (first names, surnames, countries, cities,
// regions, well-known organisations, words that end organisation and place names) plus a few news
// names it lacks, and the small word lists names are built and introduced with (honorifics, job
// titles, "of"). Only compromise's lexicon is read, never its tagger: a lookup is a map access,
// where tagging a whole article with compromise costs ~15 ms.
import nlp from 'compromise';
import { countryAndContinentNames } from './name-clues.ts';
import { kindWithAnd } from './names-with-and.ts';

export type NameKind =
  | 'person'
  | 'firstName'
  | 'lastName'
  | 'organization'
  | 'place'
  /** Days, months: capitalised, but never (part of) a name. */
  | 'time'
  | 'notAName';

/** News names compromise's lexicon does not type (or types as a common word), from general knowledge. */
const newsNames: Record<string, NameKind> = {
  britain: 'place',
  'great britain': 'place',
  'northern ireland': 'place',
  europe: 'place',
  'middle east': 'place',
  'united kingdom': 'place',
  'united states': 'place',
  hollywood: 'place',
  // Cities the lexicon knows as people's names only ("Sydney", "Houston"), where news means the city.
  sydney: 'place',
  houston: 'place',
  adelaide: 'place',
  orlando: 'place',
  darwin: 'place',
  alexandria: 'place',
  santiago: 'place',
  sofia: 'place',
  florence: 'place',
  'new south wales': 'place',
  'south australia': 'place',
  'western australia': 'place',
  'wall street': 'place',
  'silicon valley': 'place',
  'downing street': 'place',
  westminster: 'place',
  whitehall: 'place',
  brussels: 'place',
  uk: 'place',
  us: 'place',
  usa: 'place',
  uae: 'place',
  eu: 'organization',
  'european union': 'organization',
  'european commission': 'organization',
  un: 'organization',
  'united nations': 'organization',
  nato: 'organization',
  imf: 'organization',
  wto: 'organization',
  opec: 'organization',
  'world bank': 'organization',
  'federal reserve': 'organization',
  fed: 'organization',
  'bank of england': 'organization',
  sec: 'organization',
  labour: 'organization',
  tories: 'organization',
  tory: 'organization',
  conservatives: 'organization',
  'conservative party': 'organization',
  'liberal democrats': 'organization',
  'lib dems': 'organization',
  democrats: 'organization',
  republicans: 'organization',
  'white house': 'organization',
  congress: 'organization',
  senate: 'organization',
  parliament: 'organization',
  'house of commons': 'organization',
  'house of lords': 'organization',
  commons: 'organization',
  'home office': 'organization',
  'foreign office': 'organization',
  treasury: 'organization',
  nhs: 'organization',
  amazon: 'organization',
  apple: 'organization',
  yahoo: 'organization',
  uefa: 'organization',
  'premier league': 'organization',
  // Capitalised words that are not names in news prose.
  internet: 'notAName',
  web: 'notAName',
  christmas: 'notAName',
  easter: 'notAName',
  tv: 'notAName',
  pc: 'notAName',
  pcs: 'notAName',
  ceo: 'notAName',
  mp: 'notAName',
  mps: 'notAName',
  ok: 'notAName',
  // Nationalities the lexicon lacks: "British hurdler Sarah Claxton" names a person, not Britain.
  british: 'notAName',
  english: 'notAName',
  scottish: 'notAName',
  welsh: 'notAName',
  irish: 'notAName',
  dutch: 'notAName',
  swiss: 'notAName',
  danish: 'notAName',
  swedish: 'notAName',
  finnish: 'notAName',
  polish: 'notAName',
  turkish: 'notAName',
  spanish: 'notAName',
};

const tagKinds: [string, NameKind][] = [
  ['Organization', 'organization'],
  ['SportsTeam', 'organization'],
  ['Company', 'organization'],
  ['Country', 'place'],
  ['City', 'place'],
  ['Region', 'place'],
  ['Place', 'place'],
  ['Person', 'person'],
  ['MaleName', 'firstName'],
  ['FemaleName', 'firstName'],
  ['FirstName', 'firstName'],
  ['LastName', 'lastName'],
  ['Month', 'time'],
  ['WeekDay', 'time'],
  ['Demonym', 'notAName'],
  ['Pronoun', 'notAName'],
  ['Honorific', 'notAName'],
];

interface Lexicon {
  words: Record<string, unknown>;
  orgWords: Set<string>;
  placeWords: Set<string>;
}

let lexicon: Lexicon | null = null;

function loaded(): Lexicon {
  if (lexicon) return lexicon;
  const model = nlp.model() as { one?: { lexicon?: Record<string, unknown> }; two?: Record<string, unknown> };
  lexicon = {
    words: model.one?.lexicon ?? {},
    orgWords: keysOf(model.two?.orgWords),
    placeWords: keysOf(model.two?.placeWords),
  };
  return lexicon;
}

function keysOf(value: unknown): Set<string> {
  return new Set(value && typeof value === 'object' ? Object.keys(value) : []);
}

let countries: Set<string> | undefined;
function englishCountries(): Set<string> {
  countries ??= new Set(countryAndContinentNames('en').map((n) => n.toLowerCase()));
  return countries;
}

/** Answers already worked out: the same few hundred words recur in every article. */
const known = new Map<string, NameKind | null>();

/** What a lowercase name ("tony", "new york", "bbc") is known as, or null when unknown. */
export function nameKind(name: string): NameKind | null {
  let kind = known.get(name);
  if (kind === undefined) {
    kind = lookUp(name);
    // Bounded: a long-running enricher meets an unbounded number of distinct names.
    if (known.size > 50_000) known.clear();
    known.set(name, kind);
  }
  return kind;
}

function lookUp(name: string): NameKind | null {
  const own = newsNames[name] ?? (name.includes('and') ? kindWithAnd(name) : null);
  if (own) return own;
  // Every country and continent by its English name (ICU's): the lexicon takes "Jordan" and "Chad" for
  // people and does not know "South Sudan".
  if (englishCountries().has(name)) return 'place';
  const tags = loaded().words[name];
  const list = Array.isArray(tags) ? tags.map(String) : typeof tags === 'string' ? [tags] : [];
  for (const [tag, kind] of tagKinds) if (list.includes(tag)) return kind;
  // Known to the lexicon but as an ordinary word ("labour" is a noun): not evidence of a name.
  return list.length > 0 ? 'notAName' : null;
}

/** Tags of the words that open a sentence before a name and are no part of it: "Meanwhile", "However". */
const adverbTags = new Set(['Adverb', 'Conjunction']);

/**
 * "meanwhile", "however", "later", "earlier": an adverb or conjunction, never a name's word. (The lexicon
 * calls "later" and "earlier" comparatives, as it does "Frank" and "Best", which are.)
 */
export function isAdverb(word: string): boolean {
  if (word === 'later' || word === 'earlier') return true;
  const tags = loaded().words[word];
  const list = Array.isArray(tags) ? tags.map(String) : typeof tags === 'string' ? [tags] : [];
  return list.length > 0 && list.every((tag) => adverbTags.has(tag));
}

/** "bank", "council", "airlines", "university": words organisation names are built with. */
export function isOrganizationWord(word: string): boolean {
  return organizationSuffixes.has(word) || loaded().orgWords.has(word);
}

/** "river", "island", "bay": words place names are built with. */
export function isPlaceWord(word: string): boolean {
  return loaded().placeWords.has(word);
}

const organizationSuffixes = set(`
  inc, corp, ltd, plc, llc, ag, sa, gmbh, group, party, fc, united, city, rovers, athletic,
  university, ministry, office, court, police, federation, league, union, records, studios,
  pictures, motors, airways, bros
`);

/** Titles that make the name after them a person's and are not part of it. */
export const honorifics = set(`
  mr, mrs, ms, miss, dr, sir, dame, lord, lady, prof, rev,
  sen, rep, gov, lt, col, maj, capt, sgt, cpl, adm, brig, cdr, cmdr, supt, insp, det, cllr
`);

/** Job titles: "Health Secretary John Reid", "President Bush", "Chief Executive Richard Parsons". */
export const roles = set(`
  president, minister, secretary, chancellor, chairman, chairwoman, chair, chief, executive,
  officer, director, leader, spokesman, spokeswoman, manager, coach, captain, governor, senator,
  congressman, congresswoman, king, queen, prince, princess, pope, judge, commissioner, mayor,
  ambassador, editor, professor, premier, boss, founder, analyst, economist, striker, midfielder,
  ceo, cfo, coo, cto, attorney, detective, inspector, sergeant, constable, superintendent, lieutenant,
  colonel, administrator, solicitor, treasurer, adviser, advisor, councillor, councilor, spokesperson,
  defender, goalkeeper, singer, actor, actress, producer,
  kanzler, kanzlerin, bundeskanzler, bundeskanzlerin, bundespräsident, bundespräsidentin, präsident,
  präsidentin, ministerpräsident, ministerpräsidentin, ministerin, außenminister, außenministerin,
  finanzminister, finanzministerin, wirtschaftsminister, wirtschaftsministerin, innenminister,
  innenministerin, verteidigungsminister, verteidigungsministerin, bürgermeister, bürgermeisterin,
  oberbürgermeister, oberbürgermeisterin, vorstandschef, vorstandschefin, konzernchef, konzernchefin,
  chef, chefin, sprecher, sprecherin, vorsitzende, vorsitzender, trainer, trainerin, direktor, direktorin
`);
/**
 * Lowercase words that describe the person named right after them, beside the job titles: "billionaire
 * Elon Musk", "striker Kylian Mbappé", "lawmaker Nancy Pelosi".
 */
export const personDescriptions = set(`
  billionaire, tycoon, entrepreneur, investor, rapper, lawmaker, activist, journalist, author, novelist,
  player, winger, forward, quarterback, commander, colonel, spokesperson, envoy, negotiator, prosecutor,
  lawyer, diplomat, businessman, businesswoman, philanthropist, dissident, star, strategist
`);
/* The German titles above are capitalised like every German noun, so they open the run of capitals a
   name is found in ("Vorstandschef Roland Busch"); other languages write theirs in lowercase. */

/** Lowercase words that may sit inside a name: "Bank of England", "Lord of the Rings". */
export const connectors = set(`
  of, of the, for, de, du, da, van, von, der, la, le, &
`);

/**
 * The particles of family names, alone or two or three in a row: "Ursula von der Leyen", "Alexander Van
 * der Bellen", "Mohammed bin Salman", "José Eduardo dos Santos", "Luis de la Fuente". Capitalised, they
 * open a name rather than stand before it: "Le Pen", "De Beers", "Van Gogh".
 */
export const nameParticles = set(`
  von, van, der, den, de, la, le, da, du, das, dos, do, del, della, ter, ten, zu, bin, ibn, al,
  фон, дер, ван, де, ди, бин, ибн
`);

/** First words of place names: "St Etienne", "Lake Geneva", "Mount Everest". */
export const placePrefixes = set(`
  st, saint, san, santa, lake, mount, port, fort, cape, gulf
`);

/** Comma-separated words, as they read best in this file. */
function set(text: string): Set<string> {
  return new Set(
    text
      .split(',')
      .map((w) => w.trim())
      .filter((w) => w.length > 0),
  );
}
