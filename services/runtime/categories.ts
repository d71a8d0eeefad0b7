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

/** Words that, found in a feed's category label, place an article in one of ours. */
const synonyms: [Category, RegExp][] = [
  [
    'politics',
    /\b(politic\w*|election\w*|government|parliament|congress|senate|politik|política|politica)\b/i,
  ],
  [
    'business',
    /\b(business|economy|economic\w*|finance|financial|markets?|money|wirtschaft|economia|negócios|companies)\b/i,
  ],
  [
    'technology',
    /\b(tech|technology|technik|computing|internet|software|gadgets?|ai|it|tecnologia|security|games?|gaming)\b/i,
  ],
  ['science', /\b(science|wissenschaft|space|research|ciência|ciencia)\b/i],
  ['health', /\b(health|medicine|medical|gesundheit|saúde|salud|wellbeing)\b/i],
  ['sports', /\b(sports?|football|soccer|cricket|rugby|tennis|golf|nba|nfl|esportes?|deportes?)\b/i],
  [
    'entertainment',
    /\b(entertainment|arts?|culture|film|movies?|music|tv|television|celebrity|books|showbiz|kultur|entretenimento|podcasts?)\b/i,
  ],
  ['environment', /\b(environment|climate|nature|green|umwelt|meio ambiente)\b/i],
  ['world', /\b(world|international|global|europe|asia|africa|americas|middle east|mundo|welt|ausland)\b/i],
  ['general', /\b(news|general|top stories|headlines|uk|us|national|local|notícias|nachrichten)\b/i],
];

/** Maps a feed's category labels to ours; null when none of them says anything we recognise. */
export function categoryFromLabels(labels: readonly string[]): Category | null {
  for (const label of labels) {
    const trimmed = label.trim().toLowerCase();
    if (isCategory(trimmed)) return trimmed;
  }
  for (const [category, pattern] of synonyms) {
    if (labels.some((l) => pattern.test(l))) return category;
  }
  return null;
}
