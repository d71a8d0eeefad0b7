// Dates as feeds really write them. RSS asks for RFC 822 and gets every variant
// of it (no day name, two-digit years, "1500" for 15:00, "GMT+2", "PST", month
// names in Portuguese or Russian, "6 de diciembre de 2026", "11:23 PM", a zone by
// its IANA name); Atom, dc:date and JSON Feed use ISO 8601 / W3C-DTF, sometimes
// without seconds or zone, or with PHP's "2026-12-06 10:30:00 Europe/Berlin"; Chinese,
// Japanese and Korean publishers write "2026年12月6日". Date.parse is not used:
// what it accepts beyond ISO is implementation-defined. A date without a zone
// is taken as UTC, unless its own words tell the zone (impliedCjkZone).
import { repairText } from '../../runtime/text-repair.ts';
import { isJoiningWord, monthOf, normaliseWord } from './date-words.ts';

/** Offsets in minutes of the zone abbreviations feeds use. IST is India's, BST British Summer Time. */
const ZONES: ReadonlyMap<string, number> = new Map([
  ['z', 0],
  ['ut', 0],
  ['utc', 0],
  ['gmt', 0],
  ['wet', 0],
  ['west', 60],
  ['bst', 60],
  ['cet', 60],
  ['met', 60],
  ['cest', 120],
  ['mest', 120],
  ['eet', 120],
  ['eest', 180],
  ['msk', 180],
  ['мск', 180], // MSK as Russian feeds write it
  ['ist', 330],
  ['sgt', 480],
  ['hkt', 480],
  ['awst', 480],
  ['jst', 540],
  ['kst', 540],
  ['acst', 570],
  ['aest', 600],
  ['aedt', 660],
  ['nzst', 720],
  ['nzdt', 780],
  ['brt', -180],
  ['nst', -210],
  ['ndt', -150],
  ['ast', -240],
  ['adt', -180],
  ['est', -300],
  ['edt', -240],
  ['cst', -360],
  ['cdt', -300],
  ['mst', -420],
  ['mdt', -360],
  ['pst', -480],
  ['pdt', -420],
  ['akst', -540],
  ['akdt', -480],
  ['hst', -600],
  ['pkt', 300],
  ['ict', 420],
  ['wib', 420],
  ['pht', 480],
  ['awdt', 540],
  ['acdt', 630],
  ['art', -180],
  ['sast', 120],
  ['cat', 120],
  ['eat', 180],
  ['wat', 60],
]);

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC, or a time zone by its IANA name, whose offset depends on the date (summer time). */
  offsetMinutes: number | NamedZone;
}

/** A zone written by its IANA name ("Europe/Berlin", "America/New_York", "Etc/GMT"), as PHP's "e" prints it. */
interface NamedZone {
  iana: string;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function toDate(p: Parts): Date | null {
  const validTime =
    p.hour <= 24 &&
    p.minute <= 59 &&
    p.second <= 60 &&
    (p.hour < 24 || p.minute + p.second + p.millisecond === 0);
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month) || !validTime)
    return null;
  // setUTCFullYear, unlike Date.UTC, does not turn year 99 into 1999.
  const date = new Date(0);
  date.setUTCFullYear(p.year, p.month - 1, p.day);
  date.setUTCHours(p.hour, p.minute, Math.min(p.second, 59), p.millisecond);
  const wallClock = date.getTime();
  const time =
    typeof p.offsetMinutes === 'number'
      ? wallClock - p.offsetMinutes * 60_000
      : wallClockIn(p.offsetMinutes.iana, wallClock);
  return Number.isFinite(time) ? new Date(time) : null;
}

// An IANA name: an area and a place ("Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5").
const IANA_NAME = /^[A-Za-z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+){1,2}$/;

// One formatter a zone (building one costs far more than formatting); the names feeds write are few, and
// those a hostile feed could invent are not kept.
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();
const maxZoneFormats = 500;

function zoneFormat(name: string): Intl.DateTimeFormat | null {
  const known = zoneFormats.get(name);
  if (known !== undefined) return known;
  let format: Intl.DateTimeFormat | null = null;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    // RangeError: a name the time zone database does not know.
  }
  if (zoneFormats.size < maxZoneFormats) zoneFormats.set(name, format);
  return format;
}

/** The zone an IANA name names, or null when it names none (judged by the time zone database). */
function namedZone(text: string): NamedZone | null {
  return IANA_NAME.test(text) && zoneFormat(text) !== null ? { iana: text } : null;
}

/** Minutes east of UTC that the zone `format` formats in is at the instant `time`. */
function offsetAt(format: Intl.DateTimeFormat, time: number): number {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(time)) parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - Math.floor(time / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time (its fields read as UTC) is in an IANA zone: the offset at a first guess,
 * then at the instant it gives, which differs only across a change to or from summer time. A time the
 * change skips is read with the offset before it, as most libraries do.
 */
function wallClockIn(name: string, wallClock: number): number {
  const format = zoneFormat(name);
  if (format === null) return Number.NaN;
  const first = wallClock - offsetAt(format, wallClock) * 60_000;
  return wallClock - offsetAt(format, first) * 60_000;
}

/** "+0100", "-03:00", "+2", "+530" -> minutes east of UTC. */
function numericOffset(text: string): number | null {
  const match = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 14 || minutes > 59) return null;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** A zone as written: "GMT", "EST", "Z", "+0100", "GMT+2", "UTC-05:00", "Europe/Berlin". */
function zoneOffset(text: string): number | NamedZone | null {
  const lower = text.toLowerCase();
  const named = ZONES.get(lower);
  if (named !== undefined) return named;
  if (text.includes('/')) return namedZone(text);
  const prefixed = /^(?:gmt|utc|ut)([+-].+)$/.exec(lower);
  return numericOffset(prefixed ? (prefixed[1] ?? '') : lower);
}

/** A 12-hour clock's hour in 24 ("12 AM" is 0), or null for an hour no 12-hour clock shows. */
function hourOf12(hour: number, meridiem: string): number | null {
  if (hour > 12) return null;
  return (hour % 12) + (/^p/i.test(meridiem) ? 12 : 0);
}

function fractionToMilliseconds(fraction: string | undefined): number {
  return fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
}

// 2018-01-31, 2018-01-31T20:15, 2018-01-31T20:15:15.123+01:00, 2018-01-31 20:15:15 +0000, 2018
// 2018-01-31 08:15:15 PM, 2018-01-31 20:15:15 Europe/London
const ISO_8601 =
  /^(\d{4})(?:([-/])(\d{1,2})(?:\2(\d{1,2}))?)?(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:\s*([ap])\.?m\.?(?![a-z]))?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?|[A-Za-z]{2,5}|[A-Za-z][\w-]*(?:\/[\w+-]+){1,2})?$/i;

function parseIso8601(text: string, notes?: DateNotes): Date | null {
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const offsetMinutes = m[10] === undefined ? 0 : zoneOffset(m[10]);
  if (offsetMinutes === null) return null;
  const hour = m[9] === undefined ? Number(m[5] ?? '0') : hourOf12(Number(m[5]), m[9]);
  if (hour === null) return null;
  if (notes && m[5] !== undefined && m[10] === undefined) notes.noZone = true;
  return toDate({
    year: Number(m[1]),
    month: Number(m[3] ?? '1'),
    day: Number(m[4] ?? '1'),
    hour,
    minute: Number(m[6] ?? '0'),
    second: Number(m[7] ?? '0'),
    millisecond: fractionToMilliseconds(m[8]),
    offsetMinutes,
  });
}

/** RFC 2822 section 4.3: two-digit years below 50 are 20xx, three-digit years are 1900 + n. */
function expandYear(digits: string): number {
  const year = Number(digits);
  if (digits.length === 2) return year < 50 ? 2000 + year : 1900 + year;
  if (digits.length === 3) return 1900 + year;
  return year;
}

// "21:52", "21:52:07.5+01:00", and French "21h52".
const CLOCK = /^(\d{1,2})[:hH](\d{2})(?::(\d{2})(?:[.,](\d+))?)?(.*)$/;

/** RFC 822 and relatives, by token: day name, day, month, year, time and zone in common orders. */
function parseRfc822Like(text: string, notes?: DateNotes): Date | null {
  const cleaned = text
    .replace(/\([^)]*\)/g, ' ') // "(Coordinated Universal Time)"
    .replace(/^\s*[\p{L}.]+,/u, ' ') // a leading "Wed," / "Seg,": a day name in any language
    // RFC 850's "Tuesday, 01-Dec-26" (the obsolete HTTP date) and "01-Dec-2026": one token otherwise.
    .replace(/(?<!\S)(\d{1,2})-(\p{L}+\.?)-(\d{2,4})(?!\S)/gu, '$1 $2 $3');
  const tokens = cleaned.split(/[\s,]+/).filter((token) => token !== '');

  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let clock: { hour: number; minute: number; second: number; millisecond: number } | undefined;
  let offsetMinutes: number | NamedZone | undefined;

  for (const token of tokens) {
    const word = normaliseWord(token);
    const clockMatch = CLOCK.exec(token);
    const started = day !== undefined || month !== undefined || year !== undefined;
    const namedMonth = month === undefined ? monthOf(word) : undefined;
    if (namedMonth !== undefined) {
      month = namedMonth;
    } else if (clockMatch && clock === undefined) {
      clock = {
        hour: Number(clockMatch[1]),
        minute: Number(clockMatch[2]),
        second: Number(clockMatch[3] ?? '0'),
        millisecond: fractionToMilliseconds(clockMatch[4]),
      };
      const attachedZone = clockMatch[5] ?? '';
      if (attachedZone !== '') {
        const offset = zoneOffset(attachedZone);
        if (offset === null) return null;
        offsetMinutes = offset;
      }
    } else if (/^\d+$/.test(token)) {
      if (token.length === 4 && year !== undefined && clock === undefined) {
        // "03 Apr 02 1500 GMT": a time written without its colon
        clock = {
          hour: Number(token.slice(0, 2)),
          minute: Number(token.slice(2)),
          second: 0,
          millisecond: 0,
        };
      } else if (token.length >= 3 && year === undefined) {
        year = expandYear(token);
      } else if (day === undefined && token.length <= 2) {
        day = Number(token);
      } else if (year === undefined && token.length <= 2) {
        year = expandYear(token);
      } else {
        return null;
      }
    } else if (/^\d{1,2}\.$/.test(token) && day === undefined) {
      // German, Danish, Norwegian, Czech write the day with a full stop: "7. Dezember 2026".
      day = Number(token.slice(0, -1));
    } else if (word === 'uhr' && clock !== undefined) {
      // "21:52 Uhr": German for o'clock, no zone.
    } else if ((word === 'am' || word === 'pm') && clock !== undefined) {
      const hour = hourOf12(clock.hour, word);
      if (hour === null) return null;
      clock.hour = hour;
    } else if (offsetMinutes === undefined && zoneOffset(token) !== null) {
      offsetMinutes = zoneOffset(token) ?? 0;
    } else if (!started) {
      // A day name without a comma ("Mon Jan 22 2018 ..."), in any language.
    } else if (clock !== undefined && (/^\p{L}{1,5}$/u.test(token) || IANA_NAME.test(token))) {
      // An unknown zone abbreviation: taking it as UTC is at most hours off (unknownZoneOf tells).
      if (notes) notes.unknownZone = token;
    } else if (isJoiningWord(word)) {
      // "6 de diciembre de 2026", "6 декабря 2026 г.": after the clock such a word stays a zone, as before.
    } else {
      return null;
    }
  }

  if (year === undefined || month === undefined || day === undefined) return null;
  if (notes && clock !== undefined && offsetMinutes === undefined && notes.unknownZone === undefined)
    notes.noZone = true;
  return toDate({
    year,
    month,
    day,
    hour: clock?.hour ?? 0,
    minute: clock?.minute ?? 0,
    second: clock?.second ?? 0,
    millisecond: clock?.millisecond ?? 0,
    offsetMinutes: offsetMinutes ?? 0,
  });
}

/**
 * "2026年12月6日 10:30" (Chinese, Japanese), "2026년 12월 6일 10:30" (Korean): year, month and day each
 * followed by its mark, perhaps a weekday in brackets ("6日(土)"), then a time and a zone, both optional.
 * A zone that is written must be known; without one it is UTC, as every date here.
 */
const CJK_DATE =
  /^(\d{4})\s*([年년])\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일](?:\s*[(（](\p{L}{1,3})[)）])?(?:\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?:\s+(\S+))?$/u;

/**
 * The zone a date without one is written in, where its own words tell it: Korean's marks (년, 월, 일)
 * are Korea's, which has one zone (KST, no summer time); a weekday of one character in brackets
 * ("6日(土)") is how Japan writes it (JST, none either). Chinese (星期六, 周六) leaves it untold: China,
 * Taiwan and Hong Kong are UTC+8 but Singapore's and Malaysia's Chinese press too, and UTC is the rule.
 */
const japaneseWeekdays = new Set(['日', '月', '火', '水', '木', '金', '土']);
const impliedCjkZone = (yearMark: string, weekday: string | undefined): number =>
  yearMark === '년' || (weekday !== undefined && japaneseWeekdays.has(weekday)) ? 540 : 0;

function parseCjkDate(text: string, notes?: DateNotes): Date | null {
  const m = CJK_DATE.exec(text);
  if (!m) return null;
  const [, year, yearMark, month, day, weekday, hour, minute, second, zone] = m;
  const offsetMinutes = zone === undefined ? impliedCjkZone(yearMark!, weekday) : zoneOffset(zone);
  if (offsetMinutes === null) return null;
  if (notes && hour !== undefined && zone === undefined && offsetMinutes === 0) notes.noZone = true;
  return toDate({
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? '0'),
    minute: Number(minute ?? '0'),
    second: Number(second ?? '0'),
    millisecond: 0,
    offsetMinutes,
  });
}

/** Unix time as some CMSs write it: 9 or 10 digits are seconds, 12 or 13 milliseconds. */
const UNIX_TIME = /^(?:\d{9,10}|\d{12,13})$/;

function parseUnixTime(text: string): Date | null {
  if (!UNIX_TIME.test(text)) return null;
  const n = Number(text);
  return new Date(text.length <= 10 ? n * 1000 : n);
}

/**
 * "26/11/2026", "26.11.2026 10:00", "11/26/2026 10:00:00", "11/26/2026 3:05:00 PM" (.NET's US format):
 * day and month in whichever order, when only one order is a date (one of the two is above 12);
 * "12/11/2018" could be either and stays unread, "12.11.2018" is day first, as full stops are written.
 * UTC, as there is no zone.
 */
const NUMERIC_DATE =
  /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?)?$/i;

function parseNumericDate(text: string, notes?: DateNotes): Date | null {
  const match = NUMERIC_DATE.exec(text);
  if (!match) return null;
  const [first, second] = [Number(match[1]), Number(match[3])];
  // Ambiguous, or neither is a month; but a date written with full stops is day first wherever it is
  // written so (Germany, Russia, Poland, Scandinavia): "07.12.2026" is 7 December.
  const dayFirst = first > 12 || (match[2] === '.' && second <= 12);
  if (first > 12 === second > 12 && !dayFirst) return null;
  if (first > 12 && second > 12) return null;
  const hour = match[8] === undefined ? Number(match[5] ?? 0) : hourOf12(Number(match[5]), match[8]);
  if (hour === null) return null;
  if (notes && match[5] !== undefined) notes.noZone = true;
  return toDate({
    year: Number(match[4]),
    month: dayFirst ? second : first,
    day: dayFirst ? first : second,
    hour,
    minute: Number(match[6] ?? 0),
    second: Number(match[7] ?? 0),
    millisecond: 0,
    offsetMinutes: 0,
  });
}

/** Parses a feed date, or returns null: never an Invalid Date. */
export function parseFeedDate(raw: string | null, notes?: DateNotes): Date | null {
  const text = raw?.trim() ?? '';
  if (text === '' || text.length > 100) return null;
  const parsed = parseDateText(text, notes);
  // A UTF-8 feed labelled ISO-8859-1: its text is repaired later (normalise), but its dates are read
  // here, "déc." as "dÃ©c.", which no month is. Repaired only when unread, and only then.
  if (parsed !== null || !/[^\x20-\x7e]/.test(text)) return parsed;
  const repaired = repairText(text);
  return repaired === text ? null : parseDateText(repaired, notes);
}

function parseDateText(text: string, notes?: DateNotes): Date | null {
  return (
    parseIso8601(text, notes) ??
    parseUnixTime(text) ??
    parseNumericDate(text, notes) ??
    parseCjkDate(text, notes) ??
    parseRfc822Like(text, notes)
  );
}

/** What a date was read with that its reader should hear of. */
interface DateNotes {
  /** A zone abbreviation not known here, read as UTC. */
  unknownZone?: string;
  /** A time of day written without a zone (and none its words imply), read as UTC. */
  noZone?: boolean;
}

/**
 * The zone abbreviation a date was written with and read as UTC because it is not known here ("ICT" of
 * "…10:00 XYZ"); null for every other date. Cheap for the dates feeds write: only one whose last word
 * (outside parentheses) is letters and no known zone is read again.
 */
export function unknownZoneOf(raw: string | null): string | null {
  const last =
    (raw ?? '')
      .replace(/\([^)]*\)/g, ' ')
      .trim()
      .split(/[\s,]+/)
      .at(-1) ?? '';
  if (!(/^\p{L}{1,5}$/u.test(last) || IANA_NAME.test(last)) || ZONES.has(last.toLowerCase())) return null;
  const notes: DateNotes = {};
  return parseFeedDate(raw, notes) === null ? null : (notes.unknownZone ?? null);
}

/**
 * Whether a date gives a time of day and no zone ("2026-12-07 10:30", "Mon, 07 Dec 2026 10:30:00"), read as
 * UTC: hours off when the publisher meant its local time. A date alone is a day, and says nothing. Cheap
 * for the dates feeds write: one that ends in a zone (letters other than am/pm, Z, a numeric offset) is not
 * read again.
 */
export function zonelessTime(raw: string | null): boolean {
  const text = raw?.trim() ?? '';
  if (!/(?:\d|[ap]m)$/i.test(text) || /[+-]\d{2}:?\d{2}$/.test(text)) return false;
  const notes: DateNotes = {};
  return parseFeedDate(text, notes) !== null && notes.noZone === true;
}
