// The status of a delivery-log record read from its bytes, without decoding the record.
//
// Jobs and outcomes share news.webhook-deliveries.v1, so the delivery consumer reads back every outcome
// the dispatcher appended (half of what it fetches) only to find that it asks for nothing. Decoding one
// builds the whole record, payload included (avsc's readString, about 2% of the dispatcher's CPU in
// bench:webhooks). In Avro the fields are written in schema order with no framing, so a record written
// with a known schema gives up its status by skipping what comes before it: strings (a zigzag-varint
// length and the bytes) and ints and longs (a zigzag varint each), then the enum index. The peek is
// built from the schema and refuses (null) when a field before `status` is of any other type; the caller
// uses it only for records whose writer schema is the one it was built from.
import type avro from 'avsc';

/** Reads the status of a record whose Avro body starts at `start`; undefined if the bytes do not parse. */
export type StatusPeek = (value: Buffer, start: number) => string | undefined;

interface Shape {
  /** Per field before `status`: true for a string (length + bytes), false for an int or a long. */
  skips: boolean[];
  symbols: readonly string[];
}

function shapeOf(type: avro.Type): Shape | null {
  const fields = (type as unknown as { fields?: { name: string; type: avro.Type }[] }).fields;
  if (!fields) return null;
  const skips: boolean[] = [];
  for (const field of fields) {
    const name = field.type.typeName;
    if (field.name === 'status') {
      const symbols = (field.type as unknown as { symbols?: string[] }).symbols;
      return name === 'enum' && symbols ? { skips, symbols } : null;
    }
    if (name === 'string') skips.push(true);
    else if (name === 'int' || name === 'long') skips.push(false);
    else return null;
  }
  return null;
}

/** A peek for records of `type`, or null if its layout before `status` is not one this can skip. */
export function statusPeek(type: avro.Type): StatusPeek | null {
  const shape = shapeOf(type);
  if (shape === null) return null;
  const { skips, symbols } = shape;
  return (value, start) => {
    let pos = start;
    for (const isString of skips) {
      // A zigzag varint: the value only matters for a string's length.
      let length = 0;
      let scale = 1;
      let byte: number;
      do {
        if (pos >= value.length) return undefined;
        byte = value[pos++]!;
        length += (byte & 0x7f) * scale;
        scale *= 128;
      } while (byte & 0x80 && scale < 2 ** 63);
      if (isString) {
        const bytes = length % 2 === 0 ? length / 2 : -1; // zigzag: a negative length is corrupt
        if (bytes < 0) return undefined;
        pos += bytes;
      }
    }
    if (pos >= value.length) return undefined;
    const index = value[pos]!; // the few symbols fit in one byte: zigzag 2i, below 0x80
    if (index & 0x81) return undefined;
    return symbols[index >> 1];
  };
}
