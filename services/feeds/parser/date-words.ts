// The words of a date written out in a language other than numbers: month names, and the words some
// languages put between day, month and year ("6 de diciembre de 2026", "6 декабря 2026 г."). dates.ts
// reads a date token by token and asks here what a word is; a word unknown here leaves the date unread.
// Lookups are by normaliseWord, so a name is listed once however it is accented, cased or abbreviated
// with a dot ("Déc.", "dec", "DEC").

/** A word as it is looked up: accents dropped, lower case, without a trailing dot ("Déc." -> "dec"). */
export function normaliseWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

type MonthNames = ReadonlyArray<readonly [number, readonly string[]]>;

const LATIN_MONTH_NAMES: MonthNames = [
  // English, then Portuguese, Spanish, French, German, Italian
  [1, ['jan', 'january', 'janeiro', 'ene', 'enero', 'janv', 'janvier', 'januar', 'gen', 'gennaio']],
  [2, ['feb', 'february', 'fev', 'fevereiro', 'febrero', 'fevr', 'fevrier', 'februar', 'febbraio']],
  [3, ['mar', 'march', 'marco', 'marzo', 'mars', 'marz', 'mrz']],
  [4, ['apr', 'april', 'abr', 'abril', 'avr', 'avril', 'aprile']],
  [5, ['may', 'mai', 'maio', 'mayo', 'mag', 'maggio']],
  [6, ['jun', 'june', 'junho', 'junio', 'juin', 'juni', 'giu', 'giugno']],
  [7, ['jul', 'july', 'julho', 'julio', 'juil', 'juillet', 'juli', 'lug', 'luglio']],
  [8, ['aug', 'august', 'ago', 'agosto', 'aout']],
  [9, ['sep', 'sept', 'september', 'set', 'setembro', 'septiembre', 'setiembre', 'septembre', 'settembre']],
  [10, ['oct', 'october', 'out', 'outubro', 'octubre', 'octobre', 'okt', 'oktober', 'ott', 'ottobre']],
  [11, ['nov', 'november', 'novembro', 'noviembre', 'novembre']],
  [12, ['dec', 'december', 'dez', 'dezembro', 'dic', 'diciembre', 'decembre', 'dezember', 'dicembre']],
];

// The short form of RFC 822-like dates ("06 дек 2026"), the nominative, and the genitive a date is
// written in ("6 декабря 2026").
const RUSSIAN_MONTH_NAMES: MonthNames = [
  [1, ['янв', 'январь', 'января']],
  [2, ['фев', 'февр', 'февраль', 'февраля']],
  [3, ['мар', 'март', 'марта']],
  [4, ['апр', 'апрель', 'апреля']],
  [5, ['май', 'мая']],
  [6, ['июн', 'июнь', 'июня']],
  [7, ['июл', 'июль', 'июля']],
  [8, ['авг', 'август', 'августа']],
  [9, ['сен', 'сент', 'сентябрь', 'сентября']],
  [10, ['окт', 'октябрь', 'октября']],
  [11, ['ноя', 'нояб', 'ноябрь', 'ноября']],
  [12, ['дек', 'декабрь', 'декабря']],
];

const MONTHS: ReadonlyMap<string, number> = new Map(
  [...LATIN_MONTH_NAMES, ...RUSSIAN_MONTH_NAMES].flatMap(([month, names]) =>
    names.map((name): [string, number] => [normaliseWord(name), month]),
  ),
);

/** The month (1-12) a normalised word names, or undefined. */
export function monthOf(word: string): number | undefined {
  return MONTHS.get(word);
}

/**
 * Words that join a date's parts and say nothing of the instant: Spanish and Portuguese "de" (and
 * Spanish "del 2026"), Russian "г." / "года" after the year. Normalised, as monthOf's words.
 */
const JOINING_WORDS: ReadonlySet<string> = new Set(['de', 'del', 'г', 'года']);

export function isJoiningWord(word: string): boolean {
  return JOINING_WORDS.has(word);
}
