// Avro strings written in one pass, byte for byte what avsc 5.7 writes.
//
// avsc writes a string as its UTF-8 length (a zigzag varint) and its bytes, so it measures every string
// first (Buffer.byteLength) and then writes it: with a loop over its characters when it is at most 64
// bytes, with Buffer#utf8Write when longer. An article event is a dozen strings (ids, urls, title,
// summary, content...), and that double pass was about four fifths of the Avro encoding's CPU in the
// poller's profile. Here a short string (under 64 characters) is written by the same loop straight after
// a one-byte length, and a longer one by utf8Write after room for the longest length it can need; the
// length is written afterwards, and in the rare case it takes fewer bytes than the room left for it the
// bytes are moved back (copyWithin). No string is measured before it is written.
//
// avsc's two ways differ for a string that is not well-formed UTF-16 (a lone surrogate): its loop
// writes the surrogate's own three bytes, utf8Write the replacement character's. Such a string, and any
// string that might not fit in what is left of the buffer (so that avsc reports how many bytes were
// missing, as encode() callers expect), is written by avsc's own code.
//
// Installed by replacing avsc's StringType.prototype._write (avsc has no hook for it; its Tap is internal
// but its fields, buf and pos, are what every avsc writer uses): call installAvroStringWrites() once at a
// service's start. avro-strings.test.ts compares the bytes with avsc's own on varied strings and events.
import avro from 'avsc';

/** Node's Buffer#utf8Write (in every Node release, undeclared in @types/node): the bytes written. */
type NodeBuffer = Buffer & { utf8Write(s: string, offset: number): number };

/** ES2024's String#isWellFormed (in Node 20; this project's TypeScript lib is older). */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

interface Tap {
  buf: NodeBuffer;
  pos: number;
  writeString(s: string): void;
}

type StringWrite = (this: unknown, tap: Tap, value: unknown) => void;

const stringType = (avro.types as unknown as { StringType: { prototype: { _write: StringWrite } } })
  .StringType;

/** avsc's own StringType write, as it was before install. */
export const avscStringWrite: StringWrite = stringType.prototype._write;

/** Bytes of the zigzag varint of a non-negative length under 2^27. */
const varintBytes = (length: number) => (length < 64 ? 1 : length < 8192 ? 2 : length < 1048576 ? 3 : 4);

/** The zigzag varint of a non-negative `length` at `pos`, in `bytes` bytes (varintBytes(length)). */
function writeLength(buf: Buffer, pos: number, length: number, bytes: number): void {
  let n = length * 2;
  for (let i = 1; i < bytes; i++) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos] = n;
}

/** `s` (well-formed) at `pos` by avsc's character loop; returns where it ends. */
function writeChars(buf: Buffer, pos: number, s: string): number {
  for (let i = 0, l = s.length; i < l; i++) {
    let c1 = s.charCodeAt(i);
    if (c1 < 0x80) {
      buf[pos++] = c1;
    } else if (c1 < 0x800) {
      buf[pos++] = (c1 >> 6) | 0xc0;
      buf[pos++] = (c1 & 0x3f) | 0x80;
    } else if ((c1 & 0xfc00) === 0xd800) {
      // A pair (the string is well-formed).
      c1 = 0x10000 + ((c1 & 0x03ff) << 10) + (s.charCodeAt(++i) & 0x03ff);
      buf[pos++] = (c1 >> 18) | 0xf0;
      buf[pos++] = ((c1 >> 12) & 0x3f) | 0x80;
      buf[pos++] = ((c1 >> 6) & 0x3f) | 0x80;
      buf[pos++] = (c1 & 0x3f) | 0x80;
    } else {
      buf[pos++] = (c1 >> 12) | 0xe0;
      buf[pos++] = ((c1 >> 6) & 0x3f) | 0x80;
      buf[pos++] = (c1 & 0x3f) | 0x80;
    }
  }
  return pos;
}

/** Characters below which a string is written by the loop (its length then fits one or two bytes). */
const loopBelow = 64;

/** One string as avsc writes it, in one pass. */
export function writeAvroString(this: unknown, tap: Tap, value: unknown): void {
  if (typeof value !== 'string') return avscStringWrite.call(this, tap, value); // avsc's error
  const buf = tap.buf;
  const pos = tap.pos;
  const chars = value.length;
  // Room for the longest it can be (3 bytes a UTF-16 unit), else avsc's own (it measures, then reports
  // the bytes missing); and a lone surrogate is written two ways by avsc (above).
  const room = varintBytes(3 * chars);
  if (pos + room + 3 * chars > buf.length || !wellFormed(value))
    return avscStringWrite.call(this, tap, value);
  if (chars < loopBelow) {
    // At most 189 bytes: a length of one byte, or of two (then the bytes move one place on).
    const end = writeChars(buf, pos + 1, value);
    const length = end - pos - 1;
    if (length < 64) {
      buf[pos] = length * 2;
      tap.pos = end;
    } else {
      buf.copyWithin(pos + 2, pos + 1, end);
      writeLength(buf, pos, length, 2);
      tap.pos = end + 1;
    }
    return;
  }
  const length = buf.utf8Write(value, pos + room);
  const bytes = varintBytes(length);
  if (bytes < room) buf.copyWithin(pos + bytes, pos + room, pos + room + length);
  writeLength(buf, pos, length, bytes);
  tap.pos = pos + bytes + length;
}

let installed = false;

/** Makes every avsc string write (every Type of the process) go through writeAvroString. */
export function installAvroStringWrites(): void {
  if (installed) return;
  if (
    typeof avscStringWrite !== 'function' ||
    typeof (Buffer.prototype as NodeBuffer).utf8Write !== 'function' ||
    typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed !== 'function'
  )
    throw new Error('avsc StringType.prototype._write or Buffer#utf8Write is not where it was (an upgrade?)');
  stringType.prototype._write = writeAvroString;
  installed = true;
}

/** Puts avsc's own string writes back (tests). */
export function uninstallAvroStringWrites(): void {
  stringType.prototype._write = avscStringWrite;
  installed = false;
}
