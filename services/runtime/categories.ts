// The category vocabulary of the API (an unknown category is a 400) and the
// mapping from the free-text categories feeds carry onto it.

export const categories = [
  'general',
  'world',
  'politics',
  'business',
  'technology',
  'science',
  'health',
  'sports',
  'entertainment',
  'environment',
] as const;

export type Category = (typeof categories)[number];

export const isCategory = (value: string): value is Category =>
  (categories as readonly string[]).includes(value);

// Words clients guess for a category, read as it (a Map: no prototype to find `constructor` on).
export const categoryAliases = new Map([
  ['sport', 'sports'],
  ['tech', 'technology'],
  ['economy', 'business'],
  ['finance', 'business'],
  ['climate', 'environment'],
  ['international', 'world'],
]);

/** The category a lower-case word names: itself, or the category of a word clients guess for one. */
export const categoryWord = (word: string): string => categoryAliases.get(word) ?? word;

/**
 * The words of feeds' section labels, by the category they place an article in. A word ending in "*"
 * is a prefix ("politic*": political, politics). Phrases are written with "_" for their space.
 */
const sectionWords: Record<Exclude<Category, 'general'>, string> = {
  politics: 'politic* election* government parliament congress senate politik política politica',
  business:
    'business economy economic* finance financial market markets money wirtschaft economia negócios companies',
  technology:
    'tech technology technik computing internet software gadget gadgets ai it tecnologia security games gaming',
  science: 'science wissenschaft space research ciência ciencia',
  health: 'health medicine medical gesundheit saúde salud wellbeing',
  sports:
    'sport sports football soccer cricket rugby tennis golf nba nfl nhl mlb baseball basketball hockey ' +
    'olympic olympics athletics boxing cycling motorsport f1 esporte esportes deporte deportes',
  entertainment:
    'entertainment art arts culture film films movie movies music tv television celebrity books showbiz ' +
    'kultur entretenimento podcast podcasts',
  environment: 'environment climate nature green umwelt meio_ambiente',
  world: 'world international global europe asia africa americas middle_east mundo welt ausland',
};

/** Words that say "news" and nothing more: the general section, when no other word names one. */
const generalWords = new Set(
  'news general top_stories headlines uk us national local notícias nachrichten'.split(' '),
);

/** Words a section's label carries besides its subject: "Climate crisis", "World affairs", "Tech & AI". */
const modifierWords = new Set(
  (
    'and or the of in on for a an latest breaking live today daily more section sections report reports ' +
    'analysis update updates crisis change policy affairs current y e und et de la el le les die der das'
  ).split(' '),
);

const phrases = /\b(top stories|middle east|meio ambiente)\b/giu;
const exact = new Map<string, Category>();
const prefixes: [string, Category][] = [];
for (const [category, words] of Object.entries(sectionWords) as [Category, string][]) {
  for (const word of words.split(' ')) {
    if (word.endsWith('*')) prefixes.push([word.slice(0, -1), category]);
    else exact.set(word, category);
  }
}

const categoryOfWord = (word: string): Category | undefined =>
  exact.get(word) ?? prefixes.find(([prefix]) => word.startsWith(prefix))?.[1];

/**
 * The category a label names when it is a section's label: each of its words names that category or
 * only qualifies it ("UK Politics", "Climate crisis", "World news"). A label with a word of its own
 * is a tag on the story, not a section, whatever category words it holds: "World Cup" is sports, not
 * world, "Olympic Games" not technology, "Green Bay Packers" not environment, "Code Health" on a
 * developers' site not health. Words of two categories ("Science & Tech") name neither.
 */
function sectionOf(label: string): Category | null {
  const words = label
    .toLowerCase()
    .replace(phrases, (phrase) => phrase.replace(' ', '_'))
    .match(/[\p{L}\p{N}_]+/gu);
  if (!words) return null;
  const named = new Set<Category>();
  let general = false;
  for (const word of words) {
    const category = categoryOfWord(word);
    if (category) named.add(category);
    else if (generalWords.has(word)) general = true;
    else if (!modifierWords.has(word)) return null;
  }
  if (named.size === 1) return [...named][0]!;
  return named.size === 0 && general ? 'general' : null;
}

/**
 * Maps a feed's category labels to ours (a label that is one of ours first, then the first section
 * label); null when none of them is a section we recognise, and the source's category stands. A label
 * that says only "news" ("US news", "General") is the general section only when no label names another:
 * the Guardian tags a politics story "US news", "US politics", and which came first had decided it.
 */
export function categoryFromLabels(labels: readonly string[]): Category | null {
  let general = false;
  for (const label of labels) {
    const trimmed = label.trim().toLowerCase();
    if (trimmed === 'general') general = true;
    else if (isCategory(trimmed)) return trimmed;
  }
  for (const label of labels) {
    const category = sectionOf(label);
    if (category === 'general') general = true;
    else if (category) return category;
  }
  return general ? 'general' : null;
}
