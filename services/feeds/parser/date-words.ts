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

export type MonthNames = ReadonlyArray<readonly [number, readonly string[]]>;

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

// Dutch, Turkish and Polish (short forms, and Polish's genitive, as "6 grudnia 2026" writes it): none of
// their words names another month in the lists above. Croatian is left out: its "listopad" is October,
// where Polish's and Czech's is November.
const MORE_LATIN_MONTH_NAMES: MonthNames = [
  [1, ['januari', 'oca', 'ocak', 'sty', 'styczen', 'stycznia']],
  [2, ['februari', 'sub', 'subat', 'lut', 'luty', 'lutego']],
  [3, ['mrt', 'maart', 'mart', 'marca', 'marzec']],
  [4, ['nis', 'nisan', 'kwi', 'kwiecien', 'kwietnia']],
  [5, ['mei', 'mayis', 'mayıs', 'maj', 'maja']],
  [6, ['haz', 'haziran', 'cze', 'czerwiec', 'czerwca']],
  [7, ['juli', 'tem', 'temmuz', 'lip', 'lipiec', 'lipca']],
  [8, ['augustus', 'agu', 'agustos', 'ağu', 'ağustos', 'sie', 'sierpien', 'sierpnia']],
  [9, ['eyl', 'eylul', 'wrz', 'wrzesien', 'wrzesnia']],
  [10, ['eki', 'ekim', 'paz', 'pazdziernik', 'pazdziernika']],
  [11, ['kas', 'kasim', 'kasım', 'lis', 'listopad', 'listopada']],
  [12, ['ara', 'aralik', 'aralık', 'gru', 'grudzien', 'grudnia']],
];

// Greek: the short forms (Μαΐ, Ιούλ), the nominative and the genitive a date is written in ("11 Ιουλίου").
const GREEK_MONTH_NAMES: MonthNames = [
  [1, ['Ιαν', 'Ιανουάριος', 'Ιανουαρίου']],
  [2, ['Φεβ', 'Φεβρουάριος', 'Φεβρουαρίου']],
  [3, ['Μαρ', 'Μάρτιος', 'Μαρτίου']],
  [4, ['Απρ', 'Απρίλιος', 'Απριλίου']],
  [5, ['Μαΐ', 'Μάιος', 'Μαΐου']],
  [6, ['Ιούν', 'Ιούνιος', 'Ιουνίου']],
  [7, ['Ιούλ', 'Ιούλιος', 'Ιουλίου']],
  [8, ['Αύγ', 'Αυγ', 'Αύγουστος', 'Αυγούστου']],
  [9, ['Σεπ', 'Σεπτ', 'Σεπτέμβριος', 'Σεπτεμβρίου']],
  [10, ['Οκτ', 'Οκτώβριος', 'Οκτωβρίου']],
  [11, ['Νοέ', 'Νοε', 'Νοέμβριος', 'Νοεμβρίου']],
  [12, ['Δεκ', 'Δεκέμβριος', 'Δεκεμβρίου']],
];

/**
 * Words to months, each word normalised. A word that two lists give different months would leave the
 * date to whichever list came last: refused here, when the module loads, so it cannot ship unseen.
 */
export function monthTable(lists: readonly MonthNames[]): ReadonlyMap<string, number> {
  const table = new Map<string, number>();
  for (const [month, names] of lists.flat()) {
    for (const name of names) {
      const word = normaliseWord(name);
      const known = table.get(word);
      if (known !== undefined && known !== month)
        throw new Error(`date-words: "${name}" is month ${known} and month ${month}`);
      table.set(word, month);
    }
  }
  return table;
}

const MONTHS = monthTable([
  LATIN_MONTH_NAMES,
  MORE_LATIN_MONTH_NAMES,
  RUSSIAN_MONTH_NAMES,
  GREEK_MONTH_NAMES,
]);

/** The month (1-12) a normalised word names, or undefined. */
export function monthOf(word: string): number | undefined {
  return MONTHS.get(word);
}

/**
 * Words that join a date's parts and say nothing of the instant: Spanish and Portuguese "de" (and
 * Spanish "del 2026"), Russian "г." / "года" after the year, and the words before a time of day.
 * Normalised, as monthOf's words.
 */
const JOINING_WORDS: ReadonlySet<string> = new Set([
  'de',
  'del',
  'г',
  'года',
  // Before the time of day: French "à 21h52", Portuguese "às", Spanish "a las", German "um",
  // Italian "alle", Russian "в" (accents are taken off first: "à" is "a").
  'a',
  'as',
  'las',
  'um',
  'alle',
  'в',
]);

export function isJoiningWord(word: string): boolean {
  return JOINING_WORDS.has(word);
}
