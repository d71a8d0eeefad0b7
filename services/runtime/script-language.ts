// The language a text's script tells, for a text too short to detect (language.ts detects from 120
// characters). "Банк повысил ставку." is no English whatever its length: spoken by the English voice it
// came out as a tenth of a second of silence. A script most languages share (Latin) tells nothing; one
// that a few share (Cyrillic, Arabic) tells the most read of them unless letters only another uses show.
//
// Only letters count, and the script must hold most of them: a Russian name in an English sentence does
// not make it Russian.

/** Scripts written by one language above all, by Unicode script name. */
const scriptLanguages: [RegExp, string][] = [
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Lao}/u, 'lo'],
  [/\p{Script=Khmer}/u, 'km'],
  [/\p{Script=Myanmar}/u, 'my'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Armenian}/u, 'hy'],
  [/\p{Script=Georgian}/u, 'ka'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Bengali}/u, 'bn'],
  [/\p{Script=Gurmukhi}/u, 'pa'],
  [/\p{Script=Gujarati}/u, 'gu'],
  [/\p{Script=Oriya}/u, 'or'],
  [/\p{Script=Tamil}/u, 'ta'],
  [/\p{Script=Telugu}/u, 'te'],
  [/\p{Script=Kannada}/u, 'kn'],
  [/\p{Script=Malayalam}/u, 'ml'],
  [/\p{Script=Sinhala}/u, 'si'],
  [/\p{Script=Ethiopic}/u, 'am'],
  [/\p{Script=Tibetan}/u, 'bo'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
];

/** Within a shared script, letters that only one of its languages writes. */
const ownLetters: Record<string, [RegExp, string][]> = {
  ru: [
    [/[іїєґ]/iu, 'uk'],
    [/[ђћџјљњ]/iu, 'sr'],
    [/[ў]/iu, 'be'],
    [/[әғқңөұүһ]/iu, 'kk'],
    [/[ѓќѕ]/iu, 'mk'],
  ],
  ar: [
    [/[ٹڈڑںےھ]/u, 'ur'],
    [/[پچژگکی]/u, 'fa'],
  ],
};

/**
 * The script each language not written in Latin letters is written in (ISO 639-1; Han for Chinese and
 * Japanese alike). A language missing here is written in Latin letters, or in more than one script
 * (`writtenInSeveral`).
 */
const writtenIn: Record<string, string> = Object.fromEntries(
  [
    ['Cyrillic', 'ru uk be bg mk kk ky tg mn'],
    ['Arabic', 'ar fa ur ps ug'],
    ['Hebrew', 'he yi'],
    ['Greek', 'el'],
    ['Han', 'zh ja'],
    ['Hangul', 'ko'],
    ['Thai', 'th'],
    ['Lao', 'lo'],
    ['Khmer', 'km'],
    ['Myanmar', 'my'],
    ['Armenian', 'hy'],
    ['Georgian', 'ka'],
    ['Devanagari', 'hi mr ne sa'],
    ['Bengali', 'bn as'],
    ['Gurmukhi', 'pa'],
    ['Gujarati', 'gu'],
    ['Oriya', 'or'],
    ['Tamil', 'ta'],
    ['Telugu', 'te'],
    ['Kannada', 'kn'],
    ['Malayalam', 'ml'],
    ['Sinhala', 'si'],
    ['Ethiopic', 'am ti'],
    ['Tibetan', 'bo'],
    ['Thaana', 'dv'],
  ].flatMap(([script, languages]) => languages!.split(' ').map((language) => [language, script!])),
);

/** Languages written in two scripts (Serbian in Cyrillic and Latin, Azerbaijani, Uzbek, Kurdish, …). */
const writtenInSeveral = new Set(['sr', 'bs', 'az', 'uz', 'ku', 'tk', 'tt', 'sd', 'ms', 'kk', 'mn', 'pa']);

/** A letter of any script but Latin. */
const nonLatinLetter = /[^\P{L}\p{Script=Latin}]/u;

/**
 * The blocks where letters of other scripts live (and some symbols, and every character beyond the
 * Basic Multilingual Plane): a test a tenth the cost of nonLatinLetter's, asked first, since a feed's
 * every item passes through here and nearly all of them are Latin text, curly quotes and dashes.
 */
const maybeNonLatinLetter =
  /[\u0370-\u1dff\u2c00-\u2dff\u2e80-\ua6ff\ua800-\ufaff\ufe70-\ufefe\uff66-\uffdc\ud800-\udbff]/;

/**
 * Whether the text's letters are plainly in a script `declared` (ISO 639-1) is not written in: Cyrillic
 * text declared English (a CMS's default `<language>en</language>` on a Russian feed), Latin text
 * declared Russian. Detection cannot say so: franc compares a text only with the languages of its own
 * script, so the declared language is not among them. Most of the letters must be in the other script,
 * as for scriptLanguage. Cheap for the usual case, Latin text declared a Latin-script language: one scan.
 */
export function scriptDenies(declared: string, text: string): boolean {
  if (writtenInSeveral.has(declared)) return false;
  const declaredScript = writtenIn[declared] ?? 'Latin';
  const sample = text.slice(0, 2_000);
  if (declaredScript === 'Latin' && !(maybeNonLatinLetter.test(sample) && nonLatinLetter.test(sample)))
    return false;
  const script = dominantScript(sample);
  return script !== null && script !== declaredScript;
}

/** The script most of the letters are in (Han for Chinese and Japanese), or null when none has most. */
function dominantScript(text: string): string | null {
  const told = scriptLanguage(text);
  if (told !== null) return writtenIn[told] ?? (told === 'sr' ? 'Cyrillic' : null);
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  const latin = letters.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  return letters.length > 0 && latin / letters.length > 0.5 ? 'Latin' : null;
}

/** The language the letters' script tells (ISO 639-1), or null when it tells none. */
export function scriptLanguage(text: string): string | null {
  const letters = [...text.slice(0, 2_000)].filter((c) => /\p{L}/u.test(c));
  if (letters.length === 0) return null;
  const share = (script: RegExp) => letters.filter((c) => script.test(c)).length / letters.length;
  // Japanese writes kana among its kanji; Chinese writes none.
  const kana = share(/[\p{Script=Hiragana}\p{Script=Katakana}]/u);
  const han = share(/\p{Script=Han}/u);
  if (kana > 0 && kana + han > 0.5) return 'ja';
  if (han > 0.5) return 'zh';
  for (const [script, language] of scriptLanguages) {
    if (share(script) <= 0.5) continue;
    const written = letters.join('');
    const own = ownLetters[language]?.find(([pattern]) => pattern.test(written));
    return own ? own[1] : language;
  }
  return null;
}
