// Rows as ClickHouse's RowBinary format: each value in the column's own binary layout, strings as
// length-prefixed UTF-8. The projector spent most of its time writing JSON (escaping every
// character of every article body) for ClickHouse to parse again; RowBinary copies the bytes instead,
// on both sides. The column types come from the table itself (DESCRIBE TABLE), so an encoder is
// always the table's current shape; the subset of types our read models use is supported, and any
// other type is refused when the encoder is built, not in the middle of an insert.

import { constants as bufferConstants } from 'node:buffer';

export type ColumnType =
  | { kind: 'String' }
  | { kind: 'UInt8' | 'UInt16' | 'UInt32' | 'UInt64' | 'Int32' | 'Int64' | 'Float64' }
  | { kind: 'DateTime' }
  | { kind: 'Nullable'; inner: ColumnType }
  | { kind: 'Array'; inner: ColumnType };

export interface Column {
  name: string;
  type: ColumnType;
}

const fixed = ['UInt8', 'UInt16', 'UInt32', 'UInt64', 'Int32', 'Int64', 'Float64'] as const;

/** Parses a type as DESCRIBE TABLE prints it, e.g. "Nullable(String)", "Array(String)", "DateTime('UTC')". */
export function parseColumnType(text: string): ColumnType {
  const type = text.trim();
  const wrapped = /^(Nullable|Array)\((.*)\)$/.exec(type);
  if (wrapped) {
    const inner = parseColumnType(wrapped[2]!);
    return wrapped[1] === 'Nullable' ? { kind: 'Nullable', inner } : { kind: 'Array', inner };
  }
  if (type === 'String') return { kind: 'String' };
  if (type === 'DateTime' || /^DateTime\('[^']*'\)$/.test(type)) return { kind: 'DateTime' };
  const numeric = fixed.find((f) => f === type);
  if (numeric) return { kind: numeric };
  throw new Error(`RowBinary: column type ${type} is not supported`);
}

/**
 * A growing buffer, so a batch is encoded in one allocation most of the time. Exported for writers that
 * encode rows of a known shape straight from their source, without an object per row (the projector's
 * list rows).
 */
export class RowBinaryWriter {
  buffer: Buffer;
  offset = 0;
  /** With a pool, the buffer is taken from it (and given back when the writer outgrows it). */
  constructor(
    size: number,
    private readonly pool?: BufferPool,
  ) {
    this.buffer = pool ? pool.take(size) : Buffer.allocUnsafe(size);
  }
  reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const size = Math.max(this.buffer.length * 2, this.offset + bytes);
    const grown = this.pool ? this.pool.take(size) : Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.offset);
    this.pool?.give(this.buffer);
    this.buffer = grown;
  }
  varUInt(value: number): void {
    this.reserve(10);
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.offset++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.offset++] = v;
  }
  string(value: string): void {
    // Short ASCII strings (the search index's words, facets, ids) are copied a byte at a time: asking
    // Buffer for the UTF-8 length and then to write cost more than the copy for strings this short.
    const n = value.length;
    if (n < 128) {
      this.reserve(n + 1);
      const b = this.buffer;
      let o = this.offset + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        b[o++] = c;
      }
      if (i === n) {
        b[this.offset] = n; // the length as a varUInt: one byte below 128
        this.offset = o;
        return;
      }
    }
    // Measured against writing in one pass into room for the longest UTF-8 (3 bytes a UTF-16 unit) and
    // moving it back: that was slower (4.1 against 2.4 µs an article body), the room growing the buffer.
    const length = Buffer.byteLength(value, 'utf8');
    this.varUInt(length);
    this.reserve(length);
    this.offset += this.buffer.write(value, this.offset, length, 'utf8');
  }
  /** Bytes as they are: a value encoded before (a string's length and bytes, kept for reuse). */
  copy(bytes: Uint8Array): void {
    const n = bytes.length;
    this.reserve(n);
    const b = this.buffer;
    let o = this.offset;
    // A short copy in JavaScript: a native copy's call costs more than a few bytes of it.
    if (n < 48) for (let i = 0; i < n; i++) b[o++] = bytes[i]!;
    else {
      b.set(bytes, o);
      o += n;
    }
    this.offset = o;
  }
  /** Bytes [start, end) of `source` as they are. */
  copyRange(source: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    const b = this.buffer;
    let o = this.offset;
    // A short copy in JavaScript: a native copy's call costs more than a few bytes of it.
    if (n < 48) for (let i = start; i < end; i++) b[o++] = source[i]!;
    else {
      b.set(source.subarray(start, end), o);
      o += n;
    }
    this.offset = o;
  }
  uint8(n: number): void {
    this.reserve(1);
    this.buffer[this.offset++] = n;
  }
  uint32(n: number): void {
    this.reserve(4);
    this.offset = this.buffer.writeUInt32LE(n, this.offset);
  }
  /** A safe integer as UInt64, in two 32-bit halves (a BigInt per value cost more than the row). */
  uint64(n: number): void {
    this.reserve(8);
    const low = n % 0x1_0000_0000;
    this.buffer.writeUInt32LE(low, this.offset);
    this.offset = this.buffer.writeUInt32LE((n - low) / 0x1_0000_0000, this.offset + 4);
  }
  /** The encoded bytes so far (a view of the buffer, not a copy). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }
}

/**
 * Large buffers to encode into, handed back once what was encoded in them is sent. A fresh buffer of
 * tens of megabytes is memory the kernel has to map and zero page by page as it is first written, which
 * cost the projector as much as copying the bytes into it (about half a nanosecond a byte); a buffer used
 * before is written at the speed of a copy. Each has an ArrayBuffer of its own (offset 0, so a body of
 * 32-bit words can be laid over it). Keeps at most `keep` buffers.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  constructor(private readonly keep: number) {}

  /** A buffer of at least `size` bytes (its contents are whatever was written before). */
  take(size: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++)
      if (this.free[i]!.length >= size && (best < 0 || this.free[i]!.length < this.free[best]!.length))
        best = i;
    if (best >= 0) return this.free.splice(best, 1)[0]!;
    return Buffer.allocUnsafeSlow(poolSize(size));
  }

  /**
   * Hands a buffer back: nothing may use it any more. A full pool keeps its largest buffers, which serve
   * any request the smaller would.
   */
  give(buffer: Buffer): void {
    if (this.free.length < this.keep) {
      this.free.push(buffer);
      return;
    }
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++)
      if (this.free[i]!.length < this.free[smallest]!.length) smallest = i;
    const kept = this.free[smallest]; // none when the pool keeps nothing
    if (kept && kept.length < buffer.length) this.free[smallest] = buffer;
  }
}

/**
 * The size a pooled buffer is made with: a request rounded up to a power of two from 1 MiB on, so that a
 * batch a little larger than the one before still fits a buffer given back (exact sizes made most
 * requests of a growing or varying batch miss, and map new memory). What is never written costs address
 * space only: the pages are not touched, so not resident.
 */
export function poolSize(size: number): number {
  if (size <= 1 << 20) return size;
  return Math.max(size, Math.min(2 ** Math.ceil(Math.log2(size)), bufferConstants.MAX_LENGTH));
}

type Writer = RowBinaryWriter;

const maxUInt32 = 2 ** 32 - 1;

/** 'YYYY-MM-DD hh:mm:ss' (UTC, as literal.ts writes it), unix seconds, or a Date -> unix seconds. */
function dateTimeSeconds(value: unknown, column: string): number {
  let seconds: number;
  if (typeof value === 'number') seconds = Math.floor(value);
  else if (value instanceof Date) seconds = Math.floor(value.getTime() / 1000);
  else if (typeof value === 'string') seconds = Math.floor(Date.parse(`${value.replace(' ', 'T')}Z`) / 1000);
  else seconds = 0;
  if (!Number.isFinite(seconds)) throw new Error(`RowBinary: ${column} is not a DateTime: ${String(value)}`);
  // DateTime is UInt32 seconds: what it cannot hold becomes its nearest bound rather than wrapping around.
  return Math.min(maxUInt32, Math.max(0, seconds));
}

/** A String column takes text, or a number or boolean written as text; anything else is a mistake upstream. */
function text(value: unknown, column: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  throw new Error(`RowBinary: ${column} is not text`);
}

function writeValue(w: Writer, type: ColumnType, value: unknown, column: string): void {
  switch (type.kind) {
    case 'String':
      w.string(text(value, column));
      return;
    case 'Nullable':
      w.reserve(1);
      if (value === undefined || value === null) {
        w.buffer[w.offset++] = 1;
        return;
      }
      w.buffer[w.offset++] = 0;
      writeValue(w, type.inner, value, column);
      return;
    case 'Array': {
      const items = value === undefined || value === null ? [] : (value as readonly unknown[]);
      if (!Array.isArray(items)) throw new Error(`RowBinary: ${column} is not an array`);
      w.varUInt(items.length);
      for (const item of items) writeValue(w, type.inner, item, column);
      return;
    }
    case 'DateTime':
      w.reserve(4);
      w.offset = w.buffer.writeUInt32LE(dateTimeSeconds(value, column), w.offset);
      return;
    default:
      writeNumber(w, type.kind, value === undefined || value === null ? 0 : Number(value), column);
  }
}

function writeNumber(w: Writer, kind: (typeof fixed)[number], n: number, column: string): void {
  if (Number.isNaN(n)) throw new Error(`RowBinary: ${column} is not a number`);
  w.reserve(8);
  const b = w.buffer;
  switch (kind) {
    case 'UInt8':
      w.offset = b.writeUInt8(n, w.offset);
      return;
    case 'UInt16':
      w.offset = b.writeUInt16LE(n, w.offset);
      return;
    case 'UInt32':
      w.offset = b.writeUInt32LE(n, w.offset);
      return;
    case 'Int32':
      w.offset = b.writeInt32LE(n, w.offset);
      return;
    case 'Float64':
      w.offset = b.writeDoubleLE(n, w.offset);
      return;
    case 'UInt64': {
      if (!Number.isSafeInteger(n) || n < 0)
        throw new Error(`RowBinary: ${column} is not a UInt64 we can write: ${n}`);
      // As two 32-bit halves: a BigInt per value (every row's version) cost more than the rest of the row.
      const low = n % 0x1_0000_0000;
      b.writeUInt32LE(low, w.offset);
      w.offset = b.writeUInt32LE((n - low) / 0x1_0000_0000, w.offset + 4);
      return;
    }
    case 'Int64':
      if (!Number.isSafeInteger(n))
        throw new Error(`RowBinary: ${column} is not an Int64 we can write: ${n}`);
      w.offset = b.writeBigInt64LE(BigInt(n), w.offset);
      return;
  }
}

/**
 * Encodes rows (objects keyed by column name) for `INSERT INTO t (columns) FORMAT RowBinary`. A value
 * that is missing gets the column type's default, as JSONEachRow gave it.
 */
export function encodeRowBinary(
  columns: readonly Column[],
  rows: readonly Record<string, unknown>[],
): Buffer {
  // Sized from the previous batch of the same columns (one table's rows are alike, another's are not:
  // an article is kilobytes, a posting of the search index tens of bytes), so a batch of article bodies
  // is not copied over as the buffer grows.
  const shape = columns.map((c) => c.name).join(',');
  const perRow = bytesPerRow.get(shape) ?? 512;
  const w = new RowBinaryWriter(Math.max(4096, Math.ceil(rows.length * perRow * 1.1)));
  for (const row of rows) {
    for (const column of columns) writeValue(w, column.type, row[column.name], column.name);
  }
  if (rows.length > 0) bytesPerRow.set(shape, Math.max(16, w.offset / rows.length));
  return w.buffer.subarray(0, w.offset);
}

const bytesPerRow = new Map<string, number>();

/** A string as a String value of RowBinary (its length, then its UTF-8), to be written with copy(). */
export function encodedString(value: string): Uint8Array {
  const w = new RowBinaryWriter(Buffer.byteLength(value, 'utf8') + 10);
  w.string(value);
  return w.bytes();
}
