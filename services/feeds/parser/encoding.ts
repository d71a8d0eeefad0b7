// Turns the raw HTTP body into text. The charset is found, in order of precedence,
// in the byte order mark, the Content-Type header, the byte pattern of a UTF-16 or
// UTF-32 document without a BOM, then the XML prolog; a body that declares nothing
// and is not UTF-8 has its charset detected (jschardet).
//
// Labels are resolved as the WHATWG Encoding Standard says, like browsers do
// ("iso-8859-1" and "us-ascii" are windows-1252, "gb2312" is GBK, "shift_jis" is
// windows-31j). UTF-8 and UTF-16 are decoded by TextDecoder; the legacy encodings
// by iconv-lite, because Node's TextDecoder('windows-1252') decodes as ISO-8859-1
// since v20.18.3 / v22.13.0 (nodejs/node#60888), which `engines` allows, and it
// has no UTF-32 at all.

import iconv from 'iconv-lite';
import type * as Jschardet from 'jschardet';
import { createRequire } from 'node:module';
import { TextDecoder } from 'node:util';
import { c1AsWindows1252 } from '../../runtime/text-repair.ts';

export type CharsetSource = 'bom' | 'header' | 'prolog' | 'default' | 'sniffed' | 'detected';

export interface DecodedBody {
  text: string;
  /** Name of the encoding used: WHATWG's ("utf-8", "windows-1252"), or "utf-32le"/"utf-32be". */
  encoding: string;
  source: CharsetSource;
  /** Declared charsets that could not be used, for the source's health page. */
  warnings: string[];
}

export interface Charset {
  name: string;
  decode(body: Uint8Array): string;
}

/**
 * The charset parameter of a Content-Type header value, if any. Quoted in single quotes too
 * ("charset='utf-8'", which servers send and HTTP does not define): the quotes are no part of the label.
 */
export function charsetFromContentType(contentType: string | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;]+))/i.exec(contentType);
  const label = (match?.[1] ?? match?.[2] ?? match?.[3] ?? '').trim();
  return label === '' ? null : label;
}

function bomEncoding(body: Uint8Array): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  // Before UTF-16LE, whose BOM is the first half of this one.
  if (body[0] === 0xff && body[1] === 0xfe && body[2] === 0x00 && body[3] === 0x00) return 'utf-32le';
  if (body[0] === 0x00 && body[1] === 0x00 && body[2] === 0xfe && body[3] === 0xff) return 'utf-32be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

// XML 1.0 appendix F, widened to any ASCII first characters so that a JSON Feed or a
// document without a prolog is recognised too: without a BOM, the NUL bytes around
// the first ASCII characters betray UTF-32 or UTF-16 and its byte order.
function wideEncodingWithoutBom(body: Uint8Array): string | null {
  if (body.length < 4) return null;
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = body;
  const ascii = (byte: number) => byte > 0 && byte < 0x80;
  if (ascii(b0) && b1 === 0 && b2 === 0 && b3 === 0) return 'utf-32le';
  if (b0 === 0 && b1 === 0 && b2 === 0 && ascii(b3)) return 'utf-32be';
  if (ascii(b0) && b1 === 0 && ascii(b2) && b3 === 0) return 'utf-16le';
  if (b0 === 0 && ascii(b1) && b2 === 0 && ascii(b3)) return 'utf-16be';
  return null;
}

/** The encoding="..." of an XML declaration, read as ASCII from the first bytes. */
export function charsetFromProlog(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 512)).toString('latin1');
  const match = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return match?.[1] ?? null;
}

const native = (name: string): Charset => {
  const decoder = new TextDecoder(name);
  return { name, decode: (body) => decoder.decode(body) };
};

const viaIconv = (name: string, codec: string): Charset => ({
  name,
  decode: (body) => iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.length), codec),
});

// WHATWG windows-1252 exactly: latin1, then 0x80-0x9F as windows-1252 punctuation (its
// five undefined bytes stay C1, as WHATWG says; iconv-lite would make them U+FFFD and
// lose a double-encoded "Á" or "Í" that runtime/text-repair.ts can still read back).
const windows1252: Charset = {
  name: 'windows-1252',
  decode: (body) =>
    c1AsWindows1252(Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1')),
};

// iconv-lite's codec for a WHATWG encoding whose name iconv-lite spells differently or
// maps to a smaller charset. WHATWG's GBK decoder is its gb18030 decoder, Big5 is
// Big5-HKSCS, EUC-KR is windows-949 and Shift_JIS is windows-31j.
const ICONV_CODEC: Record<string, string> = {
  gbk: 'gb18030',
  big5: 'big5hkscs',
  'euc-kr': 'cp949',
  shift_jis: 'cp932',
  'x-mac-cyrillic': 'maccyrillic',
  'iso-8859-8-i': 'iso88598',
};

const UTF32_LABELS: Record<string, string> = {
  'utf-32': 'utf-32le',
  utf32: 'utf-32le',
  'ucs-4': 'utf-32le',
  'utf-32le': 'utf-32le',
  'utf-32be': 'utf-32be',
};

/** The WHATWG encoding a label names, or null when WHATWG does not know it. */
function whatwgEncoding(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The charset for a label, or null for labels nobody knows or that WHATWG maps to
 * "replacement" (iso-2022-kr, hz-gb-2312, ...: the whole body would be one U+FFFD).
 * Labels WHATWG does not know but iconv-lite does (utf-32, cp850, cp949) are accepted.
 */
export function charsetFor(label: string): Charset | null {
  const key = label.trim().toLowerCase();
  const utf32 = UTF32_LABELS[key];
  if (utf32) return viaIconv(utf32, utf32.replace('-', ''));

  // "utf_8", "us_ascii", "iso_8859_1": spelt with underscores, labels WHATWG knows with hyphens. Read as
  // WHATWG's, not left to iconv-lite (whose loose names take them too), so that UTF-8 is checked and
  // falls back when the body is not, and ASCII is windows-1252 as browsers read it.
  const whatwg = whatwgEncoding(key) ?? (key.includes('_') ? whatwgEncoding(key.replaceAll('_', '-')) : null);
  if (whatwg === 'replacement') return null;
  if (whatwg === 'utf-8' || whatwg === 'utf-16le' || whatwg === 'utf-16be') return native(whatwg);
  if (whatwg === 'windows-1252') return windows1252;
  if (whatwg) {
    const codec = ICONV_CODEC[whatwg] ?? whatwg;
    // iconv-lite lacks only iso-2022-jp and x-user-defined, which TextDecoder decodes right.
    return iconv.encodingExists(codec) ? viaIconv(whatwg, codec) : native(whatwg);
  }
  return iconv.encodingExists(key) ? viaIconv(key, key) : null;
}

function isValidUtf8(body: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/** How much of an undeclared body the detector reads: enough, at a few ms. */
const DETECTION_BYTES = 256 * 1024;

// What the detector may answer: the encodings the WHATWG standard decodes (what feeds
// are written in). Without the list it would also weigh EBCDIC and DOS code pages,
// and call a short English text Johab.
const DETECTABLE = [
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'cp866',
  'mac-roman',
  'mac-cyrillic',
  'cp874',
  'tis-620',
  'gb18030',
  'big5hkscs',
  'euc-jis-2004',
  'euc-jp',
  'cp932',
  'shift_jis',
  'shift_jis_2004',
  'cp949',
  'euc-kr',
  'utf-8',
  'ascii',
];

// The detector's names (Python's) that are not WHATWG labels, as the WHATWG encoding
// that decodes them, so that the name reported is the one a declaration would give.
const DETECTED_AS: Record<string, string> = {
  cp932: 'shift_jis',
  shift_jis_2004: 'shift_jis',
  'euc-jis-2004': 'euc-jp',
  cp949: 'euc-kr',
  cp874: 'windows-874',
  big5hkscs: 'big5',
  macroman: 'macintosh',
  'mac-roman': 'macintosh',
};

// jschardet (1.2 MB of code) is loaded when a body first needs detecting, which most never do: every
// parse worker and every process that parses loaded it at start, a seventh of a second of CPU each
// (a parse worker loads its modules through tsx in about half a second).
const require = createRequire(import.meta.url);
let jschardet: typeof Jschardet | undefined;
const detect: typeof Jschardet.detect = (buffer, options) =>
  (jschardet ??= require('jschardet') as typeof Jschardet).detect(buffer, options);

/** The detector's verdict on a body that declares nothing, when it is one we can decode. */
function detectedCharset(body: Uint8Array): Charset | null {
  const { encoding } = detect(body.subarray(0, DETECTION_BYTES), { detectEncodings: DETECTABLE });
  const name = encoding?.toLowerCase();
  if (!name || name === 'ascii' || name === 'utf-8') return null;
  return charsetFor(DETECTED_AS[name] ?? name);
}

export function decodeBody(body: Uint8Array, contentType: string | null): DecodedBody {
  const warnings: string[] = [];
  const decodeWith = (charset: Charset, source: CharsetSource): DecodedBody => ({
    text: charset.decode(body),
    encoding: charset.name,
    source,
    warnings,
  });

  const bom = bomEncoding(body);
  if (bom) return decodeWith(charsetFor(bom)!, 'bom');

  const headerLabel = charsetFromContentType(contentType);
  if (headerLabel) {
    const charset = charsetFor(headerLabel);
    if (!charset) {
      warnings.push(`unknown charset "${headerLabel}" in Content-Type header, ignored`);
    } else if (charset.name === 'utf-8' && !isValidUtf8(body)) {
      // A server's default (Apache's AddDefaultCharset UTF-8) over a legacy 8-bit feed: UTF-8 is the one
      // charset a body can be checked against, and decoding this one as it would turn every accented
      // letter into U+FFFD. The document's own declaration, or detection, says what it is.
      warnings.push(`Content-Type says "${headerLabel}" but the body is not valid UTF-8, ignored`);
    } else {
      return decodeWith(charset, 'header');
    }
  }

  const wide = wideEncodingWithoutBom(body);
  if (wide) return decodeWith(charsetFor(wide)!, 'sniffed');

  const prologLabel = charsetFromProlog(body);
  if (prologLabel) {
    const charset = charsetFor(prologLabel);
    if (!charset) {
      warnings.push(`unknown charset "${prologLabel}" in XML declaration, ignored`);
    } else if (/^utf-(16|32)/.test(charset.name)) {
      // The declaration was readable as ASCII, so the document cannot be UTF-16 or UTF-32.
      warnings.push(`XML declaration says "${prologLabel}" but the body is 8-bit, ignored`);
    } else {
      const decoded = decodeWith(charset, 'prolog');
      // A document that says UTF-8 and is written in an 8-bit charset (a template's prolog over a Latin-1
      // database) decodes with every accented letter as U+FFFD, lost for good. Detection says what it is;
      // the check costs nothing for a body without U+FFFD once decoded, which is nearly every body.
      if (charset.name !== 'utf-8' || !decoded.text.includes('\uFFFD') || isValidUtf8(body)) return decoded;
      // Letters that did decode as UTF-8 say it is UTF-8 with a stray byte or two, which detection would
      // take for an 8-bit charset and garble every one of them.
      const detected = /[\u0080-\uFFFC\uFFFE\uFFFF]/.test(decoded.text) ? null : detectedCharset(body);
      if (detected) {
        warnings.push(
          `XML declaration says "${prologLabel}" but the body is not valid UTF-8; detected ${detected.name}`,
        );
        return decodeWith(detected, 'detected');
      }
      warnings.push(
        `XML declaration says "${prologLabel}" but the body is not valid UTF-8; its invalid bytes were replaced`,
      );
      return decoded;
    }
  }

  if (isValidUtf8(body)) return decodeWith(charsetFor('utf-8')!, 'default');

  // Nothing usable declared and not UTF-8: an old 8-bit feed (uolNoticias.rss), or a
  // Big5, Shift_JIS, KOI8-R... one whose server never said so.
  const detected = detectedCharset(body);
  if (detected) {
    warnings.push(`no charset declared and the body is not valid UTF-8; detected ${detected.name}`);
    return decodeWith(detected, 'detected');
  }
  // windows-1252 maps every byte, and is right for the Western feeds this happens with.
  warnings.push('no charset declared and the body is not valid UTF-8; decoded as windows-1252');
  return decodeWith(windows1252, 'sniffed');
}
