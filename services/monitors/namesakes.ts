// Names of other things that contain a word companies are called by: a title ("Prince of Orange"), a
// royal house ("House of Orange"), a state, an order, a revolution ("Orange Free State", "Orange
// Order", "Orange Revolution"), a region ("the Brazilian Amazon"). A monitored name found inside one
// is no mention of the company, whatever else the article says (rule 2e of mention-evidence.ts); the
// company beside it still is ("Orange said its network in Orange County held up").
//
// A table, not a rule: the press writes these names the same way every time, and what makes them
// names of something else (a prince, a river, a planet) is nowhere in their words. Places that end in
// a noun such names end in ("Orange County", "Apple Valley") or stand before a noun of the landscape
// ("Amazon basin") need no entry: mention-evidence.ts finds them. Lower case and folded, as token
// keys are; the words compare in any case ("prince of Orange").
import type { Span } from './mention-evidence.ts';
import type { Token } from './tokens.ts';

const namesakes = [
  // The Dutch royal house, and what was named after it.
  'house of orange',
  'orange free state',
  'orange lodge',
  'orange order',
  'orange revolution',
  'prince of orange',
  'princess of orange',
  'william of orange',
  // The river's region.
  'amazon region',
  'bolivian amazon',
  'brazilian amazon',
  'colombian amazon',
  'ecuadorian amazon',
  'peruvian amazon',
  // New York.
  'big apple',
  // The planet.
  'mars lander',
  'mars mission',
  'mars orbiter',
  'mars rover',
  // The mother of Jesus.
  'blessed virgin',
  'virgin mary',
];

/** Each namesake under each of its words, with that word's place in it. */
const byWord = new Map<string, { words: string[]; at: number }[]>();
for (const namesake of namesakes) {
  const words = namesake.split(' ');
  words.forEach((word, at) => {
    const entries = byWord.get(word);
    if (entries) entries.push({ words, at });
    else byWord.set(word, [{ words, at }]);
  });
}

const spaceOnly = /^[ \t\u00a0]+$/;

/** Whether the name at `span` is inside one of the namesakes, its words in one sentence. */
export function isInsideANamesake(tokens: readonly Token[], span: Span): boolean {
  const { sentence } = tokens[span.first]!;
  for (const { words, at } of byWord.get(tokens[span.first]!.base) ?? []) {
    const start = span.first - at;
    const end = start + words.length - 1;
    if (start < 0 || end < span.last) continue;
    const fits = (word: string, k: number) => {
      const token = tokens[start + k];
      if (!token || token.sentence !== sentence || (k > 0 && !spaceOnly.test(token.gap))) return false;
      // Only the last word may be possessive: "the Prince of Orange's court".
      return token.key === word || (start + k === end && token.base === word);
    };
    if (words.every(fits)) return true;
  }
  return false;
}
