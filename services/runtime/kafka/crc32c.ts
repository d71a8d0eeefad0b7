// CRC-32C (Castagnoli), the checksum of every Kafka record batch we write (record-encoding.ts), from the
// CPU's own CRC32 instruction through @node-rs/crc32 (napi-rs; SSE 4.2, or ARMv8's CRC extension):
// 3,510-13,930 MiB/s here for 1-256 KiB, where the table version below managed 660-910, about 2% of the
// dispatcher's and the poller's CPU (each of their record batches is checksummed once). The table version
// stays for a platform the package has no binary for: the checksum is the same either way (crc32c.test.ts).
import { createRequire } from 'node:module';

/** CRC-32C (Castagnoli), slicing by 8: the checksum KafkaJS computes a byte at a time. */
const crcTables = (() => {
  const tables = Array.from({ length: 8 }, () => new Int32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    tables[0]![n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[0]![n]!;
    for (let t = 1; t < 8; t++) {
      c = tables[0]![c & 0xff]! ^ (c >>> 8);
      tables[t]![n] = c;
    }
  }
  return tables;
})();

export function crc32cTable(buf: Uint8Array, start = 0, end = buf.length): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = crcTables as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  let crc = -1;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const a = crc ^ (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24));
    crc =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[buf[i + 4]!]! ^
      t2[buf[i + 5]!]! ^
      t1[buf[i + 6]!]! ^
      t0[buf[i + 7]!]!;
  }
  for (; i < end; i++) crc = t0[(crc ^ buf[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

type NativeCrc32c = (input: Buffer, initialState?: number) => number;

/** The package's crc32c, or undefined where its native binary does not load. */
function loadNative(): NativeCrc32c | undefined {
  try {
    return (createRequire(import.meta.url)('@node-rs/crc32') as { crc32c: NativeCrc32c }).crc32c;
  } catch {
    return undefined;
  }
}

const native = loadNative();

/** Which implementation crc32c uses (the tests check it is the native one where it should be). */
export const crc32cImplementation: 'native' | 'table' = native ? 'native' : 'table';

/** CRC-32C of bytes [start, end) of `buf`. */
export const crc32c: (buf: Uint8Array, start?: number, end?: number) => number = native
  ? (buf, start = 0, end = buf.length) => native(Buffer.from(buf.buffer, buf.byteOffset + start, end - start))
  : crc32cTable;
