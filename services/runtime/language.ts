// Language codes as ISO 639-1, and detection from text when there is enough
// of it to be sure (the precedence is in normalise-item.ts).
import { franc, francAll } from 'franc-min';
import { iso6393, iso6393To1 } from 'iso-639-3';
import { scriptDenies, scriptLanguage } from './script-language.ts';

/**
 * A declared language as its ISO 639-1 code: "en-US", "pt_BR", "DE" -> "en", "pt", "de"; also the three
 * letters of ISO 639-2 and 639-3 ("deu", "ger", "eng-GB") and the language's name in English or in
 * itself ("English", "Deutsch", "français"), as feeds' <language> and <dc:language> are written in the
 * wild. Null when it names no language that has a two-letter code.
 */
export function languageCode(declared: string | null | undefined): string | null {
  if (!declared) return null;
  const match = /^\s*([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]+)*\s*$/.exec(declared);
  if (match?.[1]!.length === 2) {
    const code = match[1].toLowerCase();
    return withdrawnCodes[code] ?? code;
  }
  const named = namedLanguages();
  if (match) return named.get(match[1]!.toLowerCase()) ?? null;
  return (
    named.get(
      declared
        .trim()
        .toLowerCase()
        .replace(/\s*\(.*\)$/, ''),
    ) ?? null
  );
}

/**
 * ISO 639-1 codes withdrawn in 1989 that Java's Locale (and so Android) still sends: Hebrew as iw,
 * Indonesian as in, Yiddish as ji; and Javanese's jw, Moldavian's mo.
 */
const withdrawnCodes: Readonly<Record<string, string>> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro' };

let named: Map<string, string> | undefined;
/** Three-letter codes and names (English and native, lower case) of the languages with a 639-1 code. */
function namedLanguages(): Map<string, string> {
  if (named) return named;
  named = new Map();
  for (const language of iso6393) {
    const code = language.iso6391;
    if (!code) continue;
    for (const key of [language.iso6393, language.iso6392B, language.iso6392T, language.name])
      if (key) named.set(key.toLowerCase(), code);
    try {
      const own = new Intl.DisplayNames([code], { type: 'language' }).of(code);
      if (own && own !== code) named.set(own.toLowerCase(), code);
    } catch {
      // a code this Node's ICU has no data for: its English name is enough
    }
  }
  // the three-letter and the two-letter macrolanguage forms detection also uses
  for (const [individual, code] of Object.entries(macrolanguages)) named.set(individual, code);
  return named;
}

/** Below this many characters detection guesses more than it knows. */
export const minDetectableLength = 120;

/**
 * franc names some languages by an individual code of a macrolanguage that has no ISO 639-1 code of
 * its own, where feeds and readers use the macrolanguage's: Standard Arabic (arb) is ar, Iranian
 * Persian (pes) fa. Without these an Arabic article was detected as no language at all.
 */
const macrolanguages: Record<string, string> = {
  arb: 'ar',
  pes: 'fa',
  swh: 'sw',
  uzn: 'uz',
  zlm: 'ms',
  azj: 'az',
  plt: 'mg',
  npi: 'ne',
  ckb: 'ku',
  pbu: 'ps',
  fuv: 'ff',
};

export function detectLanguage(text: string): string | null {
  if (text.length < minDetectableLength) return null;
  const iso3 = franc(text.slice(0, 2_000), { minLength: minDetectableLength });
  return codeOf(iso3);
}

const codeOf = (iso3: string): string | null =>
  iso3 === 'und' ? null : (iso6393To1[iso3] ?? macrolanguages[iso3] ?? null);

/**
 * Where among franc's scores a declared language must fall for detection to overrule it: its distance
 * from the best, as a share of the distance from the best to the worst of the languages franc knows.
 * franc's scores crowd towards 1 as a text grows (on 3,000 characters of a German feed the runner-up
 * scores 0.97), so no fixed margin tells a sure detection from a guess; the declared language's place
 * does. Declared English: a German feed 0.40 and two Portuguese ones 0.46 and 0.53 of the way down (right
 * to overrule), English headlines read as French 0.16 and 0.19 (wrong to).
 */
const overrulingShare = 0.3;

/**
 * The language of a text someone declared a language for (its source, its feed): the declaration,
 * unless detection puts it far below the language it finds, or the text is plainly in a script the
 * declared language is not written in (scriptDenies). Detection alone, where nothing is
 * declared.
 */
export function declaredOrDetected(text: string, declared: string | null): string | null {
  if (!declared) return detectLanguage(text);
  if (scriptDenies(declared, text)) return textLanguage(text) ?? declared;
  if (text.length < minDetectableLength) return declared;
  const scores = francAll(text.slice(0, 2_000), { minLength: minDetectableLength });
  const detected = scores[0] ? codeOf(scores[0][0]) : null;
  if (detected === null || detected === declared) return declared;
  // A language franc does not know (its declared score unknown) is not overruled by one it does.
  const declaredScore = scores.find(([iso3]) => codeOf(iso3) === declared)?.[1];
  const spread = 1 - (scores.at(-1)?.[1] ?? 1);
  if (declaredScore === undefined || spread <= 0) return declared;
  return (1 - declaredScore) / spread >= overrulingShare ? detected : declared;
}

/**
 * The commonest function words of the languages news is most often written in with Latin letters: the
 * articles, conjunctions, prepositions and the verb "to be" a sentence can hardly do without. Words
 * several of them write alike ("de", "a", "en") are left out; "la" and "die" stay in each that has them.
 */
const functionWords: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    en: 'the and of to is are was were for with that this it on at by from has have will be an as but not',
    de: 'der die das und ist sind war nicht ein eine einen für mit von zu den dem des auf im auch sich wird werden nach bei aus',
    fr: 'le la les des du et est sont une un pour dans avec que qui pas sur au aux ce cette il elle par plus',
    es: 'el la los las del y es son una por con para que se al lo como más pero su sus fue está',
    it: 'il la gli della delle di che è sono e per con una non del nel alla dei anche più ha',
    pt: 'o os as da do das dos é são e um uma para com não que em no na nos mais foi ao',
    nl: 'het een en van is zijn niet op dat met voor die aan ook bij wordt worden naar er',
  }).map(([code, words]) => [code, new Set(words.split(' '))]),
);

/**
 * The language of a Latin text too short to detect (under 120 characters), when its function words
 * plainly tell it: three or more of one language's, and more than twice any other's. Null otherwise,
 * and for most headlines, which have few. "Das ist eine gute Nachricht für die Bürger" is German; read as
 * English, its "die" had made it −0.95 negative.
 */
export function functionWordLanguage(text: string): string | null {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? [])
    for (const [code, words] of Object.entries(functionWords))
      if (words.has(word)) counts.set(code, (counts.get(code) ?? 0) + 1);
  const [best, second] = [...counts].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] < 3 || (second && best[1] <= 2 * second[1])) return null;
  return best[0];
}

/**
 * A text's language as far as it can be told: detected from 120 characters, else by its script
 * (script-language.ts: "Банк повысил ставку." is Russian at any length); null when neither tells it.
 */
export function textLanguage(text: string): string | null {
  return detectLanguage(text) ?? scriptLanguage(text);
}

/**
 * The declared language, unless the text is plainly written in a script that language is not written in
 * (script-language.ts: Cyrillic text under a feed's `<language>en</language>`); then what the text tells,
 * by detection or by its script alone. Latin text declared Russian stays Russian when it is too short to
 * detect: a Russian outlet's Latin-only headline ("iPhone 16") says nothing against it. Cheaper than
 * declaredOrDetected (no detection unless the script denies), so it is asked of every item of a feed.
 */
export function declaredUnlessScriptDenies(text: string, declared: string): string {
  return scriptDenies(declared, text) ? (textLanguage(text) ?? declared) : declared;
}

/**
 * The language of a text no one declared a language for, where a reader would most likely assume `usual`
 * (speech without a voice or language asked for: the default voice is English). A script that tells its
 * language (script-language.ts) tells it; Latin text stays `usual` unless detection puts `usual` far
 * below what it finds (declaredOrDetected). Detection alone sent a quarter of the bundles of English
 * headlines tried to the French or Dutch voice, and 5,000 characters of one English sentence to French.
 */
export function languageOrUsual(text: string, usual: string): string {
  const script = scriptLanguage(text);
  if (script !== null) return detectLanguage(text) ?? script;
  return declaredOrDetected(text, usual) ?? usual;
}
