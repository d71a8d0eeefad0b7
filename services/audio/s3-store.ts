// The audio store on an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …) through @aws-sdk/client-s3.
// Object `<prefix><key>` holds the bytes; its Content-Type is the audio's, and the duration travels as
// user metadata (`x-amz-meta-duration-ms`), so one HEAD answers head() and nothing is stored beside it.
// Ranges are GetObject's own Range, so a 206 streams straight from the bucket.
//
// Writes carry a Content-MD5, which S3 and the common S3-compatible servers check; the SDK's newer
// flexible checksums are only sent where S3 requires them, because servers that are not AWS often
// refuse or mishandle them.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { formatOfKey } from './audio-key.ts';
import { contentTypes, type AudioStore, type ByteRange, type StoredAudio } from './audio-store.ts';
import { AudioRangeError, requireAudioKey, satisfiableRange } from './store-checks.ts';

const durationHeader = 'duration-ms';

export interface S3AudioStoreOptions {
  bucket: string;
  /** Prepended to every key, e.g. `audio/`; empty for the bucket's root. */
  prefix?: string;
}

export interface S3Connection {
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Absent: the SDK's default chain (environment, shared files, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function createS3Client(connection: S3Connection): S3Client {
  const config: S3ClientConfig = {
    region: connection.region,
    forcePathStyle: connection.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.credentials ? { credentials: connection.credentials } : {}),
  };
  return new S3Client(config);
}

export class S3AudioStore implements AudioStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(client: S3Client, options: S3AudioStoreOptions) {
    this.#client = client;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? '';
  }

  async head(key: string): Promise<StoredAudio | null> {
    const objectKey = this.#objectKey(key);
    try {
      const answer = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
      return describe(key, answer.ContentLength ?? 0, answer.ContentType, answer.Metadata);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async put(
    key: string,
    bytes: Uint8Array,
    meta: { contentType: string; durationMs: number | null },
  ): Promise<StoredAudio> {
    const objectKey = this.#objectKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: objectKey,
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: meta.contentType,
        ContentMD5: createHash('md5').update(bytes).digest('base64'),
        // For a bucket served directly or through a CDN: the content under a key never changes.
        CacheControl: 'public, max-age=31536000, immutable',
        Metadata: meta.durationMs === null ? {} : { [durationHeader]: String(meta.durationMs) },
      }),
    );
    return { key, size: bytes.byteLength, contentType: meta.contentType, durationMs: meta.durationMs };
  }

  async read(key: string, range?: ByteRange): Promise<{ audio: StoredAudio; body: Readable } | null> {
    const objectKey = this.#objectKey(key);
    // S3 ignores a malformed Range and sends the whole object; refuse it here as the local store does.
    if (range && !wellFormed(range)) {
      const audio = await this.head(key);
      if (!audio) return null;
      throw new AudioRangeError(range, audio.size);
    }
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const size = range ? totalOf(answer.ContentRange) : (answer.ContentLength ?? 0);
      const audio = describe(key, size, answer.ContentType, answer.Metadata);
      if (!(answer.Body instanceof Readable)) {
        if (audio.size === 0) return { audio, body: Readable.from([]) };
        throw new Error(`S3 answered ${objectKey} without a readable body`);
      }
      let body: Readable = answer.Body;
      if (range) {
        const wanted = satisfiableRange(range, size);
        const served = servedRange(answer.ContentRange, size);
        if (served.start > wanted.start || served.end < wanted.end) {
          body.destroy();
          throw new Error(
            `S3 answered ${answer.ContentRange ?? 'the whole object'} for ${objectKey} ${range.start}-${range.end}`,
          );
        }
        // Some S3-compatible servers send more than asked (s3rver answers `bytes=0-0` with the whole
        // object); cut the answer to the range, so every store sends exactly the bytes asked for.
        if (served.start !== wanted.start || served.end !== wanted.end) {
          body = Readable.from(slice(body, wanted.start - served.start, wanted.end - wanted.start + 1));
        }
      }
      return { audio, body };
    } catch (error) {
      if (isMissing(error)) return null;
      if (isUnsatisfiable(error) && range) {
        const audio = await this.head(key);
        if (!audio) return null;
        throw new AudioRangeError(range, audio.size);
      }
      throw error;
    }
  }

  #objectKey(key: string): string {
    requireAudioKey(key);
    return `${this.#prefix}${key}`;
  }
}

const wellFormed = ({ start, end }: ByteRange) =>
  Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && end >= start;

function describe(
  key: string,
  size: number,
  contentType: string | undefined,
  metadata: Record<string, string> | undefined,
): StoredAudio {
  const duration = metadata?.[durationHeader];
  const durationMs = duration !== undefined && /^\d+$/.test(duration) ? Number(duration) : null;
  return { key, size, contentType: contentType || contentTypes[formatOfKey(key)], durationMs };
}

/** The part of the object an answer carries: its Content-Range, or all of it when there is none. */
function servedRange(contentRange: string | undefined, size: number): ByteRange {
  const match = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  return match ? { start: Number(match[1]), end: Number(match[2]) } : { start: 0, end: size - 1 };
}

async function* slice(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length;
  // Leaving the loop early destroys the body, so the connection is not held open for bytes unread.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    let part = chunk;
    if (toSkip >= part.length) {
      toSkip -= part.length;
      continue;
    }
    part = part.subarray(toSkip);
    toSkip = 0;
    if (part.length >= left) {
      yield part.subarray(0, left);
      return;
    }
    left -= part.length;
    yield part;
  }
}

/** `bytes 0-99/5000` -> 5000. */
function totalOf(contentRange: string | undefined): number {
  const match = /\/(\d+)$/.exec(contentRange ?? '');
  if (!match) throw new Error(`S3 answered a ranged read without a usable Content-Range (${contentRange})`);
  return Number(match[1]);
}

const statusOf = (error: unknown) =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

// HEAD answers have no body, so the SDK names a 404 `NotFound`; GetObject's is `NoSuchKey`.
const isMissing = (error: unknown) =>
  statusOf(error) === 404 && ['NotFound', 'NoSuchKey'].includes((error as Error).name);

const isUnsatisfiable = (error: unknown) => statusOf(error) === 416;
