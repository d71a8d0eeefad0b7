// Which monitored companies an article mentions. Monitors are compiled once: each name and alias
// into the words it is looked for as (company-names.ts), indexed so that an article costs one pass
// over its words however many monitors there are (name-index.ts: 10,000 monitors, a fraction of a
// millisecond for a 500-word article). Words compare without case and diacritics (fold.ts), legal
// forms are optional on both sides (legal-suffixes.ts), acronyms count only in capitals, and
// names that are also English words only with evidence that they are meant as names
// (mention-evidence.ts; at the start of a sentence, company-news.ts). `organizations`, from the
// enricher's entity extractor, is such evidence. No name counts inside the name of a place or of
// something else ("the Amazon rainforest", "Prince of Orange": mention-evidence.ts, namesakes.ts).
//
// Where the article's language declines names (Russian, Ukrainian, Polish, Czech, German's genitive,
// Turkish's suffixes after an apostrophe), its words and the names' words are compared without their case
// endings (name-clues.ts): a monitor on "Газпром" finds "акции Газпрома", one on "Aselsan" finds
// "Aselsan'ın", one on "Deutsche Bank" finds "der Deutschen Bank".
//
// Deterministic: results follow the order of the monitors, terms the order of the monitor's names.
import { nameCluesFor, turkishSuffix } from '../intelligence/embedded/name-clues.ts';
import { isEnglishWord } from './common-words.ts';
import { textLanguage } from '../runtime/language.ts';
import { scriptLanguage } from '../runtime/script-language.ts';
import { companyName, organizationKey } from './company-names.ts';
import { opensCompanyNews } from './company-news.ts';
import {
  endsAnotherName,
  isCapitalised,
  isFollowedByLegalForm,
  isProperNoun,
  namesACommonThing,
  namesAPlace,
  opensASentenceAlone,
} from './mention-evidence.ts';
import { addName, findNames, type Found, type IndexedName, type NameIndex } from './name-index.ts';
import { isInsideANamesake } from './namesakes.ts';
import { tokenize, type Token, type Tokenized } from './tokens.ts';

export interface Monitor {
  monitorId: string;
  company: string;
  aliases: readonly string[];
}

export interface Article {
  title: string;
  text: string;
  /** Names an entity extractor typed as organisations: corroboration for ambiguous names. */
  organizations?: readonly string[];
  /** ISO 639-1, null or absent when unknown: where names are declined, their case endings do not count. */
  language?: string | null;
}

export interface CompanyMatch {
  monitorId: string;
  /** The monitor's company name and aliases, as written in the monitor, that the article mentions. */
  matchedTerms: string[];
}

/** Why an occurrence of a name counts as a mention of the company, or does not. */
export type MentionReason =
  /** Not an English word, not very short: the words are enough. */
  | 'distinctive name'
  | 'acronym in capitals'
  | 'proper noun'
  /** A one-word name opening a sentence, followed by what a company does ("Next reported ..."). */
  | 'company news after it'
  | 'proper noun elsewhere in the article'
  | 'legal form after it'
  | 'listed as an organisation'
  | 'another name of the company'
  | 'spelled as the company spells it'
  | 'lower case'
  /** A place, or the first word of a place's or an institution's name ("the Amazon", "Orange County"). */
  | 'part of a place name'
  /** Inside a name of something else that shares its word ("Prince of Orange", "the Brazilian Amazon"). */
  | 'part of a namesake'
  /** An ambiguous name before a noun that gives its word the common sense ("Apple growers"). */
  | 'the common word before a noun'
  | 'no evidence it is a name';

export interface Mention {
  monitorId: string;
  term: string;
  field: 'title' | 'text';
  /** Offsets in that field. */
  start: number;
  end: number;
  accepted: boolean;
  reason: MentionReason;
}

export interface CompanyMatcher {
  /** Monitors compiled. */
  readonly size: number;
  match(article: Article): CompanyMatch[];
  /** Every occurrence of a monitored name, accepted or not, with the reason: for diagnosis. */
  explain(article: Article): Mention[];
}

export interface MatcherOptions {
  /** Whether a folded word is an ordinary English word; wink's English lexicon by default. */
  isCommonWord?: (word: string) => boolean;
}

interface CompiledMonitor {
  monitorId: string;
  terms: string[];
  /** organizationKey() of each name, for corroboration by the entity extractor. */
  keys: Set<string>;
}

interface Occurrence extends Found {
  accepted: boolean;
  reason: MentionReason;
}

export function compileMonitors(monitors: readonly Monitor[], options: MatcherOptions = {}): CompanyMatcher {
  const isCommonWord = options.isCommonWord ?? isEnglishWord;
  const compiled: CompiledMonitor[] = [];
  const index: NameIndex = new Map();
  const names: IndexedName[] = [];
  // The names by their words' stems, one index a language that declines them, made when first needed.
  const stemmedIndexes = new Map<string, NameIndex>();
  const stemmedIndex = (language: string, stem: (key: string) => string): NameIndex => {
    let stemmed = stemmedIndexes.get(language);
    if (!stemmed) {
      stemmed = new Map();
      for (const name of names)
        addName(stemmed, { ...name, variant: { ...name.variant, keys: name.variant.keys.map(stem) } });
      stemmedIndexes.set(language, stemmed);
    }
    return stemmed;
  };

  monitors.forEach((monitor, m) => {
    const terms = [...new Set([monitor.company, ...monitor.aliases].map((t) => t.trim()))].filter(Boolean);
    const keys = new Set<string>();
    const seen = new Set<string>();
    terms.forEach((term, t) => {
      const name = companyName(term, isCommonWord);
      if (!name) return;
      keys.add(name.key);
      for (const variant of name.variants) {
        // Two names of one monitor that compare the same ("News Corporation", "News Corp"): the
        // first one written gets the mention.
        const signature = `${variant.keys.join(' ')}|${variant.gaps.join('')}|${variant.acronym}`;
        if (seen.has(signature)) continue;
        seen.add(signature);
        const indexed = { monitor: m, term: t, variant };
        addName(index, indexed);
        names.push(indexed);
      }
    });
    compiled.push({ monitorId: monitor.monitorId, terms, keys });
  });

  /**
   * The names in the text. Where the language declines names they are also looked up by their words'
   * stems; a name found only so must be written as a name there (writtenAsName): a company's name in
   * another case is ("akcje Orlenu"), while a common noun it shares a stem with is not (Czech "škody",
   * damage, beside Škoda).
   */
  const namesIn = (text: Tokenized, language: string | null | undefined): Map<number, Found[]> => {
    const exact = findNames(text.tokens, index);
    const stem = declinedNameStem(language);
    if (!stem) return exact;
    const stemmedTokens = text.tokens.map((t) => ({ ...t, key: stem(t.key), base: stem(t.base) }));
    const stemmed = findNames(stemmedTokens, stemmedIndex(language!, stem));
    const same = (a: Found, b: Found) =>
      a.first === b.first && a.last === b.last && a.name.term === b.name.term;
    for (const [m, found] of stemmed) {
      const kept = found.filter(
        (f) => exact.get(m)?.some((e) => same(e, f)) || writtenAsName(text.tokens[f.first]!),
      );
      if (kept.length > 0) stemmed.set(m, kept);
      else stemmed.delete(m);
    }
    return stemmed;
  };

  const judged = (article: Article): { text: Tokenized; occurrences: Occurrence[] } => {
    const text = tokenize([article.title, article.text]);
    const occurrences: Occurrence[] = [];
    let organizations: Set<string> | null = null;
    const listed = (monitor: CompiledMonitor) => {
      organizations ??= new Set((article.organizations ?? []).map(organizationKey));
      for (const key of monitor.keys) if (organizations.has(key)) return true;
      return false;
    };
    for (const [m, found] of namesIn(text, article.language ?? scriptTold(article))) {
      occurrences.push(...judge(found, text, isCommonWord, () => listed(compiled[m]!)));
    }
    return { text, occurrences };
  };

  return {
    size: compiled.length,

    match(article) {
      const terms = new Map<number, Set<number>>();
      for (const { name, accepted } of judged(article).occurrences) {
        if (!accepted) continue;
        const set = terms.get(name.monitor);
        if (set) set.add(name.term);
        else terms.set(name.monitor, new Set([name.term]));
      }
      return [...terms.entries()]
        .sort(([a], [b]) => a - b)
        .map(([m, set]) => {
          const monitor = compiled[m]!;
          return {
            monitorId: monitor.monitorId,
            matchedTerms: [...set].sort((a, b) => a - b).map((t) => monitor.terms[t]!),
          };
        });
    },

    explain(article) {
      const { text, occurrences } = judged(article);
      return occurrences.map(({ name, first, last, accepted, reason }) => {
        const from = text.tokens[first]!;
        return {
          monitorId: compiled[name.monitor]!.monitorId,
          term: compiled[name.monitor]!.terms[name.term]!,
          field: from.block === 0 ? 'title' : 'text',
          start: from.start,
          end: text.tokens[last]!.end,
          accepted,
          reason,
        };
      });
    },
  };
}

/**
 * Written as a name: capitalised where not every word is (mid-sentence), or with a suffix after an
 * apostrophe, which Turkish writes after proper names only ("Aselsan'ın" opening a headline).
 */
const writtenAsName = (token: Token) =>
  token.capitalised && (!token.initial || turkishSuffix.test(token.text));

/**
 * The language of an article no one gave a language for, where its script tells it (script-language.ts):
 * "Акции Газпрома выросли" is Russian, and "Газпрома" a case of "Газпром", whatever its feed declared.
 * Latin text stays unknown: detection guesses wrong on headlines (English read as French), and a wrong
 * language's case endings would find names that are not there.
 */
function scriptTold(article: Article): string | null {
  const sample = `${article.title} ${article.text.slice(0, 500)}`;
  return scriptLanguage(sample) === null ? null : textLanguage(sample);
}

/** The stem of a folded word where `language` declines names; null where it does not. */
function declinedNameStem(language: string | null | undefined): ((key: string) => string) | null {
  const clues = language ? nameCluesFor(language) : null;
  return clues?.declinesNames ? clues.nameStem : null;
}

/** Whether the article writes the occurrence as the monitor spells it, accents and all. */
function spelledAsMonitored(tokens: readonly Token[], occurrence: Occurrence): boolean {
  const spelled = occurrence.name.variant.spelled;
  if (!spelled) return false;
  for (let i = occurrence.first; i <= occurrence.last; i += 1)
    if (tokens[i]!.text.toLowerCase().normalize('NFC') !== spelled[i - occurrence.first]!.normalize('NFC'))
      return false;
  return true;
}

/** Decides each occurrence of one monitor's names (rules in mention-evidence.ts). */
function judge(
  found: readonly Found[],
  text: Tokenized,
  isCommonWord: (word: string) => boolean,
  listedAsOrganization: () => boolean,
): Occurrence[] {
  const { tokens, sentences } = text;
  const occurrences: Occurrence[] = found.map((f) => ({ ...f, accepted: false, reason: 'lower case' }));
  const ambiguous: Occurrence[] = [];
  let distinctive = false;
  for (const occurrence of occurrences) {
    const { variant } = occurrence.name;
    if (namesAPlace(tokens, occurrence)) {
      occurrence.reason = 'part of a place name';
    } else if (isInsideANamesake(tokens, occurrence)) {
      occurrence.reason = 'part of a namesake';
    } else if (!variant.ambiguous) {
      occurrence.accepted = true;
      occurrence.reason = variant.acronym ? 'acronym in capitals' : 'distinctive name';
      distinctive = true;
    } else if (namesACommonThing(tokens, occurrence)) {
      occurrence.reason = 'the common word before a noun';
    } else if (isCapitalised(tokens, occurrence)) {
      ambiguous.push(occurrence);
    }
  }
  if (ambiguous.length === 0) return occurrences;
  // Rule 2g reads no news into the name where the article writes it as part of someone else's: after
  // "Liam Fox", "Fox said" is his.
  const someonesName = ambiguous.some((o) => endsAnotherName(tokens, o, isCommonWord));
  const asName = ambiguous.map((o): MentionReason | null =>
    isProperNoun(tokens, sentences, o, isCommonWord)
      ? 'proper noun'
      : !someonesName && opensASentenceAlone(tokens, o) && opensCompanyNews(tokens, o)
        ? 'company news after it'
        : null,
  );
  const proper = asName.map((reason) => reason !== null);
  const corroboration: MentionReason | null = proper.includes(true)
    ? 'proper noun elsewhere in the article'
    : ambiguous.some((o) => isFollowedByLegalForm(tokens, o, isCommonWord))
      ? 'legal form after it'
      : listedAsOrganization()
        ? 'listed as an organisation'
        : distinctive
          ? 'another name of the company'
          : null;
  ambiguous.forEach((occurrence, i) => {
    occurrence.accepted = corroboration !== null;
    occurrence.reason = asName[i] ?? corroboration ?? 'no evidence it is a name';
    // "Nestlé" is no English word, though "nestle" is: written with the name's own accents, it is the
    // company's, in a German article too, where every noun's capital (and "Nestlé-Aktie") says nothing.
    if (!occurrence.accepted && spelledAsMonitored(tokens, occurrence)) {
      occurrence.accepted = true;
      occurrence.reason = 'spelled as the company spells it';
    }
  });
  return occurrences;
}
