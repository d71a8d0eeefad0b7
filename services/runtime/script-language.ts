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
