// Repairs for text that went through the wrong charset on its way to us, and the
// guarantee that no control character or broken surrogate leaves: every text field
// a feed gives us passes here once (services/feeds/parser/feed-text.ts), and
// plainText strips what HTML decoding can still produce.

// windows-1252 bytes 0x80-0x9F, as the WHATWG Encoding Standard maps them. The five
// bytes windows-1252 leaves undefined keep their latin1 (C1) code point, which the
// cleaning below removes when no double encoding explains them.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const C1 = /[\u0080-\u009f]/g;

/**
 * C1 control characters read as the windows-1252 punctuation they were written as
 * ("\u0092" -> "’"): a windows-1252 document decoded as ISO-8859-1, or "&#146;"
 * decoded literally. Browsers do the same, and C1 controls never mean anything in a feed.
 */
export function c1AsWindows1252(text: string): string {
  return text.replace(C1, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80] ?? ch);
}

/** The windows-1252 byte of a character (latin1 for the undefined five), or -1. */
function windows1252Byte(ch: string): number {
  const code = ch.charCodeAt(0);
  if (code < 0x100) return code;
  const index = CP1252_HIGH.indexOf(ch);
  return index === -1 ? -1 : 0x80 + index;
}

// Characters that are a windows-1252 byte >= 0x80: a double-encoded run consists of them only.
const HIGH_RUN =
  /[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]+/g;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// What a two-byte sequence may decode to: Latin, spacing modifiers (ˆ ˜), Greek,
// Cyrillic, Hebrew, Arabic. Latin-1 text that happens to form a valid pair decodes
// elsewhere ("É»" would be IPA "ɻ", "ß”" NKo), so those pairs are left alone.
const PLAUSIBLE_PAIR = /^[\u0080-\u024f\u02b0-\u02ff\u0370-\u03ff\u0400-\u04ff\u05d0-\u05f4\u0600-\u06ff]$/u;
const UNUSABLE = /[\p{Cc}\p{Cn}\p{Co}\p{Cs}]/u;
// Punctuation that legitimately follows a word ending in a capital (“IRMÃ”, “AMANHÃ…”).
const TRAILING = new Set(
  '\u2019\u201d\u2026\u2013\u2014\u203a\u00bb\u00a0\u00b7\u00b0\u00aa\u00ba\u00b9\u00b2\u00b3',
);
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const LETTER = /\p{L}/u;

/**
 * The run of windows-1252 characters read back as the UTF-8 it was, or null when it
 * is not a double encoding we are sure of. `before`/`after` are the neighbouring characters.
 */
function undoubled(run: string, before: string, after: string): string | null {
  const bytes = Uint8Array.from(run, windows1252Byte);
  let decoded: string;
  try {
    decoded = strictUtf8.decode(bytes);
  } catch {
    return null;
  }
  const chars = [...decoded];
  if (chars.some((ch) => UNUSABLE.test(ch))) return null;
  if (chars.length > 1 || bytes.length > 2) return decoded;

  // One two-byte pair: the only case real Latin-1 text can produce ("Ã" then "»").
  if (!PLAUSIBLE_PAIR.test(decoded)) return null;
  // Mojibake mostly sits inside a lowercase word ("cafÃ©", "Ã©tÃ©"); real Latin-1 pairs never do.
  if (LOWER.test(before) || LOWER.test(after)) return decoded;
  const [first = '', second = ''] = run;
  // "Ã" or "Â" before Š, Œ, ª, º...: no language writes that, UTF-8 "Ê" or "ú" makes it.
  if (LETTER.test(second) && first !== 'Ã' && first !== 'Â') return null;
  // Inside a capitalised word ("CÃ”TE") it is mojibake; at its end, or before an
  // apostrophe's "S", it may be the word's last letter and its punctuation.
  if (UPPER.test(before) && TRAILING.has(second) && (!LETTER.test(after) || second === '\u2019')) return null;
  return decoded;
}

/**
 * UTF-8 that was decoded as windows-1252 (or latin1) and encoded again, read back:
 * "cafÃ©" -> "café", "itâ€™s" -> "it’s". Conservative: a run of such characters is
 * replaced only when all of it is valid UTF-8 that decodes to usable text, and a lone
 * pair only when the context says it is not real text ("SÃO", "IRMÃ»" stay). Applied
 * until nothing changes, at most three times, for text encoded twice over.
 */
export function undoDoubleEncoding(text: string): string {
  let current = text;
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    const next = current.replace(HIGH_RUN, (run: string, offset: number, whole: string) => {
      if (run.length < 2) return run;
      const repaired = undoubled(run, whole[offset - 1] ?? '', whole[offset + run.length] ?? '');
      if (repaired === null) return run;
      changed = true;
      return repaired;
    });
    if (!changed) return next;
    current = next;
  }
  return current;
}

// C0 controls but tab and newline, DEL, C1 controls, a byte order mark inside the text,
// the noncharacters U+FFFE/U+FFFF, and surrogates that are not half of a pair.
const UNWANTED =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The controls that separate what is on either side (vertical tab, form feed, the information
 * separators, NEL): a space, not nothing, which had glued "Control\vchar" into "Controlchar".
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const SEPARATING = /^[\u000b\u000c\u001c-\u001f\u0085]$/;

/**
 * Text without control characters (tab and newline kept, CR and CRLF become a newline, the separating
 * ones a space) and without unpaired surrogates (each becomes U+FFFD). Nothing else changes.
 */
export function withoutControlCharacters(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(UNWANTED, (ch) =>
      ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? '\ufffd' : SEPARATING.test(ch) ? ' ' : '',
    );
}

const NEEDS_LOOK = /[^\t\n\x20-\x7e]/;

/** All of the above, in the order that lets each see what the previous one fixed. */
export function repairText(text: string): string {
  if (!NEEDS_LOOK.test(text)) return text; // most fields: printable ASCII
  // C1 first: latin1-decoded mojibake ("â\u0080\u0099") then looks like the windows-1252 kind.
  return withoutControlCharacters(undoDoubleEncoding(c1AsWindows1252(text)));
}

/** A numeric character reference, decimal or hexadecimal. */
const NUMERIC_REFERENCE = /&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));/g;
const isHigh = (n: number) => n >= 0xd800 && n <= 0xdbff;
const isLow = (n: number) => n >= 0xdc00 && n <= 0xdfff;

/**
 * Text (XML or HTML) whose character references to the two halves of a surrogate pair, side by side
 * ("&#55357;&#56832;", as older PHP and Java CMSs and JavaScript escaping write an emoji), are one
 * reference to the character they make ("&#x1f600;"). XML and HTML decoders read each half alone as
 * U+FFFD, so "😀" became "��". A half without its other half is left as it is.
 */
export function joinedSurrogateReferences(text: string): string {
  if (!text.includes('&#')) return text;
  let out = '';
  let copied = 0;
  let pending: { index: number; length: number; value: number } | null = null;
  for (const match of text.matchAll(NUMERIC_REFERENCE)) {
    const value = match[1] !== undefined ? parseInt(match[1], 16) : Number(match[2]);
    const index = match.index;
    if (pending && isLow(value) && pending.index + pending.length === index) {
      const codePoint = 0x10000 + ((pending.value - 0xd800) << 10) + (value - 0xdc00);
      out += `${text.slice(copied, pending.index)}&#x${codePoint.toString(16)};`;
      copied = index + match[0].length;
      pending = null;
      continue;
    }
    pending = isHigh(value) ? { index, length: match[0].length, value } : null;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
