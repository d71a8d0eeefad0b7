// Turns the raw HTTP body into text. The declared charset is found, in order of
// precedence, in the byte order mark, the Content-Type header, then the XML
// prolog; TextDecoder (WHATWG encodings, so "iso-8859-1" decodes as
// windows-1252, like browsers do) does the work.

import { TextDecoder } from 'node:util';

export type CharsetSource = 'bom' | 'header' | 'prolog' | 'default' | 'sniffed';

export interface DecodedBody {
  text: string;
  /** WHATWG name of the encoding used, e.g. "utf-8", "windows-1252". */
  encoding: string;
  source: CharsetSource;
  /** Declared charsets that could not be used, for the source's health page. */
  warnings: string[];
}

/** The charset parameter of a Content-Type header value, if any. */
export function charsetFromContentType(contentType: string | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType);
  const label = (match?.[1] ?? match?.[2] ?? '').trim();
  return label === '' ? null : label;
}

function bomEncoding(body: Uint8Array): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

// XML 1.0 appendix F: without a BOM, "<?" in UTF-16 still betrays the byte order.
function utf16WithoutBom(body: Uint8Array): string | null {
  if (body[0] === 0x3c && body[1] === 0x00 && body[2] === 0x3f && body[3] === 0x00) return 'utf-16le';
  if (body[0] === 0x00 && body[1] === 0x3c && body[2] === 0x00 && body[3] === 0x3f) return 'utf-16be';
  return null;
}

/** The encoding="..." of an XML declaration, read as ASCII from the first bytes. */
export function charsetFromProlog(body: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 512));
  const match = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return match?.[1] ?? null;
}

/** A decoder for a label, or null for labels WHATWG does not know or maps to "replacement". */
function decoderFor(label: string): TextDecoder | null {
  try {
    const decoder = new TextDecoder(label.trim());
    // "replacement" (iso-2022-kr, hz-gb-2312, ...) would turn the whole body into one U+FFFD.
    return decoder.encoding === 'replacement' ? null : decoder;
  } catch {
    return null;
  }
}

function isValidUtf8(body: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

export function decodeBody(body: Uint8Array, contentType: string | null): DecodedBody {
  const warnings: string[] = [];
  const decodeWith = (decoder: TextDecoder, source: CharsetSource): DecodedBody => ({
    text: decoder.decode(body),
    encoding: decoder.encoding,
    source,
    warnings,
  });

  const bom = bomEncoding(body);
  if (bom) return decodeWith(new TextDecoder(bom), 'bom');

  const headerLabel = charsetFromContentType(contentType);
  if (headerLabel) {
    const decoder = decoderFor(headerLabel);
    if (decoder) return decodeWith(decoder, 'header');
    warnings.push(`unknown charset "${headerLabel}" in Content-Type header, ignored`);
  }

  const utf16 = utf16WithoutBom(body);
  if (utf16) return decodeWith(new TextDecoder(utf16), 'sniffed');

  const prologLabel = charsetFromProlog(body);
  if (prologLabel) {
    const decoder = decoderFor(prologLabel);
    if (!decoder) {
      warnings.push(`unknown charset "${prologLabel}" in XML declaration, ignored`);
    } else if (decoder.encoding.startsWith('utf-16')) {
      // The declaration was readable as ASCII, so the document cannot be UTF-16.
      warnings.push(`XML declaration says "${prologLabel}" but the body is 8-bit, ignored`);
    } else {
      return decodeWith(decoder, 'prolog');
    }
  }

  if (headerLabel || prologLabel || isValidUtf8(body)) return decodeWith(new TextDecoder('utf-8'), 'default');

  // Nothing declared and not UTF-8: an old 8-bit feed (uolNoticias.rss). windows-1252
  // maps every byte, and is right for the Western feeds this happens with.
  warnings.push('no charset declared and the body is not valid UTF-8; decoded as windows-1252');
  return decodeWith(new TextDecoder('windows-1252'), 'sniffed');
}
