// When an ambiguous name (an English word, or very short: "Next", "Shell", "Apple", "Gap") found
// in an article is a mention of the company. The rule, per monitor and article:
//
// 1. Only capitalised occurrences count: every word of the name starts with a capital ("Shell",
//    "Red Bull"; "Bank of America" may keep "of" lower case). "a shell company", "apple pie",
//    "next week", "the pay gap" never count, whatever else the article says.
// 2. A capitalised occurrence is accepted outright when it is used as a proper noun:
//    a. it is in a sentence written in sentence case (not a Title Case headline or a list of names);
//    b. it is not a one-word name at the start of a sentence, where every word is capitalised
//       ("Shell said ..." is not enough on its own; "Red Bull said ..." is, "Bull" being capitalised),
//       unless the words after it are a company's news (rule 2g);
//    c. it does not continue another name: the word just before it, with only a space between, is
//       not a capitalised word ("Liam Fox", "BBC News", "Like A Virgin", "Mr Fox") unless that word
//       is a possessive ("France's Total") or an ordinary word capitalised only because it starts the
//       sentence ("Rival Shell ...", "The Sun ..."; never an honorific: "Dr Fox");
//    d. it does not begin a longer name of its own: it is not followed by "of" and a capitalised
//       word ("News of the World"), nor by capitalised words whose initials spell an acronym written
//       beside them ("Tara (Total Abstract Rendering Architecture)"). A company's name before other
//       capitalised words is still a mention: "Apple Powerbook", "Spar European Championships".
//    e. whatever else the article says, and for every name, ambiguous or not: it does not name a place.
//       It is not the first word of a place's or an institution's name ("Orange County", "Shell
//       Beach", "Ford Foundation", "Apple Valley", "Target Field"): the word after it, capitalised, is
//       one of the nouns such names end in (placeNouns), so the two are one name of something else
//       (the company's own products and units do not end so: "Apple Watch", "Shell Energy", "Ford
//       Motor"); nor followed by a noun of the landscape, in any case ("Amazon rainforest", "Amazon
//       basin": landscapeNouns); nor a one-word name after "the" that ends there ("fires in the
//       Amazon.", "the Amazon rainforest"; "the Amazon deal" still counts); nor inside a name of
//       something else that the press writes the same way every time ("Prince of Orange", "Orange
//       Free State", "the Brazilian Amazon": namesakes.ts).
//    f. an ambiguous name is not its word's common sense before a noun that gives it that sense, in any
//       case ("Apple growers", "Orange Groves Lose Fruit"; commonSenseNouns): the
//       company's own units and products do not go so ("Apple Music", "Orange Business").
//    g. a one-word name opening a sentence is accepted when the words after it are what a company
//       does: "Orange said ...", or "Next reported ..." in a sentence about shares, sales or jobs
//       (company-news.ts); not where the article writes the same name as part of someone's name
//       ("Liam Fox ... Fox said": endsAnotherName), since there it is that person's name alone.
// 3. Otherwise capitalised occurrences are accepted when the article corroborates them (see
//    company-matcher.ts): one of them is followed by a legal form ("Next plc", "Gap Inc.", "Shell
//    Group"); or the entity extractor lists one of the monitor's names among the article's
//    organisations; or another of the monitor's names, not ambiguous itself, is in the article
//    ("Royal Dutch Shell" makes "Shell said" at the start of a sentence a mention).
import { isLegalSuffix } from './legal-suffixes.ts';
import { isFunctionWord, type Sentence, type Token } from './tokens.ts';

/** Where a name was found: the article's tokens first..last (inclusive). */
export interface Span {
  first: number;
  last: number;
}

const honorifics = new Set([
  'dame',
  'dr',
  'lady',
  'lord',
  'miss',
  'mr',
  'mrs',
  'ms',
  'prof',
  'professor',
  'rev',
  'sir',
  'st',
]);
const spaceOnly = /^[ \t\u00a0]+$/;
const suffixGap = /^,?[ \t\u00a0]+$/;

export function isCapitalised(tokens: readonly Token[], span: Span): boolean {
  for (let i = span.first; i <= span.last; i += 1) {
    const token = tokens[i]!;
    if (!token.capitalised && !(i > span.first && isFunctionWord(token.key))) return false;
  }
  return true;
}

/**
 * The nouns that end the name of a place or an institution, after a first word that can be a company's
 * name (rule 2e). Folded, as token keys are.
 */
const placeNouns = new Set([
  'airport',
  'arena',
  'avenue',
  'award',
  'awards',
  'bay',
  'beach',
  'bridge',
  'canyon',
  'cathedral',
  'church',
  'college',
  'county',
  'creek',
  'falls',
  'field',
  'foundation',
  'gardens',
  'harbour',
  'harbor',
  'heights',
  'hill',
  'hills',
  'hospital',
  'island',
  'islands',
  'lake',
  'memorial',
  'mountain',
  'mountains',
  'museum',
  'parish',
  'park',
  'prize',
  'river',
  'road',
  'school',
  'springs',
  'square',
  'stadium',
  'street',
  'township',
  'university',
  'valley',
  'zoo',
]);

/**
 * Nouns of the landscape: after a name, in any case but capitals, they make it the place ("Amazon
 * rainforest", "Orange river"); no company calls a unit so.
 */
const landscapeNouns = new Set([
  'basin',
  'delta',
  'estuary',
  'floodplain',
  'headwaters',
  'jungle',
  'rainforest',
  'rainforests',
  'river',
  'tributaries',
  'tributary',
  'watershed',
]);

/** Punctuation between two words that ends the first's phrase ("the Amazon, which"; not "the Acme-owned"). */
const clauseEnd = /^[^-\u2010-\u2014'\u2019]*[,;:.!?)\]]/;
/** Words after "the X" that make X the place ("the Amazon rainforest", "fires in the Amazon on Monday"). */
const placeFollowers = new Set([
  'basin',
  'delta',
  'forest',
  'jungle',
  'rainforest',
  'region',
  'river',
  'in',
  'of',
  'on',
  'at',
  'and',
  'or',
  'is',
  'was',
  'were',
  'has',
  'had',
  'where',
  'which',
]);

/**
 * Rule 2e: the occurrence names a place, or an institution named after one, not the company: it is the
 * first word of such a name ("Orange County", "Ford Foundation"), before a noun of the landscape
 * ("Amazon basin"), or a one-word name after "the" that ends there ("fires in the Amazon.", "the Amazon
 * is burning", "the Amazon rainforest"). Companies are written without "the" but before a noun ("the
 * Amazon deal", "the Apple Watch"), which still count. Such an occurrence is no mention at all, of any
 * name, distinctive or not: no corroboration makes it one.
 */
export function namesAPlace(tokens: readonly Token[], span: Span): boolean {
  const first = tokens[span.first]!;
  const last = tokens[span.last]!;
  const next = tokens[span.last + 1];
  const nextInSentence = next !== undefined && next.sentence === last.sentence ? next : undefined;
  if (
    nextInSentence !== undefined &&
    !nextInSentence.upper &&
    spaceOnly.test(nextInSentence.gap) &&
    (landscapeNouns.has(nextInSentence.key) ||
      (nextInSentence.capitalised && placeNouns.has(nextInSentence.key)))
  )
    return true;
  const before = tokens[span.first - 1];
  if (span.first !== span.last || before?.key !== 'the' || before.sentence !== first.sentence) return false;
  if (!spaceOnly.test(first.gap)) return false;
  return (
    nextInSentence === undefined ||
    clauseEnd.test(nextInSentence.gap) ||
    placeFollowers.has(nextInSentence.key)
  );
}

/**
 * Nouns after which an ambiguous name is its word in its common sense: the fruit's trade ("Apple
 * growers", "Orange groves"). Not nouns a company's own units or news take ("Apple chiefs", "Apple
 * prices", "Shell workers").
 */
const commonSenseNouns = new Set([
  'blossom',
  'cider',
  'crop',
  'crops',
  'farmers',
  'grove',
  'groves',
  'grower',
  'growers',
  'harvest',
  'juice',
  'orchard',
  'orchards',
  'pickers',
  'pie',
  'pies',
  'tree',
  'trees',
]);

/** Rule 2f: an ambiguous name followed by a noun that gives its word the common sense. */
export function namesACommonThing(tokens: readonly Token[], span: Span): boolean {
  const last = tokens[span.last]!;
  const next = tokens[span.last + 1];
  return (
    next !== undefined &&
    next.sentence === last.sentence &&
    !next.upper &&
    spaceOnly.test(next.gap) &&
    commonSenseNouns.has(next.key)
  );
}

/** Rule 2: used as a proper noun, wherever the rest of the article stands. */
export function isProperNoun(
  tokens: readonly Token[],
  sentences: readonly Sentence[],
  span: Span,
  isCommonWord: (word: string) => boolean,
): boolean {
  const first = tokens[span.first]!;
  if (!isCapitalised(tokens, span) || !sentences[first.sentence]!.proseCase) return false;
  if (first.initial && contentWords(tokens, span) === 1) return false;
  if (endsAnotherName(tokens, span, isCommonWord)) return false;
  return !beginsLongerName(tokens, span);
}

/** Rule 2b's exception: a one-word name, capitalised, opening a sentence, as rule 2g looks at it. */
export function opensASentenceAlone(tokens: readonly Token[], span: Span): boolean {
  return tokens[span.first]!.initial && isCapitalised(tokens, span) && contentWords(tokens, span) === 1;
}

/**
 * Rule 2c: the occurrence continues the name before it ("Liam Fox", "BBC News", "Mr Fox"), so it is
 * part of that name, not one of its own.
 */
export function endsAnotherName(
  tokens: readonly Token[],
  span: Span,
  isCommonWord: (word: string) => boolean,
): boolean {
  return !tokens[span.first]!.initial && continuesAnotherName(tokens, span.first, isCommonWord);
}

/** Rule 3's first corroboration: "Next plc", "Gap Inc.", "Shell Group", "Acme & Co". */
export function isFollowedByLegalForm(
  tokens: readonly Token[],
  span: Span,
  isCommonWord: (word: string) => boolean,
): boolean {
  const name = tokens[span.last]!;
  const next = tokens[span.last + 1];
  if (!next || next.block !== name.block || next.initial || !suffixGap.test(next.gap)) return false;
  const after = tokens[span.last + 2];
  const joinedToNext = after !== undefined && after.block === next.block && after.gap === '-';
  if (next.key === 'and') return after?.key === 'co' && spaceOnly.test(after.gap);
  if (joinedToNext || !isLegalSuffix(next.base)) return false;
  // "Group", "Company", "Limited" are words too: "a shell company" is not "Shell Company".
  return next.capitalised || !isCommonWord(next.base);
}

function continuesAnotherName(
  tokens: readonly Token[],
  index: number,
  isCommonWord: (word: string) => boolean,
): boolean {
  const before = tokens[index - 1];
  const token = tokens[index]!;
  if (!before || before.block !== token.block || !spaceOnly.test(token.gap) || !before.capitalised) {
    return false;
  }
  if (honorifics.has(before.key)) return true;
  if (before.key !== before.base) return false;
  return !(before.initial && isCommonWord(before.key));
}

function beginsLongerName(tokens: readonly Token[], span: Span): boolean {
  const name = tokens[span.first]!;
  const sameSentence = (i: number) => tokens[i] !== undefined && tokens[i].sentence === name.sentence;
  let i = span.last + 1;
  if (sameSentence(i) && tokens[i]!.key === 'of' && spaceOnly.test(tokens[i]!.gap)) {
    if (sameSentence(i + 1) && tokens[i + 1]!.key === 'the') i += 1;
    return sameSentence(i + 1) && tokens[i + 1]!.capitalised && spaceOnly.test(tokens[i + 1]!.gap);
  }
  let initials = tokens
    .slice(span.first, span.last + 1)
    .map((t) => t.key[0])
    .join('');
  while (sameSentence(i) && tokens[i]!.capitalised && spaceOnly.test(tokens[i]!.gap)) {
    initials += tokens[i]!.key[0];
    i += 1;
  }
  if (initials.length < 3) return false;
  const after = tokens[i];
  const before = tokens[span.first - 1];
  return (
    (sameSentence(i) && after!.gap.includes('(') && after!.key === initials) ||
    (before !== undefined &&
      before.sentence === name.sentence &&
      name.gap.includes('(') &&
      before.key === initials)
  );
}

function contentWords(tokens: readonly Token[], span: Span): number {
  let count = 0;
  for (let i = span.first; i <= span.last; i += 1) if (!isFunctionWord(tokens[i]!.key)) count += 1;
  return count;
}
