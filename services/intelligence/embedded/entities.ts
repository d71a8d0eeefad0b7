// People, organisations and places named in an article. A name is a run of capitalised words
// ("Tony Blair", "Bank of England", "AOL"); what kind of name it is comes from clues in order of
// trust: a known name in the lexicon, an honorific or job title before it ("Mr", "Chancellor"),
// the words it is built with ("... Bank", "... River"), a known first or last name, an acronym.
// Mentions of one entity are merged: "Mr Blair" and "Blair" join "Tony Blair", "TimeWarner" joins
// "Time Warner", "Domecq" joins "Allied Domecq" when nothing else it could join.
import type { Entity } from '../provider.ts';
import {
  connectors,
  honorifics,
  isAdverb,
  isOrganizationWord,
  isPlaceWord,
  nameKind,
  nameParticles,
  personDescriptions,
  placePrefixes,
  roles,
} from './entity-lexicon.ts';
import type { Sentence, Token } from './sentences.ts';
import { germanCommonNouns, isAbstractGermanNoun } from './german-nouns.ts';
import { nameWithAndEnd } from './names-with-and.ts';
import { latinSpellings } from './cyrillic-latin.ts';
import { nameCluesFor, turkishSuffix, type NameClues } from './name-clues.ts';
import { withoutAccents } from './without-accents.ts';
import { extractUnspacedEntities } from './unspaced-entities.ts';
import { caselessNames, isMostlyCaseless, type ScoredName } from './caseless-entities.ts';
import { isMostlyHanOrKana } from './unspaced-keywords.ts';

/** The most an article reports: beyond this the names are incidental. */
export const maxEntities = 15;

type EntityType = Entity['type'];

interface Mention {
  tokens: string[];
  /**
   * The words as the text writes them, where that differs from `tokens` ("Amazon.com" of "Amazon"), and
   * which of them a hyphen joins to the word before ("Rolls-Royce"): the name is shown so.
   */
  written?: WrittenWords;
  /** An honorific or job title preceded it. */
  titled: boolean;
  /** What the lowercase word before it says it names, in another language (name-clues.ts). */
  clue: EntityType | null;
  sentence: number;
  /** What the title after it is of: "European Commission" of "European Commission President ...". */
  titleOf?: boolean;
  /** "the", "a" or "an" is written right before it: "the Dome", "the Scotsman". */
  articled?: boolean;
  /** A legal form followed it ("Apple Inc."): a company's name. */
  company?: boolean;
  /** Its shares are written of ("Tesla shares fell"): a company's, unless the name is known otherwise. */
  listed?: boolean;
}

/** A name's words as written (`shown`) and whether each is joined to the one before by a hyphen. */
interface WrittenWords {
  shown: string[];
  afterHyphen: boolean[];
}

/** A mention's name as the text writes it: "Frank-Walter Steinmeier", "Amazon.com Inc". */
function writtenForm(mention: Mention): string {
  const shown = mention.written?.shown ?? mention.tokens;
  return shown
    .map((w, k) => (k === 0 || w === ',' ? w : `${mention.written?.afterHyphen[k] ? '-' : ' '}${w}`))
    .join('');
}

interface Candidate {
  key: string;
  forms: Map<string, number>;
  type: EntityType;
  mentions: number;
  titleMentions: number;
  firstSentence: number;
  tokens: string[];
  /** The forms of the one-word names merged into this one ("Путина", "Macron"). */
  shortForms: string[];
  /** Some mention of it has an article before it (Mention.articled): a thing's name, not a person's. */
  articled: boolean;
  /** One of its mentions, or of the short forms merged into it, is `listed`. */
  listed: boolean;
}

/** `language` (ISO 639-1, null when unknown): German's nouns are capitalised (german-nouns.ts). */
export function extractEntities(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null = null,
): Entity[] {
  // Chinese and Japanese have no capital letters to find names by.
  if (isMostlyHanOrKana([...title, ...sentences].map((s) => s.text).join('\n')))
    return extractUnspacedEntities(title, sentences, maxEntities);
  const clues = nameCluesFor(language);
  const evidence = capitalisationEvidence(sentences, clues);
  const commonNouns = language === 'de' ? germanCommonNouns(sentences) : null;
  const mentions = sentences.flatMap((s) => mentionsIn(s, evidence, clues, commonNouns, language));
  const candidates = new Map<string, Candidate>();
  const keyOfName = (words: readonly string[]) => keyOf(words, clues);
  for (const mention of mentions) {
    const key = keyOfName(mention.tokens);
    if (!key) continue;
    const form = writtenForm(mention);
    const existing = candidates.get(key);
    const type = typeOf(mention, clues);
    if (existing) {
      existing.forms.set(form, (existing.forms.get(form) ?? 0) + 1);
      existing.mentions += 1;
      existing.articled ||= mention.articled === true;
      existing.listed ||= mention.listed === true;
      if (existing.type === 'other' && type !== 'other') existing.type = type;
    } else {
      candidates.set(key, {
        key,
        forms: new Map([[form, 1]]),
        type,
        mentions: 1,
        titleMentions: 0,
        firstSentence: mention.sentence,
        tokens: mention.tokens,
        shortForms: [],
        articled: mention.articled === true,
        listed: mention.listed === true,
      });
    }
  }
  // Names the body never writes, only the headline ("Satya Nadella" above a one-sentence summary that
  // says "the software company"): a short feed item's names are often there alone. Kept only when their
  // kind is known or they are more than one word; a headline's single capitalised word says less.
  const count = Math.max(1, sentences.length);
  for (const mention of title.flatMap((s) => headlineMentions(s, evidence, clues, commonNouns, language))) {
    const key = keyOfName(mention.tokens);
    if (!key || candidates.has(key)) continue;
    const type = typeOf(mention, clues);
    if (type === 'other' && mention.tokens.length === 1 && mention.listed !== true) continue;
    // A longer name around one the body writes is the body's name with a headline's shorthand, "Qantas
    // A380" of "Qantas", which would take the name in (mergeShortForms); a person's full name, "Olaf
    // Scholz" of "Scholz", is the name itself.
    if (type !== 'person' && [...candidates.values()].some((c) => containsWords(mention.tokens, c.tokens)))
      continue;
    candidates.set(key, {
      key,
      forms: new Map([[writtenForm(mention), 0]]),
      type,
      mentions: 0,
      titleMentions: 0,
      firstSentence: count,
      tokens: mention.tokens,
      shortForms: [],
      articled: mention.articled === true,
      listed: mention.listed === true,
    });
  }
  countTitleMentions([...candidates.values()], title);
  const merged = mergeShortForms([...candidates.values()], keyOfName, {
    firstNameFirst: clues?.firstNameFirst ?? true,
    // In English only: elsewhere the article that marks a thing's name is not read ("die Telekom").
    familyNamesMakePeople: clues === null,
  });
  const kept = merged.filter(
    (c) =>
      (c.type !== 'other' || c.listed || c.tokens.length > 1 || c.mentions > 1 || c.titleMentions > 0) &&
      !(
        commonNouns &&
        c.type === 'other' &&
        c.tokens.length === 1 &&
        [...c.forms.keys()].some((form) => commonNouns.has(form.toLowerCase()))
      ),
  );
  const scored: (ScoredName & { firstSentence: number })[] = kept.map((c) => {
    const name = clues
      ? inTheCaseOfItsShortForm(displayName(c, true), c.shortForms, clues)
      : displayName(c, false);
    return {
      name,
      // In the nominative a name may show its first name ("Марией Захаровой" as Мария Захарова).
      type:
        c.type === 'other' && clues && name.includes(' ') && isFirstName(name.split(' ')[0]!.toLowerCase())
          ? 'person'
          : c.type === 'other' && c.listed
            ? 'organization'
            : c.type,
      // The headline's uses are counted in (countTitleMentions); a name the headline alone writes in a
      // form its words do not show apart ("GPX" of "GPX-Dateien") still has that one.
      mentions: Math.max(1, c.mentions),
      // Mentioned often, in the headline, and early: what the article is about.
      score: (c.mentions + 2 * c.titleMentions) * (1 + (1 - c.firstSentence / count)),
      firstSentence: c.firstSentence,
    };
  });
  // Arabic, Hebrew, Hindi...: no capitals to find names by, but their own clues (caseless-entities.ts);
  // the capitals still find the Latin names such a text quotes (NASA, Apple).
  const text = [...title, ...sentences].map((s) => s.text).join('\n');
  if (isMostlyCaseless(text))
    scored.push(...caselessNames(title, sentences, language).map((n) => ({ ...n, firstSentence: count })));
  const top = Math.max(...scored.map((s) => s.score), 1);
  return scored
    .sort((a, b) => b.score - a.score || a.firstSentence - b.firstSentence)
    .slice(0, maxEntities)
    .map(({ name, type, mentions, score }) => ({
      name,
      type,
      salience: Math.round((score / top) * 100) / 100,
      mentions,
    }));
}

/** Whether `words` holds `part`, shorter, as a run of its words (compared without case). */
function containsWords(words: readonly string[], part: readonly string[]): boolean {
  if (part.length === 0 || part.length >= words.length) return false;
  const lower = words.map((w) => w.toLowerCase());
  const wanted = part.map((w) => w.toLowerCase());
  return lower.some((_, i) => wanted.every((w, k) => lower[i + k] === w));
}

/**
 * The names a headline writes, read as a sentence of the body is. A headline in title case ("Microsoft
 * Agrees to Buy Activision Blizzard") capitalises every word, so only the words the lexicon knows as
 * names keep their capitals, with the unknown words right after them ("Activision Blizzard"); German
 * capitalises every noun, so there too. A headline in capitals says nothing of names.
 */
function headlineMentions(
  headline: Sentence,
  evidence: Evidence,
  clues: NameClues | null,
  commonNouns: ReadonlySet<string> | null,
  language: string | null,
): Mention[] {
  const words = headline.tokens.filter((t) => t.kind === 'word' && /\p{L}/u.test(t.text));
  if (words.length === 0 || words.every((t) => !/\p{Ll}/u.test(t.text))) return [];
  // Sentence case: some word that is not a function word is written in lowercase.
  const sentenceCase = words.some(
    (t, i) => i > 0 && !t.stopWord && t.text.length >= 4 && /^\p{Ll}+$/u.test(t.text),
  );
  if (sentenceCase && language !== 'de') return mentionsIn(headline, evidence, clues, commonNouns, language);
  let kept = false;
  const tokens = headline.tokens.map((t) => {
    if (!capitalised(t)) return ((kept = false), t);
    const kind = nameKind(t.normal);
    const known = kind !== null && kind !== 'notAName';
    kept = known || isAcronym(t.text) || (kept && kind === null);
    return kept ? t : { ...t, text: t.text.toLowerCase() };
  });
  return mentionsIn({ ...headline, tokens }, evidence, clues, commonNouns, language);
}

/** Which words the text itself shows to be ordinary (seen lowercase) or names (capitalised mid-sentence). */
interface Evidence {
  lowercase: Set<string>;
  capitalisedMidSentence: Set<string>;
  /** How often each word is written capitalised, wherever it stands. */
  capitalisedTimes: Map<string, number>;
  /**
   * How often the text capitalises a word mid-sentence, by its name stem (NameClues.nameStem), in a
   * language with clues: "Путина", "Путиным" and "Путин" count as one.
   */
  midSentenceStems: Map<string, number>;
  /** How often the text capitalises a word anywhere, by its name stem, in a language with clues. */
  capitalisedStems: Map<string, number>;
  /** Capitalised words whose shares the text writes of: "Tesla" of "Tesla shares fell" (sharesAfter). */
  listed: Set<string>;
}

function capitalisationEvidence(sentences: readonly Sentence[], clues: NameClues | null): Evidence {
  const lowercase = new Set<string>();
  const capitalisedMidSentence = new Set<string>();
  const capitalisedTimes = new Map<string, number>();
  const midSentenceStems = new Map<string, number>();
  const capitalisedStems = new Map<string, number>();
  const listed = new Set<string>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const s of sentences) {
    s.tokens.forEach((t, i) => {
      if (t.kind !== 'word') return;
      if (/^\p{Ll}/u.test(t.text)) lowercase.add(t.normal);
      else if (capitalised(t)) {
        count(capitalisedTimes, t.normal);
        if (sharesAfter(s.tokens, i + 1)) listed.add(t.normal);
        const stem = clues?.nameStem(t.normal);
        if (stem !== undefined) count(capitalisedStems, stem);
        if (startsClause(s.tokens, i)) return;
        capitalisedMidSentence.add(t.normal);
        if (stem !== undefined) count(midSentenceStems, stem);
      }
    });
  }
  return { lowercase, capitalisedMidSentence, capitalisedTimes, midSentenceStems, capitalisedStems, listed };
}

function mentionsIn(
  sentence: Sentence,
  evidence: Evidence,
  clues: NameClues | null,
  commonNouns: ReadonlySet<string> | null,
  language: string | null,
): Mention[] {
  const tokens = sentence.tokens;
  const mentions: Mention[] = [];
  /** Words the name shows otherwise than it reads them: "Amazon.com" of "Amazon". */
  const shownAs = new Map<Token, string>();
  // Known names with "and" in them, which a run of capitals would cut there (names-with-and.ts): where
  // each starts, and the index after it.
  const withAnd = new Map<number, number>();
  const texts = tokens.map((t) => t.text);
  for (let k = 0; k < tokens.length; k += 1) {
    if (!capitalised(tokens[k]!)) continue;
    const end = nameWithAndEnd(texts, k);
    if (end > 0) {
      withAnd.set(k, end);
      k = end - 1;
    }
  }
  let i = 0;
  while (i < tokens.length) {
    if (
      !withAnd.has(i) &&
      (!capitalised(tokens[i]!) ||
        (startsClause(tokens, i) && !nameAtClauseStart(tokens, i, evidence, clues)))
    ) {
      i += 1;
      continue;
    }
    const run: Token[] = [tokens[i]!];
    let j = i + 1;
    // Bounded: the cleaning of a run is quadratic in its length, and a text of initials and abbreviations
    // ("Mr. A. B. C. …", one sentence) was one run of its every word: 90 KB took the analysis 30 s.
    while (j < tokens.length && run.length < longestRun) {
      const t = tokens[j]!;
      if (language === 'de' && capitalised(t) && germanGenitive(run.at(-1)!, evidence)) break;
      // Turkish writes a case suffix after a name's last word only: "Erdoğan'ın açıklaması". A place with
      // one after a name the text writes elsewhere too is the place of that name ("Erdoğan Ankara'ya döndü").
      if (language === 'tr' && turkishSuffix.test(run.at(-1)!.text)) break;
      if (
        language === 'tr' &&
        clues &&
        turkishSuffix.test(t.text) &&
        placeAfterName(run.at(-1)!, t, evidence, clues)
      )
        break;
      if (capitalised(t) || (t.text === '-' && !t.spaced)) {
        run.push(t);
        j += 1;
        continue;
      }
      // "Amazon.com Inc.": the web domain's ending is no word of the name (the company matcher's "Amazon").
      const domain = tokens[j + 1];
      if (
        t.text === '.' &&
        !t.spaced &&
        domain?.spaced === false &&
        webEndings.has(domain.text.toLowerCase())
      ) {
        const last = run.at(-1)!;
        shownAs.set(last, `${wordOf(last.text)}.${domain.text}`);
        j += 2;
        continue;
      }
      // "Centers for Disease Control and Prevention", "US Food and Drug Administration": a known name
      // with "and" that started in this run goes on to its end.
      const known = [...withAnd].find(([start, end]) => start >= i && start < j && end > j);
      if (known) {
        run.push(...tokens.slice(j, known[1]));
        j = known[1];
        continue;
      }
      const width = connectorWidth(tokens, j);
      const after = tokens[j + width];
      if (width > 0 && after && capitalised(after)) {
        run.push(...tokens.slice(j, j + width));
        j += width;
        continue;
      }
      break;
    }
    // "Předsedkyně Evropské komise", "глава Европейской комиссии": where names are declined, an institution
    // is named by capitalised adjectives and a lowercase noun, which ends the name.
    const noun = tokens[j];
    if (
      clues?.declinesNames &&
      noun?.kind === 'word' &&
      /^\p{Ll}/u.test(noun.text) &&
      clues.organizationWord(noun.normal)
    ) {
      run.push(noun);
      j += 1;
    }
    const clue = clues ? clueBefore(tokens, i, clues) : null;
    const parts = clues
      ? runParts(run, clue, {
          clues,
          evidence,
          commonNouns,
          language,
          titleOfBefore: clue === null && titleOfBefore(tokens, i, clues),
        })
      : personOf(run);
    // English writes a title or a description in lowercase before a name too: "chief executive Satya
    // Nadella", "Hamas leader Yahya Sinwar", "billionaire Elon Musk".
    const describedBefore = clues === null && describesAPersonBefore(tokens, i);
    const articled = clues === null && articles.has(tokens[i - 1]?.text.toLowerCase() ?? '');
    const describedAfter = clues === null && personAfter(tokens, j);
    // "analysts at Morgan Stanley", "Tesla shares fell": a company's name (in English).
    const employer = clues === null && worksAt(tokens, i);
    const traded = clues === null && sharesOf(tokens, i, j);
    for (const part of parts) {
      for (const mention of cleanMentions(run.slice(part.from, part.to), sentence.index, evidence, shownAs)) {
        // "Ankara'ya" (to Ankara) names Ankara.
        const words =
          language === 'tr' ? mention.tokens.map((w) => w.replace(turkishSuffix, '')) : mention.tokens;
        const written =
          language === 'tr' && mention.written
            ? { ...mention.written, shown: mention.written.shown.map((w) => w.replace(turkishSuffix, '')) }
            : mention.written;
        // What a title is of ("European Commission President ...") is a mention of its own, clueless.
        const clue = mention.titleOf ? null : part.clue;
        const described =
          describedBefore &&
          part.from === 0 &&
          !mention.titleOf &&
          words.length > 1 &&
          wordsOpenRun(run, words) &&
          personLike(words, evidence);
        const referredToAsAPerson =
          describedAfter &&
          part.to === run.length &&
          !mention.titleOf &&
          words.length > 1 &&
          // Said of the name, not before it: "Rod Eddington, BA's chief executive" ("rod" is a word too).
          personLike(words, evidence, { firstMayBeAWord: true });
        mentions.push({
          ...mention,
          tokens: words,
          written,
          titled: mention.titled || part.titled || described || referredToAsAPerson,
          company:
            mention.company === true ||
            (employer && part.from === 0 && !mention.titleOf && wordsOpenRun(run, words)),
          listed: traded && part.to === run.length && !mention.titleOf,
          clue,
          articled: articled && part.from === 0 && wordsOpenRun(run, words),
        });
      }
    }
    i = j;
  }
  return mentions;
}

/**
 * How many lowercase words from `j` on may join the capitalised words around them into one name: a
 * connector ("Bank of England", "Lord of the Rings") or the particles of a family name, up to three
 * ("Ursula von der Leyen", "Luis de la Fuente"); 0 if the word at `j` is neither.
 */
function connectorWidth(tokens: readonly Token[], j: number): number {
  // As written: the tokenizer's normal form of "da" is "the".
  const lower = (k: number) => tokens[k]?.text.toLowerCase() ?? '';
  if (connectors.has(`${lower(j)} ${lower(j + 1)}`)) return 2;
  let particles = 0;
  while (particles < 3) {
    const p = tokens[j + particles];
    if (!p || p.kind !== 'word' || !/^\p{Ll}/u.test(p.text) || !nameParticles.has(lower(j + particles)))
      break;
    particles += 1;
  }
  // "Bashar al-Assad": the particle joined to the family name by a hyphen.
  const hyphen = tokens[j + particles];
  if (particles > 0 && hyphen?.text === '-' && !hyphen.spaced && tokens[j + particles + 1]?.spaced === false)
    return particles + 1;
  if (particles > 0) return particles;
  return connectors.has(lower(j)) ? 1 : 0;
}

/**
 * "Paul Ashworth of Capital Economics", "Mark Carney of the Bank of England", "Angela Merkel of Germany":
 * a person's full name (a first name the lexicon knows and more) before "of" is a mention apart from
 * what follows, which is one of its own; "Duke of Edinburgh" and "University of Oxford" stay whole.
 */
function personOf(run: readonly Token[]): RunPart[] {
  const whole: RunPart[] = [{ from: 0, to: run.length, titled: false, clue: null }];
  const of = run.findIndex((t) => t.text === 'of');
  if (of < 2) return whole;
  const first = run.findIndex((t, k) => k < of - 1 && isFirstName(wordOf(t.text).toLowerCase()));
  if (first < 0 || run.slice(first, of).some((t) => !capitalised(t) && !nameParticles.has(t.text)))
    return whole;
  if (run.slice(0, of).some((t) => isOrganizationWord(t.normal))) return whole;
  const rest = run[of + 1]?.text === 'the' ? of + 2 : of + 1;
  if (rest >= run.length) return whole;
  // The name before "of" was found by its first name: a person's.
  return [
    { from: 0, to: of, titled: true, clue: null },
    { from: rest, to: run.length, titled: false, clue: null },
  ];
}

/** A lowercase job title or description right before `i`: "chief executive", "leader", "billionaire". */
function describesAPersonBefore(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  return (
    before !== undefined &&
    before.kind === 'word' &&
    /^\p{Ll}/u.test(before.text) &&
    (roles.has(before.normal) || personDescriptions.has(before.normal))
  );
}

/**
 * Whether English says the name that ends before `j` is a person's, by what follows it: a subject's or
 * possessive pronoun right after the verb ("Pep Guardiola praised his side", "Elon Musk said he would";
 * an object's is someone else, "... told her", and a company is "it"), "who" ("Bukayo Saka, who ..."),
 * or a job title or description in apposition ("Rod Eddington, BA's chief executive,", "Bhanu Baweja, a
 * strategist at UBS").
 */
function personAfter(tokens: readonly Token[], j: number): boolean {
  const next = tokens[j];
  const after = tokens[j + 1];
  if (next === undefined || after === undefined) return false;
  if (next.text === ',') return after.normal === 'who' || roleInApposition(tokens, j + 1);
  // "Swift thanked her fans": "her" before a noun is hers; before anything else it may be someone else.
  const hers =
    after.normal === 'her' &&
    tokens[j + 2] !== undefined &&
    /^\p{Ll}/u.test(tokens[j + 2]!.text) &&
    (tokens[j + 2]!.pos === 'NOUN' || tokens[j + 2]!.pos === 'ADJ');
  return (
    (next.pos === 'VERB' || next.pos === 'AUX') &&
    /^\p{Ll}/u.test(next.text) &&
    (personPronouns.has(after.normal) || hers)
  );
}

const personPronouns = new Set(['he', 'she', 'his']);

/** "analysts at Morgan Stanley", "economists at Capital Economics": the name at `i` employs them. */
function worksAt(tokens: readonly Token[], i: number): boolean {
  const at = tokens[i - 1];
  const staff = tokens[i - 2];
  return at?.normal === 'at' && staff !== undefined && employees.has(staff.normal);
}

const employees = new Set(
  `analyst analysts economist economists strategist strategists researchers engineers executives employees
  workers staff traders bankers`.split(/\s+/),
);

/**
 * "Tesla shares fell", "shares of Tesla": the name from `i` to `j` is a listed company's. (Not "shares in":
 * "shares in London".)
 */
function sharesOf(tokens: readonly Token[], i: number, j: number): boolean {
  return sharesAfter(tokens, j) || (tokens[i - 1]?.text === 'of' && tokens[i - 2]?.normal === 'shares');
}

/** "shares" or "stock" at `k` as the noun ("Tesla shares fell"), not the verb ("Inflation shares the blame"). */
function sharesAfter(tokens: readonly Token[], k: number): boolean {
  const word = tokens[k];
  const next = tokens[k + 1];
  return (
    word !== undefined &&
    (word.text === 'shares' || word.text === 'stock') &&
    !(next !== undefined && determiners.has(next.normal))
  );
}

const determiners = new Set('the a an its his her their our this that these those some'.split(' '));

/**
 * Titles and descriptions that a lowercase word before makes a company's trade ("asset manager", "activist
 * investor", "oil producer", "market leader"), unless the word is one of `personAdjectives` ("the former
 * manager").
 */
const companyTrades = new Set(['manager', 'investor', 'leader', 'producer', 'founder', 'owner', 'player']);
const personAdjectives = new Set(
  'former new current interim acting deputy assistant veteran longtime late then young'.split(' '),
);

/**
 * A job title or a person's description within the few words from `k` that describe what precedes
 * them: articles, possessives ("BA's", "the company's") and lowercase adjectives and nouns. Anything
 * else ends the description ("Manchester United, whose manager ...": not the club's).
 */
function roleInApposition(tokens: readonly Token[], k: number): boolean {
  for (let n = k; n < Math.min(tokens.length, k + 6); n += 1) {
    const t = tokens[n]!;
    const lowercase = /^\p{Ll}/u.test(t.text);
    const possessive = tokens[n + 1]?.normal === "'s" || tokens[n + 1]?.normal === '’s';
    const before = tokens[n - 1]!;
    const following = tokens[n + 1];
    // "the chief executive", "the activist investor": the noun after says what it is.
    const modifier =
      following !== undefined &&
      /^\p{Ll}/u.test(following.text) &&
      (following.pos === 'NOUN' || roles.has(following.normal) || personDescriptions.has(following.normal));
    // "Downing Street, the prime minister's office": the title is of someone else. "BlackRock, the asset
    // manager", "Aramco, the oil producer": a company's trade.
    if (
      lowercase &&
      !possessive &&
      !modifier &&
      (roles.has(t.normal) || personDescriptions.has(t.normal)) &&
      !(
        companyTrades.has(t.normal) &&
        /^\p{Ll}/u.test(before.text) &&
        (before.pos === 'NOUN' || before.pos === 'ADJ') &&
        !personAdjectives.has(before.normal)
      )
    )
      return true;
    const describing =
      articles.has(t.normal) ||
      t.normal === "'s" ||
      t.normal === '’s' ||
      (t.kind === 'word' && possessive) ||
      // "the Italian prime minister", "the Arsenal manager"
      (t.kind === 'word' && (t.pos === 'ADJ' || t.pos === 'PROPN')) ||
      (lowercase && t.pos === 'NOUN');
    if (!describing) return false;
  }
  return false;
}

const articles = new Set(['the', 'a', 'an']);

/** Whether the mention's words are the run's first words (nothing was taken off before them). */
function wordsOpenRun(run: readonly Token[], words: readonly string[]): boolean {
  return wordOf(run[0]!.text) === words[0];
}

function capitalised(t: Token): boolean {
  return (
    t.kind === 'word' &&
    /^\p{Lu}/u.test(t.text) &&
    // "I", "I'm"; days and months are capitalised but name nothing ("Monday Lib Dem" is two things).
    !/^I(?:['’]\p{L}+)?$/u.test(t.text) &&
    nameKind(t.normal) !== 'time'
  );
}

/** The first word of a sentence, or of a quote or clause inside it, is capitalised whatever it is. */
function startsClause(tokens: readonly Token[], i: number): boolean {
  for (let k = i - 1; k >= 0; k -= 1) {
    const t = tokens[k]!;
    if (t.kind === 'word' || t.kind === 'number') return false;
    // A hyphen inside a word ("Frank-Walter") is no dash: the word goes on before it.
    if (t.text === '-' && !t.spaced && tokens[k + 1]?.spaced === false) return false;
    if (/^[:"“‘(]$/.test(t.text) || t.text === '-' || t.text === '—') return true;
  }
  return true;
}

/**
 * Whether a capitalised word opening a clause is a name: the lexicon (in another language: its
 * country names) knows it as one, the text
 * capitalises it elsewhere too, or a capitalised word follows ("Acme Corp will ..."), unless the
 * text also uses it lowercase ("Profits at ...").
 */
function nameAtClauseStart(
  tokens: readonly Token[],
  i: number,
  evidence: Evidence,
  clues: NameClues | null,
): boolean {
  const t = tokens[i]!;
  if (t.stopWord || evidence.lowercase.has(t.normal)) return false;
  // "Later Musk said ...", "Meanwhile Apple ...": an English adverb opening the sentence.
  if (clues === null && isAdverb(t.normal)) return false;
  // In another language the English lexicon's knowing a word says less ("Ayer", yesterday, is an
  // advertising agency to it): only of a word the article writes capitalised more than once (Siemens
  // opening three German sentences). A country in the language's own words says enough.
  const kind = !clues
    ? nameKind(t.normal)
    : clues.place(t.normal)
      ? 'place'
      : (evidence.capitalisedTimes.get(t.normal) ?? 0) > 1
        ? nameKind(t.normal)
        : null;
  // "Frank-Walter Steinmeier", "Rolls-Royce": the word after a hyphen inside this one.
  const hyphen = tokens[i + 1]?.text === '-' && !tokens[i + 1]!.spaced && tokens[i + 2]?.spaced === false;
  const next = hyphen ? { ...tokens[i + 2]!, spaced: true } : tokens[i + 1];
  // In another language a capitalised word that opens a sentence before a person's first name is no part
  // of the name but an adverb or the like ("Вчера Мария Лопес ...", "Ayer Pedro Sánchez ...", "Gestern
  // Olaf Scholz ..."); before another name it may start it ("Deutsche Bank meldet ...").
  const nameFollows =
    next !== undefined &&
    next.spaced &&
    capitalised(next) &&
    (clues === null ||
      clues.organizationWord(t.normal) ||
      ((!clues.firstNameFirst || !isFirstName(next.normal)) && !nounBeforeName(tokens, i, evidence, clues)));
  // Capitalised mid-sentence, in another case where names are declined ("Шольц заявив ..." after "Олафом
  // Шольцом").
  const midSentence =
    evidence.capitalisedMidSentence.has(t.normal) ||
    (clues !== null && evidence.midSentenceStems.has(clues.nameStem(t.normal)));
  // "Time Warner's profits": an ordinary word, but part of a longer name.
  if (kind === 'notAName') return nameFollows || midSentence;
  // "Tesla is recalling ... Tesla shares fell": a word English does not know whose shares the text writes
  // of, written capitalised more than once ("Tech shares slumped" once is a sector's).
  const listed =
    clues === null && evidence.listed.has(t.normal) && (evidence.capitalisedTimes.get(t.normal) ?? 0) > 1;
  return kind !== null || midSentence || isAcronym(t.text) || nameFollows || listed;
}

function placeAfterName(name: Token, place: Token, evidence: Evidence, clues: NameClues): boolean {
  return (
    clues.place(clues.nameStem(place.normal)) &&
    (evidence.capitalisedStems.get(clues.nameStem(name.normal)) ?? 0) > 1
  );
}

/**
 * A German name in the genitive, which the noun after it belongs to and is no part of ("Macrons Besuch",
 * "Merkels Nachfolger"): the text writes the name without its "s" elsewhere. "Siemens Energy" stays one
 * name, as "Siemens" is never written without it.
 */
function germanGenitive(t: Token, evidence: Evidence): boolean {
  return (
    t.normal.length > 3 && t.normal.endsWith('s') && evidence.capitalisedTimes.has(t.normal.slice(0, -1))
  );
}

/**
 * A word opening the sentence before a name the text capitalises elsewhere too, in any case, where it
 * never capitalises this word mid-sentence ("Встреча Путина и Эрдогана ...", "Wizyta Macrona ...": the
 * meeting of Putin and Erdoğan, Macron's visit, the name in the genitive after it; "Ayer Zorbatek ..."),
 * unless it is a first name or the two make an organisation's name that ends there ("Deutsche Bank
 * meldet ...", where "die Bank" stands alone too).
 */
function nounBeforeName(tokens: readonly Token[], i: number, evidence: Evidence, clues: NameClues): boolean {
  const [t, next, after] = [tokens[i]!, tokens[i + 1]!, tokens[i + 2]];
  const times = (word: string) => evidence.midSentenceStems.get(clues.nameStem(word)) ?? 0;
  // An organisation's word ending the name: "Deutsche Bank meldet ...", but "Решение Банка России ...".
  const organizationEnds =
    clues.organizationWord(next.normal) && !(after !== undefined && after.spaced && capitalised(after));
  // The name after it counts itself once (it follows a word): it must be capitalised elsewhere too.
  return times(next.normal) > 1 && times(t.normal) === 0 && !isFirstName(t.normal) && !organizationEnds;
}

/** A first name the English lexicon knows, written with accents (Pedro, José) or in Cyrillic (Мария). */
function isFirstName(word: string): boolean {
  return [withoutAccents(word), ...latinSpellings(word)].some((w) => {
    const kind = nameKind(w);
    return kind === 'firstName' || kind === 'person';
  });
}

/**
 * Drops titles, job titles and stray connectors around the name; none when nothing is left. What the
 * title is of, when it is a known organisation or place or an acronym, is a mention of its own, first:
 * "European Commission President Ursula von der Leyen", "Apple CEO Tim Cook", "US Defense Secretary ...".
 */
function cleanMentions(
  run: Token[],
  sentence: number,
  evidence: Evidence,
  shownAs: ReadonlyMap<Token, string>,
): Mention[] {
  let { words, afterHyphen, shown } = hyphenated(run, shownAs);
  /** Keeps words [start, end) of the name, with what is known of how each is written. */
  const keep = (start: number, end = words.length) => {
    words = words.slice(start, end);
    afterHyphen = afterHyphen.slice(start, end);
    shown = shown.slice(start, end);
  };
  const writtenOf = (k: number, end: number): WrittenWords => ({
    shown: shown.slice(k, end),
    afterHyphen: afterHyphen.slice(k, end),
  });
  let titled = false;
  let titleOf: Mention | null = null;
  // "Mr Blair" -> "Blair"; "Health Secretary John Reid" -> "John Reid", but "General Motors" stays.
  let lastTitle = -1;
  words.forEach((w, k) => {
    const word = w.toLowerCase();
    if (k === words.length - 1) return;
    if (honorifics.has(word) || (isRole(words, k) && personLike(words.slice(k + 1), evidence))) lastTitle = k;
  });
  if (lastTitle >= 0 && !connectors.has(words[lastTitle + 1]!.toLowerCase())) {
    titleOf = whatTheTitleIsOf(words.slice(0, lastTitle), writtenOf(0, lastTitle), sentence);
    keep(lastTitle + 1);
    titled = true;
  }
  // "Russian Irina Shevchenko": a nationality before a first name describes the person ("Frank-Walter
  // Steinmeier" is one name).
  while (
    words.length > 2 &&
    !afterHyphen[1] &&
    nameKind(words[0]!.toLowerCase()) === 'notAName' &&
    nameKind(words[1]!.toLowerCase()) === 'firstName'
  )
    keep(1);
  // A job title with no name after it ("Chief Executive") is not an entity; a known name ending in one
  // is ("Health and Safety Executive").
  const known = () => ['organization', 'place'].includes(nameKind(words.join(' ').toLowerCase()) ?? '');
  while (words.length && isRole(words, words.length - 1) && !known()) keep(0, words.length - 1);
  // A connector opening the run is no part of the name, a capitalised particle is: "Le Pen", "De Beers".
  while (
    words.length &&
    connectors.has(words[0]!.toLowerCase()) &&
    !(nameParticles.has(words[0]!.toLowerCase()) && /^\p{Lu}/u.test(words[0]!) && words.length > 1)
  )
    keep(1);
  while (words.length && connectors.has(words.at(-1)!.toLowerCase())) keep(0, words.length - 1);
  // "Apple Inc.", "Siemens AG", "Exxon Mobil Corp.": a company's name.
  const company = words.length > 1 && isLegalForm(words.at(-1)!);
  // "Jean-Michel Jarre", "Frank-Walter Steinmeier": a first name of two joined by a hyphen, then more.
  if (
    words.length > 2 &&
    afterHyphen[1] &&
    (isFirstName(words[0]!.toLowerCase()) || isFirstName(words[1]!.toLowerCase()))
  )
    titled = true;
  const own = titleOf ? [titleOf] : [];
  if (words.length === 0) return own;
  const whole = words.join(' ').toLowerCase();
  if (honorifics.has(whole) || (nameKind(whole) === 'notAName' && !titled)) return own;
  // A job title used as a noun ("Shadow Secretary of State", "Prime Minister") names no one.
  if (!titled && words.some((_, k) => isRole(words, k)) && !known()) return own;
  return [
    ...own,
    { tokens: words, written: writtenOf(0, words.length), titled, sentence, clue: null, company },
  ];
}

/**
 * The run's words without its hyphens ("Rolls-Royce" is the words "Rolls" and "Royce", the second after a
 * hyphen), but for a particle joined to the family name by one, which stays one word: "Bashar al-Assad".
 * `shown`: each word as the name shows it (`shownAs`: "Amazon.com" of "Amazon").
 */
function hyphenated(
  run: readonly Token[],
  shownAs: ReadonlyMap<Token, string>,
): { words: string[]; afterHyphen: boolean[]; shown: string[] } {
  const words: string[] = [];
  /** Whether the word was joined by a hyphen to the one before ("Walter" of "Frank-Walter"). */
  const afterHyphen: boolean[] = [];
  const shown: string[] = [];
  for (let k = 0; k < run.length; k += 1) {
    const t = run[k]!;
    const next = run[k + 1];
    if (t.text !== '-') {
      words.push(wordOf(t.text));
      afterHyphen.push(false);
      shown.push(shownAs.get(t) ?? wordOf(t.text));
    } else if (!t.spaced && next?.spaced === false) {
      const word = wordOf(next.text);
      if (nameParticles.has(run[k - 1]?.text ?? '')) {
        words[words.length - 1] += `-${word}`;
        shown[shown.length - 1] += `-${shownAs.get(next) ?? word}`;
      } else {
        words.push(word);
        afterHyphen.push(true);
        shown.push(shownAs.get(next) ?? word);
      }
      k += 1;
    }
  }
  return { words, afterHyphen, shown };
}

/**
 * A job title's word: "Secretary", and "General" after one ("Secretary General", "Attorney General"); not
 * after a first name, where it is a family name ("Stephen King", "Martin Luther King").
 */
function isRole(words: readonly string[], k: number): boolean {
  const word = words[k]!.toLowerCase();
  const before = k > 0 ? words[k - 1]!.toLowerCase() : '';
  if (before !== '' && isFirstName(before)) return false;
  return roles.has(word) || (word === 'general' && roles.has(before));
}

/** The endings of web domains a company's name is written with: "Amazon.com". */
const webEndings = new Set(['com', 'net', 'org', 'io', 'ai', 'co']);

/** Legal forms after a company's name: "Apple Inc.", "Siemens AG". */
const legalForms = new Set('inc corp co ltd plc llc llp ag se sa nv bv gmbh spa ab asa oyj'.split(' '));
const isLegalForm = (word: string) => legalForms.has(word.toLowerCase().replaceAll('.', ''));

/**
 * The longest opening of the words before a job title that names an organisation or a place the lexicon
 * knows, or is an acronym: "European Commission" (President), "US" (Defense Secretary); null when none
 * does ("Health" Secretary, "French" President).
 */
function whatTheTitleIsOf(words: readonly string[], written: WrittenWords, sentence: number): Mention | null {
  for (let end = words.length; end > 0; end -= 1) {
    const name = words.slice(0, end);
    const kind = nameKind(name.join(' ').toLowerCase());
    const named =
      kind === 'organization' ||
      kind === 'place' ||
      (name.length === 1 && isAcronym(name[0]!)) ||
      (name.length > 1 && isOrganizationWord(name.at(-1)!.toLowerCase()));
    if (named) {
      const shown = { shown: written.shown.slice(0, end), afterHyphen: written.afterHyphen.slice(0, end) };
      return { tokens: name, written: shown, titled: false, sentence, clue: null, titleOf: true };
    }
  }
  return null;
}

/**
 * "el presidente Pedro Sánchez", "компания Газпром": what the lowercase word before a name says; a
 * job title may have its complement between ("министр финансов Антон Силуанов").
 */
function clueBefore(tokens: readonly Token[], start: number, clues: NameClues): EntityType | null {
  // Lowercase, as these languages write a title inside a sentence, or opening the sentence.
  const lowercaseWord = (t: Token | undefined): t is Token =>
    t !== undefined &&
    t.kind === 'word' &&
    (/^\p{Ll}/u.test(t.text) || startsClause(tokens, tokens.indexOf(t)));
  const before = tokens[start - 1];
  if (!lowercaseWord(before)) return null;
  if (clues.personBefore(before.normal)) return 'person';
  if (clues.organizationBefore(before.normal)) return 'organization';
  const title = tokens[start - 2];
  if (!before.stopWord && lowercaseWord(title) && clues.personBefore(title.normal)) return 'person';
  return null;
}

/** A lowercase title and a preposition (a stop word) before the run: "il presidente del | Consiglio". */
function titleOfBefore(tokens: readonly Token[], start: number, clues: NameClues): boolean {
  const [title, preposition] = [tokens[start - 2], tokens[start - 1]];
  return (
    preposition?.kind === 'word' &&
    preposition.stopWord &&
    /^\p{Ll}/u.test(preposition.text) &&
    title?.kind === 'word' &&
    /^\p{Ll}/u.test(title.text) &&
    clues.personBefore(title.normal)
  );
}

/** A stretch of a run of capitalised words that is one mention, with what the words before it say. */
interface RunPart {
  from: number;
  to: number;
  titled: boolean;
  clue: EntityType | null;
}

/**
 * What opens a run and is not part of the name, in another language's clues: a job title or form of
 * address written capitalised (German's nouns: "Präsidenten Emmanuel Macron"; any word opening a
 * sentence: "Президент России Владимир Путин") with the country or city it is of, before or after it
 * ("Frankreichs Präsident ..."); the country of a title written in lowercase before the name ("президентом
 * Турции Реджепом Тайипом Эрдоганом"); a word for a company opening a sentence ("Empresa Iberdrola"),
 * unless names are made with it ("Банк Россия") and no German article shows it a noun ("der Konzern
 * Siemens"); in German, an abstract noun opening the run ("Verteidigung Europas": the defence of Europe).
 * A title with only its country leaves the country, a place. What a title is of, when it is neither
 * ("Глава Банка России Эльвира Набиуллина", "prezes Orlenu Daniel Obajtek", "глава Газпрома Алексей
 * Миллер"), is a mention of its own, where the person's name starts at a first name the lexicon knows (or
 * is the last two words) and the text names what comes before it elsewhere too or it is an
 * organisation's or a place's; after a connector it is all the title is of ("Analyst der Commerzbank").
 */
function runParts(
  run: readonly Token[],
  clueBeforeRun: EntityType | null,
  context: {
    clues: NameClues;
    evidence: Evidence;
    commonNouns: ReadonlySet<string> | null;
    language: string | null;
    /** A title and a preposition come before the run: "presidente del | Consiglio Giorgia Meloni". */
    titleOfBefore: boolean;
  },
): RunPart[] {
  const { clues, evidence, commonNouns, language } = context;
  const words = run.map((t) => wordOf(t.text).toLowerCase());
  if (context.titleOfBefore) {
    // "il presidente del Consiglio Giorgia Meloni": the title's complement, then the person, if the run
    // can be told apart so; else no clue ("el presidente del Gobierno, Pedro Sánchez": the run is Gobierno).
    const first = personAfterComplement(words, 0, clues, evidence, run);
    return first > 0
      ? [
          { from: 0, to: first, titled: false, clue: null },
          { from: first, to: run.length, titled: true, clue: 'person' },
        ]
      : [{ from: 0, to: run.length, titled: false, clue: clueBeforeRun }];
  }
  let titled = false;
  let clue = clueBeforeRun;
  let start = 0;
  let cut = clue === 'person' ? 0 : -1;
  for (let k = 0; k < words.length; k += 1) {
    const word = words[k]!;
    if (clues.personBefore(word)) {
      titled = true;
      cut = k + 1;
      clue = 'person';
    } else if (clues.organizationBefore(word) && (!clues.organizationWord(word) || commonNouns?.has(word))) {
      cut = k + 1;
      clue = 'organization';
    } else if (clues.place(word) && (cut >= 0 || words.slice(k + 1).some((w) => clues.personBefore(w)))) {
      if (cut === k) cut = k + 1;
    } else if (
      language === 'de' &&
      k === 0 &&
      !clues.organizationWord(word) &&
      (isAbstractGermanNoun(word) || (commonNouns?.has(word) && connectors.has(words[1] ?? '')))
    ) {
      // "Verteidigung Europas"; "Aktie der Deutschen Bank", the share of Deutsche Bank.
      cut = 1;
    } else break;
    if (cut === k + 1) start = cut;
  }
  const whole: RunPart = { from: 0, to: run.length, titled: false, clue: clueBeforeRun };
  if (start === 0 && clue !== 'person') return [whole];
  if (start >= words.length) {
    // "Президент России": the country stays, as a place; a title alone names no one.
    const place = words.findLastIndex((w) => clues.place(w));
    return [place > 0 ? { from: place, to: place + 1, titled: false, clue: null } : whole];
  }
  // "Analyst der Commerzbank", "Präsident der Europäischen Kommission": what the title is of, no person,
  // unless a first name the lexicon knows starts one after it ("... Kommission Ursula von der Leyen").
  if (start > 0 && connectors.has(words[start]!)) {
    const first = words.findIndex((w, k) => k > start + 1 && isFirstName(w));
    return first > 0
      ? [
          { from: start, to: first, titled: false, clue: null },
          { from: first, to: run.length, titled: true, clue: 'person' },
        ]
      : [{ from: start, to: run.length, titled: false, clue: null }];
  }
  const first = personAfterComplement(words, start, clues, evidence, run);
  if (first > start)
    return [
      { from: start, to: first, titled: false, clue: null },
      { from: first, to: run.length, titled, clue },
    ];
  // "Předsedkyně Evropské komise": what the title is of, an organisation, where no name follows.
  if (clues.organizationWord(words.at(-1)!) && !/^\p{Lu}/u.test(run.at(-1)!.text))
    return [{ from: start, to: run.length, titled: false, clue: 'organization' }];
  return [{ from: start, to: run.length, titled, clue }];
}

/**
 * Where a person's name starts after what a title is of, in `words` from `start`: at a first name the
 * lexicon knows, else the last two words, when every word before it is an organisation's or a place's or
 * one the text capitalises elsewhere too; -1 when there is no such complement.
 */
function personAfterComplement(
  words: readonly string[],
  start: number,
  clues: NameClues,
  evidence: Evidence,
  run: readonly Token[],
): number {
  const known = words.findIndex((w, k) => k > start && isFirstName(w));
  const first = known >= 0 ? known : words.some((w) => connectors.has(w)) ? -1 : words.length - 2;
  // An acronym is a name of its own: "Глава ЦБ Эльвира Набиуллина".
  const ownMention = (w: string, k: number) =>
    clues.organizationWord(w) ||
    clues.place(w) ||
    isAcronym(run[k]!.text) ||
    (evidence.capitalisedStems.get(clues.nameStem(w)) ?? 0) > 1;
  return first > start && words.slice(start, first).every((w, k) => ownMention(w, start + k)) ? first : -1;
}

/** "St." and "Bros." lose their full stop; "U.S." keeps its dots. */
function wordOf(text: string): string {
  return /^[^.]+\.$/.test(text) ? text.slice(0, -1) : text;
}

/** Could these words after a job title be a person's name rather than the rest of an organisation's? */
function personLike(
  words: readonly string[],
  evidence: Evidence,
  { firstMayBeAWord = false }: { firstMayBeAWord?: boolean } = {},
): boolean {
  const lower = words.map((w) => w.toLowerCase());
  // A family name's particles may sit inside ("Ursula von der Leyen"), "of" and "for" may not.
  const particles = lower.filter((w) => nameParticles.has(w)).length;
  if (
    lower.length - particles > 3 ||
    lower.some((w) => isOrganizationWord(w) || (connectors.has(w) && !nameParticles.has(w)))
  )
    return false;
  const whole = nameKind(lower.join(' '));
  // "General Election": an ordinary word after the title. "Bill Nelson", "Rod Eddington": a first name
  // that is a word too, before a word that is none.
  const first = nameKind(lower[0]!);
  const second = lower.length === 2 ? nameKind(lower[1]!) : 'notAName';
  firstMayBeAWord ||= second !== 'notAName' && second !== 'time';
  return (
    whole !== 'organization' &&
    whole !== 'place' &&
    (first !== 'notAName' || firstMayBeAWord) &&
    first !== 'time' &&
    !evidence.lowercase.has(lower[0]!)
  );
}

/**
 * What a place's name says before "of": "Sea of Japan", "Strait of Hormuz", "Democratic Republic of
 * Congo"; "City of London" and "State of Israel" when a place the lexicon knows follows ("State of the
 * Union" is a speech).
 */
const placesOf = new Set([
  'sea',
  'gulf',
  'strait',
  'straits',
  'bay',
  'isle',
  'islands',
  'lake',
  'cape',
  'republic',
]);
const territories = new Set(['kingdom', 'state', 'province', 'city', 'region', 'county']);

/** "Sea of Japan", "Gulf of Mexico", "Democratic Republic of Congo", "City of London": a place. */
function placeOfPlace(words: readonly string[]): boolean {
  const of = words.indexOf('of');
  if (of < 1 || of === words.length - 1) return false;
  const head = words[of - 1]!;
  const rest = words.slice(words[of + 1] === 'the' ? of + 2 : of + 1).join(' ');
  return placesOf.has(head) || (territories.has(head) && nameKind(rest) === 'place');
}

function typeOf(mention: Mention, clues: NameClues | null): EntityType {
  const words = mention.tokens.map((w) => w.toLowerCase());
  const whole = nameKind(words.join(' '));
  if (whole === 'organization' || whole === 'place' || whole === 'person') return whole;
  if (mention.company) return 'organization';
  if (mention.titled) return 'person';
  if (clues) {
    const type = typeByClues(mention, words, clues);
    if (type) return type;
  }
  if (placeOfPlace(words)) return 'place';
  // "Marine Le Pen", "Charles De Gaulle": a capitalised particle inside a name is a family name's.
  const inner = mention.tokens.slice(1, -1);
  if (inner.some((w) => /^\p{Lu}/u.test(w) && nameParticles.has(w.toLowerCase()))) return 'person';
  if (words.some((w) => isOrganizationWord(w)) && words.length > 1) return 'organization';
  if (words.length > 1 && (isPlaceWord(words.at(-1)!) || placePrefixes.has(words[0]!))) return 'place';
  const first = nameKind(words[0]!);
  const last = nameKind(words.at(-1)!);
  if (words.length > 1 && (first === 'firstName' || last === 'lastName')) return 'person';
  if (words.length === 1 && (whole === 'firstName' || whole === 'lastName')) return 'other';
  // "AOL Europe", "UK Athletics": a name built on an acronym is an organisation's.
  if (words.length > 1 && isAcronym(mention.tokens[0]!) && whole === null) return 'organization';
  if (mention.tokens.length === 1 && (isAcronym(mention.tokens[0]!) || isCamelCase(mention.tokens[0]!))) {
    return 'organization';
  }
  return 'other';
}

/** The kind another language's clues give a name (name-clues.ts), or null when they say nothing. */
function typeByClues(mention: Mention, words: readonly string[], clues: NameClues): EntityType | null {
  const name = words.join(' ');
  if (clues.place(name)) return 'place';
  if (mention.clue) return mention.clue;
  if (words.length > 1 && words.some((w) => clues.organizationWord(w))) return 'organization';
  // German writes an institution's word into a compound: "Europäische Zentralbank", "Bundesministerium".
  if (clues.compoundsWords && words.length > 1 && endsWithOrganizationWord(words.at(-1)!, clues))
    return 'organization';
  // The English lexicon's names, written without the accents they have here: María López, Berlín.
  const bare = words.map(withoutAccents);
  const whole = nameKind(bare.join(' '));
  if (whole === 'organization' || whole === 'place' || whole === 'person') return whole;
  const first = nameKind(bare[0]!);
  const last = nameKind(bare.at(-1)!);
  if (words.length > 1 && (first === 'firstName' || last === 'lastName')) return 'person';
  // Hungarian writes the family name first: Orbán Viktor.
  if (words.length > 1 && !clues.firstNameFirst && last === 'firstName') return 'person';
  // A Cyrillic name spelled as the lexicon spells it: Мария Лопес, Владимир Путин.
  if (words.length > 1) {
    const kinds = (word: string) => latinSpellings(word).map((w) => nameKind(w));
    const firstKinds = kinds(words[0]!);
    const lastKinds = kinds(words.at(-1)!);
    if (
      firstKinds.some((k) => k === 'firstName' || k === 'person') ||
      lastKinds.some((k) => k === 'lastName' || k === 'person')
    )
      return 'person';
  }
  return null;
}

/** A compound whose last part is an organisation's word of at least four letters ("zentral|bank"). */
function endsWithOrganizationWord(word: string, clues: NameClues): boolean {
  for (let k = 1; k <= word.length - 4; k += 1) if (clues.organizationWord(word.slice(k))) return true;
  return false;
}

function isAcronym(word: string): boolean {
  return /^(?:\p{Lu}\.?){2,6}$/u.test(word) || /^\p{Lu}{1,3}&\p{Lu}{1,3}$/u.test(word);
}

function isCamelCase(word: string): boolean {
  return /^\p{Lu}\p{Ll}+\p{Lu}\p{L}*$/u.test(word) || /^\p{Ll}+\p{Lu}\p{L}*$/u.test(word);
}

/**
 * "Time Warner" and "TimeWarner", "U.S." and "US" are one name; so are "Путина" and "Путин" where names
 * are declined (each word without its case ending: NameClues.nameStem).
 */
function keyOf(words: readonly string[], clues: NameClues | null): string {
  const lower = words.map((w) => w.toLowerCase());
  return (clues ? lower.map(clues.nameStem) : lower).join('').replace(/[^\p{L}\p{N}&]/gu, '');
}

/**
 * Headlines are often Title Case ("Acme To Cut Jobs"), so they are not searched for names: they add
 * a mention to each name the body has that the headline repeats, in any of the body's forms.
 */
function countTitleMentions(candidates: Candidate[], title: readonly Sentence[]): void {
  const phrases = new Set<string>();
  for (const s of title) {
    const words = headlineWords(s.tokens);
    for (let i = 0; i < words.length; i += 1) {
      for (let n = 1; n <= longestName && i + n <= words.length; n += 1)
        phrases.add(words.slice(i, i + n).join(' '));
    }
  }
  if (phrases.size === 0) return;
  const matched = candidates.map((c) => [...c.forms.keys()].find((f) => phrases.has(f)));
  const spaced = matched.flatMap((f) => (f === undefined ? [] : [` ${f} `]));
  candidates.forEach((c, k) => {
    const form = matched[k];
    // "Scholz" inside the headline's "Olaf Scholz" is that one use, which the longer name counts (the
    // two are merged later).
    if (form !== undefined && !spaced.some((f) => f !== ` ${form} ` && f.includes(` ${form} `))) {
      c.mentions += 1;
      c.titleMentions += 1;
      // The headline's way of writing the name counts too: "Rolls-Royce" over the body's one "Rolls Royce".
      c.forms.set(form, c.forms.get(form)! + 1);
    }
  });
}

/**
 * A headline's words as the names' forms write them: what a hyphen joins ("Rolls-Royce") and a web
 * domain ("Amazon.com") one word.
 */
function headlineWords(tokens: readonly Token[]): string[] {
  const words: string[] = [];
  for (let k = 0; k < tokens.length; k += 1) {
    const t = tokens[k]!;
    const next = tokens[k + 1];
    const joins =
      words.length > 0 &&
      !t.spaced &&
      next?.spaced === false &&
      (t.text === '-' || (t.text === '.' && webEndings.has(next.text.toLowerCase())));
    if (joins) {
      words[words.length - 1] += `${t.text}${wordOf(next.text)}`;
      k += 1;
    } else words.push(wordOf(t.text));
  }
  return words;
}

/** Names longer than this many words are not looked for in the headline. */
const longestName = 6;
/** Tokens of a capitalised run at most: more than any name with its titles ("Former US Deputy Secretary of …"). */
const longestRun = 32;

/**
 * A one-word name joins the one longer name it ends (people: "Blair" -> "Tony Blair") or, when it is
 * not known as anything itself, is part of ("Domecq" -> "Allied Domecq", but "AOL" stays beside "AOL
 * Europe"); when it could join two ("Warner": "Time Warner", "Warner Bros") it stays on its own.
 */
function mergeShortForms(
  candidates: Candidate[],
  keyOfName: (words: readonly string[]) => string,
  { firstNameFirst, familyNamesMakePeople }: { firstNameFirst: boolean; familyNamesMakePeople: boolean },
): Candidate[] {
  // A person's family name: the last word, the first in Hungarian ("Orbán" joins "Orbán Viktor").
  // "al-Assad" is "Assad" written alone.
  const familyName = (tokens: readonly string[]) =>
    (firstNameFirst ? tokens.at(-1)! : tokens[0]!).replace(/^al-/i, '');
  const several = candidates.filter((c) => c.tokens.length > 1);
  // The full names: "Von der Leyen" is no host of "Leyen" beside "Ursula von der Leyen".
  const long = several.filter((c) => !several.some((l) => familyNameWithParticles(c, l)));
  const result: Candidate[] = [];
  for (const c of candidates) {
    const hosts =
      c.tokens.length === 1
        ? long.filter((l) =>
            l.type === 'person' || c.type === 'person'
              ? l.type === 'person' && keyOfName([familyName(l.tokens)]) === c.key
              : (c.type === 'other' && l.tokens.some((t) => keyOfName([t]) === c.key)) ||
                // "Apple" is "Apple Inc." written without its legal form.
                (l.tokens.length === 2 && isLegalForm(l.tokens[1]!) && keyOfName([l.tokens[0]!]) === c.key),
          )
        : long.filter((l) => familyNameWithParticles(c, l));
    const host = hosts.length === 1 ? hosts[0]! : null;
    if (!host) {
      result.push(c);
      continue;
    }
    // "Yahya Sinwar ... Sinwar said": a name of two or three words whose last one the text writes alone
    // is a person's, the way news writes a person's family name after the full name.
    if (
      familyNamesMakePeople &&
      host.type === 'other' &&
      c.type === 'other' &&
      familyNameOf(c, host, keyOfName)
    )
      host.type = 'person';
    host.mentions += c.mentions;
    host.listed ||= c.listed;
    host.shortForms.push(...c.forms.keys());
    host.titleMentions += c.titleMentions;
    host.firstSentence = Math.min(host.firstSentence, c.firstSentence);
  }
  return result;
}

/** Whether `short` (one word) is the last of `name`'s two or three words, none of them a company's or place's. */
function familyNameOf(
  short: Candidate,
  name: Candidate,
  keyOfName: (words: readonly string[]) => string,
): boolean {
  const words = name.tokens.map((t) => t.toLowerCase());
  return (
    words.length <= 3 &&
    !short.articled &&
    !name.articled &&
    // "The Scotsman ... Scotsman", "the Millennium Dome ... the Dome": a thing's name has an article, and an
    // ordinary word is neither a first name nor a family name (a name the lexicon knows is typed by it).
    nameKind(words[0]!) !== 'notAName' &&
    nameKind(words.at(-1)!) !== 'notAName' &&
    words.at(-1)!.length > 1 &&
    keyOfName([name.tokens.at(-1)!]) === short.key &&
    !name.tokens.some((t) => isAcronym(t)) &&
    !words.some((w) => isOrganizationWord(w) || isPlaceWord(w) || connectors.has(w))
  );
}

/**
 * "Von der Leyen" (opening a sentence) and "van der Bellen" are the family names of "Ursula von der Leyen"
 * and "Alexander Van der Bellen", particles and all.
 */
function familyNameWithParticles(short: Candidate, person: Candidate): boolean {
  const tail = short.tokens.map((t) => t.toLowerCase());
  const full = person.tokens.map((t) => t.toLowerCase());
  return (
    person.type === 'person' &&
    short.type !== 'organization' &&
    short.type !== 'place' &&
    nameParticles.has(tail[0]!) &&
    full.length > tail.length &&
    tail.every((t, k) => full[full.length - tail.length + k] === t)
  );
}

/**
 * Where names are declined, a full name the article writes only in another case is given in the case of
 * a short form of it that has no ending where the full one has one: "Реджепом Тайипом Эрдоганом" (with
 * Erdoğan) and "Эрдоган" give "Реджеп Тайип Эрдоган", "Emmanuelem Macronem" and "Macron" give
 * "Emmanuel Macron". Each word that has the same ending loses it; a name whose forms show no such
 * ending stays as written.
 */
function inTheCaseOfItsShortForm(name: string, shortForms: readonly string[], clues: NameClues): string {
  const words = name.split(' ');
  const last = words.at(-1)!;
  const bare = shortForms.find(
    (form) =>
      last.length > form.length &&
      last.startsWith(form) &&
      clues.nameStem(last.toLowerCase()) === form.toLowerCase(),
  );
  if (bare === undefined) return inTheNominativeOfAWoman(words, shortForms, clues) ?? name;
  const ending = last.slice(bare.length);
  return words
    .map((w) =>
      w.endsWith(ending) && [...w].length - [...ending].length >= 3 ? w.slice(0, -ending.length) : w,
    )
    .join(' ');
}

/**
 * Russian and Ukrainian women's names in another case, given in the nominative of the short form the
 * text writes ("Марией Захаровой" with "Захарова": Мария Захарова); null when the name is no such.
 * The nominative ends in "а" or "я" where the other cases end otherwise ("ой", "ей", "ии", "у", "ю").
 */
function inTheNominativeOfAWoman(
  words: readonly string[],
  shortForms: readonly string[],
  clues: NameClues,
): string | null {
  const last = words.at(-1)!;
  const nominative = shortForms.find(
    (form) =>
      /[ая]$/u.test(form) &&
      form !== last &&
      clues.nameStem(form.toLowerCase()) === clues.nameStem(last.toLowerCase()) &&
      last.startsWith(form.slice(0, -1)),
  );
  if (nominative === undefined) return null;
  const named = words.map((w) => {
    const ending = femaleObliqueEndings.find(
      ([oblique]) => w.endsWith(oblique) && w.length - oblique.length >= 2,
    );
    return ending ? w.slice(0, -ending[0].length) + ending[1] : w;
  });
  return named.at(-1) === nominative ? named.join(' ') : null;
}

/** The endings of a Russian or Ukrainian woman's name in the other cases, and the nominative's. */
const femaleObliqueEndings: [string, string][] = [
  ['ией', 'ия'],
  ['ии', 'ия'],
  ['ию', 'ия'],
  ['ой', 'а'],
  ['ою', 'а'],
  ['ей', 'я'],
  ['ею', 'я'],
  ['ую', 'ая'],
  ['у', 'а'],
  ['ю', 'я'],
];

/**
 * The form the article uses most; on a tie the longer in English ("Time Warner" over "TimeWarner"), the
 * shorter where names are declined (mostly the nominative: "Deutsche Bank" over "Deutschen Bank", "Tusk"
 * over "Tuska").
 */
function displayName(c: Candidate, declined: boolean): string {
  const longer = declined ? -1 : 1;
  return [...c.forms.entries()].sort((a, b) => b[1] - a[1] || longer * (b[0].length - a[0].length))[0]![0];
}
