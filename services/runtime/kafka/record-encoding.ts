// A faster encoder for the record batches KafkaJS produces, byte for byte what KafkaJS writes.
//
// KafkaJS 2.2 encodes each record of a produce request in an Encoder of its own: a zeroed 512-byte
// buffer per record (and per header), every varint built as an array and copied in through a Buffer of
// its own, the timestamp delta's varlong computed through BigInt-backed Long objects, then each record
// copied again into the batch. In a dispatcher profile that is most of KafkaJS's share of the CPU on the
// produce side (Buffer.alloc and the copies, with the garbage they leave). Here a record is measured
// first and written once, straight into the batch's one buffer, which is allocated at its exact size.
//
// The produce request itself (v3; v4–v7 are v3 with another version number) is then written into one
// buffer of its exact size, batches in place: KafkaJS copied each batch into an Encoder per partition,
// per topic and per request, each a zeroed buffer grown to a power of two.
//
// It is installed by replacing three of KafkaJS's internal modules in the CommonJS require cache
// (`src/protocol/recordBatch/record/v0`, the RecordBatch of `src/protocol/recordBatch/v0`, and
// `src/protocol/requests/produce/v3/request`, whose encode() alone is replaced). KafkaJS has no hook for
// this, so the paths are checked: installRecordEncoding() throws if they moved (a KafkaJS upgrade), and
// record-encoding.test.ts compares the bytes with KafkaJS's own encoders on varied records, batches and
// whole produce requests. Anything the
// fast path does not expect (a key or value neither string nor Buffer, header values that are not,
// timestamps that are not safe integers, compression) goes to KafkaJS's own code, so it fails or
// succeeds exactly as before.
//
// Call installRecordEncoding() once at a service's start, before it produces (later works too: the
// produce request modules are reloaded).
import { createRequire } from 'node:module';
import { crc32c } from './crc32c.ts';

const require = createRequire(import.meta.url);

/** Where the modules live inside the kafkajs package (checked at install and by the test). */
export const kafkajsModules = {
  record: 'kafkajs/src/protocol/recordBatch/record/v0/index.js',
  recordBatch: 'kafkajs/src/protocol/recordBatch/v0/index.js',
  encoder: 'kafkajs/src/protocol/encoder.js',
  long: 'kafkajs/src/utils/long.js',
  compression: 'kafkajs/src/protocol/message/compression/index.js',
  produceRequests: [3, 4, 5, 6, 7].map((v) => `kafkajs/src/protocol/requests/produce/v${v}/request.js`),
} as const;

type Headers = Record<string, unknown>;

export interface RecordInput {
  offsetDelta?: number;
  timestampDelta?: number;
  key?: unknown;
  value?: unknown;
  headers?: Headers;
}

/** What KafkaJS's Encoder offers that its callers of a record or batch use. */
export interface EncoderLike {
  buf: Buffer;
  readonly buffer: Buffer;
  size(): number;
}

type RecordFn = (record: RecordInput) => EncoderLike;

interface RecordBatchInput {
  compression?: number;
  firstOffset?: unknown;
  firstTimestamp?: unknown;
  maxTimestamp?: unknown;
  partitionLeaderEpoch?: number;
  lastOffsetDelta?: number;
  transactional?: boolean;
  producerId?: unknown;
  producerEpoch?: number;
  firstSequence?: number;
  records?: EncoderLike[];
}

type RecordBatchFn = (input: RecordBatchInput) => Promise<EncoderLike>;

interface LongLike {
  getHighBits(): number;
  getLowBits(): number;
}

interface KafkaJsInternals {
  Record: RecordFn;
  RecordBatch: RecordBatchFn;
  recordBatchModule: { RecordBatch: RecordBatchFn; MAGIC_BYTE: number };
  Encoder: new (initialSize?: number) => EncoderLike & { offset: number };
  Long: { fromInt(value: number): LongLike; fromValue(value: unknown): LongLike };
  compressionNone: number;
  codecMask: number;
}

let originals: KafkaJsInternals | undefined;

function resolve(id: string): string {
  try {
    return require.resolve(id);
  } catch (error) {
    throw new Error(
      `record-encoding: KafkaJS's internal module ${id} is not where it was (a KafkaJS upgrade?); ` +
        'check record-encoding.ts against the new KafkaJS before installing it',
      { cause: error },
    );
  }
}

/** KafkaJS's own encoders (as loaded before any install): for the fallback and the test. */
export function kafkajsOriginals(): KafkaJsInternals {
  if (originals) return originals;
  const recordPath = resolve(kafkajsModules.record);
  const batchPath = resolve(kafkajsModules.recordBatch);
  const Record = require(recordPath) as unknown;
  const recordBatchModule = require(batchPath) as KafkaJsInternals['recordBatchModule'];
  const Encoder = require(resolve(kafkajsModules.encoder)) as unknown;
  const Long = require(resolve(kafkajsModules.long)) as unknown;
  const compression = require(resolve(kafkajsModules.compression)) as {
    Types?: { None?: unknown };
    COMPRESSION_CODEC_MASK?: unknown;
  };
  for (const id of kafkajsModules.produceRequests) resolve(id);
  if (
    typeof Record !== 'function' ||
    typeof recordBatchModule?.RecordBatch !== 'function' ||
    recordBatchModule.MAGIC_BYTE !== 2 ||
    typeof Encoder !== 'function' ||
    typeof (Long as { fromValue?: unknown })?.fromValue !== 'function' ||
    compression.Types?.None !== 0 ||
    typeof compression.COMPRESSION_CODEC_MASK !== 'number'
  )
    throw new Error(
      "record-encoding: KafkaJS's record modules do not look like KafkaJS 2.2's (a KafkaJS upgrade?)",
    );
  originals = {
    Record: Record as RecordFn,
    RecordBatch: recordBatchModule.RecordBatch,
    recordBatchModule,
    Encoder: Encoder as KafkaJsInternals['Encoder'],
    Long: Long as KafkaJsInternals['Long'],
    compressionNone: 0,
    codecMask: compression.COMPRESSION_CODEC_MASK,
  };
  return originals;
}

// ---- varints ------------------------------------------------------------------------------------

/** Bytes of an unsigned varint of a non-negative safe integer. */
function sizeOfUVarInt(value: number): number {
  let bytes = 1;
  while (value >= 128) {
    bytes += 1;
    value = Math.floor(value / 128);
  }
  return bytes;
}

/** Zigzag of a 32-bit int, as KafkaJS's Encoder.encodeZigZag, as an unsigned number. */
const zigZag32 = (value: number): number => ((value << 1) ^ (value >> 31)) >>> 0;

/** Zigzag of an integer with |value| < 2^52 (exact in a double). */
const zigZag64 = (value: number): number => (value >= 0 ? value * 2 : -value * 2 - 1);

function writeUVarInt(buf: Buffer, offset: number, value: number): number {
  while (value >= 128) {
    buf[offset++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  buf[offset++] = value;
  return offset;
}

const varLongLimit = 2 ** 52;

// ---- records ------------------------------------------------------------------------------------

/** A string or Buffer field, measured; `bytes` -1 for null. */
const fieldSize = (value: unknown): number =>
  value == null ? -1 : typeof value === 'string' ? Buffer.byteLength(value) : (value as Buffer).length;

const isBytes = (value: unknown): boolean => typeof value === 'string' || Buffer.isBuffer(value);

function writeField(buf: Buffer, offset: number, value: unknown, size: number): number {
  if (size < 0) return writeUVarInt(buf, offset, 1); // zigzag(-1)
  offset = writeUVarInt(buf, offset, zigZag32(size));
  if (typeof value === 'string') buf.write(value, offset, size, 'utf8');
  else (value as Buffer).copy(buf, offset);
  return offset + size;
}

/**
 * One record, measured but not yet written: the batch writes it into its own buffer. Anything else
 * that asks for its bytes (`buf`, `buffer`) gets them in a buffer of its own, as from KafkaJS.
 */
class MeasuredRecord implements EncoderLike {
  private bytes: Buffer | undefined;
  readonly length: number;

  constructor(
    private readonly key: unknown,
    private readonly keySize: number,
    private readonly value: unknown,
    private readonly valueSize: number,
    /** Flattened [key, value, keySize, valueSize, …] of the headers, or null for none. */
    private readonly headers: unknown[] | null,
    private readonly timestampZigZag: number,
    private readonly offsetZigZag: number,
    private readonly bodySize: number,
  ) {
    this.length = sizeOfUVarInt(zigZag32(bodySize)) + bodySize;
  }

  writeTo(buf: Buffer, offset: number): number {
    offset = writeUVarInt(buf, offset, zigZag32(this.bodySize));
    buf[offset++] = 0; // attributes
    offset = writeUVarInt(buf, offset, this.timestampZigZag);
    offset = writeUVarInt(buf, offset, this.offsetZigZag);
    offset = writeField(buf, offset, this.key, this.keySize);
    offset = writeField(buf, offset, this.value, this.valueSize);
    const headers = this.headers;
    if (headers === null) {
      buf[offset++] = 0;
      return offset;
    }
    offset = writeUVarInt(buf, offset, zigZag32(headers.length / 4));
    for (let i = 0; i < headers.length; i += 4) {
      offset = writeField(buf, offset, headers[i], headers[i + 2] as number);
      offset = writeField(buf, offset, headers[i + 1], headers[i + 3] as number);
    }
    return offset;
  }

  get buf(): Buffer {
    if (this.bytes === undefined) {
      this.bytes = Buffer.allocUnsafe(this.length);
      this.writeTo(this.bytes, 0);
    }
    return this.bytes;
  }

  get buffer(): Buffer {
    return this.buf;
  }

  size(): number {
    return this.length;
  }
}

const fieldBytes = (size: number): number => (size < 0 ? 1 : sizeOfUVarInt(zigZag32(size)) + size);

/** The replacement of KafkaJS's `recordBatch/record/v0`: same arguments, same bytes. */
export function encodeRecord(input: RecordInput): EncoderLike {
  const { offsetDelta = 0, timestampDelta = 0, key, value, headers = {} } = input;
  return measureRecord(key, value, headers, offsetDelta, timestampDelta) ?? kafkajsOriginals().Record(input);
}

/** A record measured for writing, or null for one the fast path leaves to KafkaJS. */
function measureRecord(
  key: unknown,
  value: unknown,
  headers: unknown,
  offsetDelta: unknown,
  timestampDelta: unknown,
): MeasuredRecord | null {
  if (
    (key != null && !isBytes(key)) ||
    (value != null && !isBytes(value)) ||
    typeof timestampDelta !== 'number' ||
    !Number.isSafeInteger(timestampDelta) ||
    Math.abs(timestampDelta) >= varLongLimit ||
    typeof offsetDelta !== 'number' ||
    !Number.isInteger(offsetDelta) ||
    offsetDelta < 0 ||
    offsetDelta > 0x3fffffff ||
    headers === null ||
    typeof headers !== 'object'
  )
    return null;
  let flat: unknown[] | null = null;
  let headersSize = 1;
  for (const headerKey in headers) {
    if (!Object.hasOwn(headers, headerKey)) continue;
    const headerValue = (headers as Headers)[headerKey];
    flat ??= [];
    if (Array.isArray(headerValue)) {
      for (const item of headerValue as unknown[]) {
        if (!isBytes(item)) return null;
        flat.push(headerKey, item, Buffer.byteLength(headerKey), fieldSize(item));
      }
    } else {
      if (!isBytes(headerValue)) return null;
      flat.push(headerKey, headerValue, Buffer.byteLength(headerKey), fieldSize(headerValue));
    }
  }
  if (flat !== null) {
    // Object.keys order (which for..in follows for own string keys); KafkaJS writes the count first.
    headersSize = sizeOfUVarInt(zigZag32(flat.length / 4));
    for (let i = 0; i < flat.length; i += 4)
      headersSize += fieldBytes(flat[i + 2] as number) + fieldBytes(flat[i + 3] as number);
    if (flat.length === 0) flat = null;
  }
  const keySize = fieldSize(key);
  const valueSize = fieldSize(value);
  const timestampZigZag = zigZag64(timestampDelta);
  const offsetZigZag = zigZag32(offsetDelta);
  const bodySize =
    1 +
    sizeOfUVarInt(timestampZigZag) +
    sizeOfUVarInt(offsetZigZag) +
    fieldBytes(keySize) +
    fieldBytes(valueSize) +
    headersSize;
  return new MeasuredRecord(key, keySize, value, valueSize, flat, timestampZigZag, offsetZigZag, bodySize);
}

// ---- the batch ----------------------------------------------------------------------------------

function writeLong(buf: Buffer, offset: number, value: LongLike): number {
  buf.writeInt32BE(value.getHighBits(), offset);
  buf.writeInt32BE(value.getLowBits(), offset + 4);
  return offset + 8;
}

/** Bytes before the records: FirstOffset … FirstSequence, and the records' count. */
const batchHeaderSize = 8 + 4 + 4 + 1 + 4 + 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4;
/** Where the CRC'd part (Attributes onwards) starts. */
const crcStart = 8 + 4 + 4 + 1 + 4;

/** The replacement of KafkaJS's RecordBatch (`recordBatch/v0`): same arguments, same bytes. */
export async function encodeRecordBatch(input: RecordBatchInput): Promise<EncoderLike> {
  const kafkajs = kafkajsOriginals();
  const records = input.records ?? [];
  const compression = input.compression ?? kafkajs.compressionNone;
  if (compression !== kafkajs.compressionNone || !records.every((r) => r instanceof MeasuredRecord))
    return kafkajs.RecordBatch(input);
  const size = batchSize(records);
  const buf = Buffer.allocUnsafe(size);
  writeBatch(buf, 0, size, records, input);
  return encoderOf(buf);
}

/** A KafkaJS Encoder holding exactly `buf`: its callers copy `buffer` and ask `size()`. */
function encoderOf(buf: Buffer): EncoderLike {
  const encoder = new (kafkajsOriginals().Encoder)(0);
  encoder.buf = buf;
  encoder.offset = buf.length;
  return encoder;
}

const batchSize = (records: readonly MeasuredRecord[]): number => {
  let size = batchHeaderSize;
  for (const record of records) size += record.length;
  return size;
};

/** Writes the batch of `records` (uncompressed), `size` bytes, at `start`, as KafkaJS's RecordBatch. */
function writeBatch(
  buf: Buffer,
  start: number,
  size: number,
  records: readonly MeasuredRecord[],
  input: RecordBatchInput,
): void {
  const kafkajs = kafkajsOriginals();
  const {
    firstOffset = kafkajs.Long.fromInt(0),
    firstTimestamp = Date.now(),
    maxTimestamp = Date.now(),
    partitionLeaderEpoch = 0,
    lastOffsetDelta = 0,
    transactional = false,
    producerId = kafkajs.Long.fromValue(-1),
    producerEpoch = 0,
    firstSequence = 0,
  } = input;
  let offset = writeLong(buf, start, kafkajs.Long.fromValue(firstOffset));
  offset = buf.writeInt32BE(size - 12, offset); // the batch after FirstOffset and Length
  offset = buf.writeInt32BE(partitionLeaderEpoch, offset);
  offset = buf.writeInt8(kafkajs.recordBatchModule.MAGIC_BYTE, offset);
  offset += 4; // the CRC, once the rest is written
  offset = buf.writeInt16BE(transactional ? 16 : 0, offset); // attributes: no compression
  offset = buf.writeInt32BE(lastOffsetDelta, offset);
  offset = writeLong(buf, offset, kafkajs.Long.fromValue(firstTimestamp));
  offset = writeLong(buf, offset, kafkajs.Long.fromValue(maxTimestamp));
  offset = writeLong(buf, offset, kafkajs.Long.fromValue(producerId));
  offset = buf.writeInt16BE(producerEpoch, offset);
  offset = buf.writeInt32BE(firstSequence, offset);
  offset = buf.writeInt32BE(records.length, offset);
  for (const record of records) offset = record.writeTo(buf, offset);
  if (offset !== start + size)
    throw new Error(`record-encoding: wrote ${offset - start} bytes of a ${size}-byte batch`);
  buf.writeUInt32BE(crc32c(buf, start + crcStart, start + size), start + crcStart - 4);
}

// ---- the produce request --------------------------------------------------------------------------

interface ProduceMessage {
  key?: unknown;
  value?: unknown;
  headers?: unknown;
  timestamp?: unknown;
}

interface ProduceArgs {
  acks: number;
  timeout: number;
  transactionalId?: string | null;
  producerId?: unknown;
  producerEpoch?: number;
  compression?: number;
  topicData: {
    topic: string;
    partitions: { partition: number; firstSequence?: number; messages: ProduceMessage[] }[];
  }[];
}

interface ProduceRequest {
  encode: () => Promise<EncoderLike>;
}

type ProduceRequestFn = (args: ProduceArgs) => ProduceRequest;

let kafkajsProduceV3: ProduceRequestFn | undefined;

/**
 * The replacement of KafkaJS's produce request v3 (v4–v7 are it with another version number): the
 * request KafkaJS builds, whose encode() writes the whole payload into one buffer of its exact size
 * (KafkaJS copies each record batch into an Encoder per partition, per topic and for the request, each
 * a zeroed buffer grown to a power of two). Same bytes; compression and anything the record fast path
 * refuses go to KafkaJS's own encode().
 */
export function produceRequestV3(args: ProduceArgs): ProduceRequest {
  const request = kafkajsProduceV3!(args);
  const original = request.encode;
  request.encode = async () => (await encodeProduce(args)) ?? original();
  return request;
}

/** The Produce v3 payload (after the request header), or null to leave it to KafkaJS. */
async function encodeProduce(args: ProduceArgs): Promise<EncoderLike | null> {
  const kafkajs = kafkajsOriginals();
  const { acks, timeout, transactionalId = null, topicData } = args;
  const producerId = args.producerId === undefined ? kafkajs.Long.fromInt(-1) : args.producerId;
  const producerEpoch = args.producerEpoch === undefined ? 0 : args.producerEpoch;
  if ((args.compression ?? kafkajs.compressionNone) !== kafkajs.compressionNone) return null;
  if (transactionalId !== null && typeof transactionalId !== 'string') return null;
  const batches: { records: MeasuredRecord[]; input: RecordBatchInput; size: number }[] = [];
  let size = 2 + (transactionalId === null ? 0 : Buffer.byteLength(transactionalId)) + 2 + 4 + 4;
  for (const { topic, partitions } of topicData) {
    if (typeof topic !== 'string') return null;
    size += 2 + Buffer.byteLength(topic) + 4;
    for (const { messages, firstSequence } of partitions) {
      // As KafkaJS's partitionsEncoder: timestamps sorted as it sorts them (as strings), deltas from the
      // first, records numbered in order.
      const dateNow = Date.now();
      let firstTimestamp: unknown = dateNow;
      let maxTimestamp: unknown = dateNow;
      if (messages.some((m) => m.timestamp != null)) {
        const timestamps = messages
          .map((m) => m.timestamp)
          .filter((t) => t != null)
          .sort();
        firstTimestamp = timestamps[0];
        maxTimestamp = timestamps[timestamps.length - 1];
      }
      const records: MeasuredRecord[] = [];
      for (let i = 0; i < messages.length; i++) {
        const message = messages[i]!;
        const timestampDelta = ((message.timestamp || dateNow) as number) - (firstTimestamp as number);
        const record = measureRecord(
          message.key,
          message.value,
          message.headers === undefined ? {} : message.headers,
          i,
          timestampDelta,
        );
        if (record === null) return null;
        records.push(record);
      }
      const input: RecordBatchInput = {
        firstTimestamp,
        maxTimestamp,
        producerId,
        producerEpoch,
        firstSequence,
        transactional: !!transactionalId,
        lastOffsetDelta: records.length - 1,
      };
      const bytes = batchSize(records);
      batches.push({ records, input, size: bytes });
      size += 4 + 4 + bytes;
    }
  }
  const buf = Buffer.allocUnsafe(size);
  let offset = writeString(buf, 0, transactionalId);
  offset = buf.writeInt16BE(acks, offset);
  offset = buf.writeInt32BE(timeout, offset);
  offset = buf.writeInt32BE(topicData.length, offset);
  let b = 0;
  for (const { topic, partitions } of topicData) {
    offset = writeString(buf, offset, topic);
    offset = buf.writeInt32BE(partitions.length, offset);
    for (const { partition } of partitions) {
      const batch = batches[b++]!;
      offset = buf.writeInt32BE(partition, offset);
      offset = buf.writeInt32BE(batch.size, offset);
      writeBatch(buf, offset, batch.size, batch.records, batch.input);
      offset += batch.size;
    }
  }
  if (offset !== size) throw new Error(`record-encoding: wrote ${offset} bytes of a ${size}-byte request`);
  return encoderOf(buf);
}

/** KafkaJS's writeString: an int16 length (-1 for null) and the UTF-8 bytes. */
function writeString(buf: Buffer, offset: number, value: string | null): number {
  if (value === null) return buf.writeInt16BE(-1, offset);
  const length = Buffer.byteLength(value);
  offset = buf.writeInt16BE(length, offset);
  buf.write(value, offset, length, 'utf8');
  return offset + length;
}

// ---- install ------------------------------------------------------------------------------------

let installed = false;

/**
 * Makes KafkaJS produce through encodeRecord, encodeRecordBatch and produceRequestV3, for every producer
 * of the process.
 * Throws if KafkaJS's internal modules are not where (or what) this expects. Idempotent.
 */
export function installRecordEncoding(): void {
  if (installed) return;
  const kafkajs = kafkajsOriginals();
  const recordModule = require.cache[resolve(kafkajsModules.record)];
  if (!recordModule) throw new Error('record-encoding: KafkaJS record module not in the require cache');
  recordModule.exports = encodeRecord;
  kafkajs.recordBatchModule.RecordBatch = encodeRecordBatch;
  // The produce requests took both at load: any loaded already load again, with these.
  for (const id of kafkajsModules.produceRequests) delete require.cache[resolve(id)];
  // Then v3 is wrapped (v4–v7 load it as they load again).
  const v3Path = resolve(kafkajsModules.produceRequests[0]!);
  kafkajsProduceV3 = require(v3Path) as ProduceRequestFn;
  if (typeof kafkajsProduceV3 !== 'function')
    throw new Error("record-encoding: KafkaJS's produce request v3 is not what it was (a KafkaJS upgrade?)");
  require.cache[v3Path]!.exports = produceRequestV3;
  installed = true;
}
