// Reads a response body into memory without ever holding more than the cap. The cap applies to the
// bytes on the wire AND to the decoded bytes: a 10 KB gzip that inflates to 10 GB (a "zip bomb") is
// stopped after the cap's worth of output, and a compressed stream that inflates to nothing forever is
// stopped by the wire count.
import { pipeline } from 'node:stream';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export class ContentEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentEncodingError';
  }
}

const supported = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** The codings of a Content-Encoding header in the order the server applied them; `identity` dropped. */
export function contentCodings(header: string | null): string[] {
  if (header === null) return [];
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const unknown = codings.find((c) => !supported.has(c));
  if (unknown !== undefined) throw new ContentEncodingError(`unsupported Content-Encoding "${unknown}"`);
  return codings;
}

export async function readBody(
  wire: AsyncIterable<Uint8Array>,
  codings: readonly string[],
  maxBytes: number,
): Promise<Uint8Array> {
  // Errors of the wire (reset, abort, the cap) pass through the decoders unchanged; remembering them
  // is how any other error is known to be the decoder's, i.e. a corrupt body.
  let wireError: unknown;
  async function* capped(): AsyncGenerator<Uint8Array> {
    let total = 0;
    try {
      for await (const chunk of wire) {
        total += chunk.length;
        if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
        yield chunk;
      }
    } catch (error) {
      wireError = error;
      throw error;
    }
  }

  // Most feeds come as they are: nothing to decode, so the wire is read directly, without the generator
  // that counts it for the decoders (a second async iteration per chunk).
  let stream: AsyncIterable<Uint8Array> = codings.length === 0 ? wire : capped();
  // Codings are listed in the order applied, so they are undone last to first.
  for (const coding of [...codings].reverse()) stream = decode(stream, coding);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      // Leaving the loop destroys the decoder and, through the pipeline, the response stream.
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error === wireError || error instanceof BodyTooLargeError || codings.length === 0) throw error;
    throw new ContentEncodingError(
      `could not decode the ${codings.join(', ')} body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // A fresh array rather than Buffer.concat: small Buffers share a pooled ArrayBuffer with other data.
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

// Lenient flushing, as browsers do: servers that cut a compressed stream short are common, and a
// truncated feed is still the parser's to judge.
function decode(source: AsyncIterable<Uint8Array>, coding: string): AsyncIterable<Uint8Array> {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return through(source, zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    case 'br':
      return through(
        source,
        zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
      );
    case 'deflate':
      return inflateEitherKind(source);
    default:
      throw new ContentEncodingError(`unsupported Content-Encoding "${coding}"`);
  }
}

function through(source: AsyncIterable<Uint8Array>, decoder: Transform): AsyncIterable<Uint8Array> {
  // Errors (a corrupt stream, the cap, an aborted response) reach the consumer through the decoder.
  return pipeline(source, decoder, () => undefined);
}

// "deflate" is meant to be zlib-wrapped (RFC 9110), but many servers send raw deflate; the first two
// bytes tell them apart (a zlib header is CM=8, window ≤ 32K, and a multiple of 31).
async function* inflateEitherKind(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headLength = 0;
  let done = false;
  try {
    while (headLength < 2) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const start = Buffer.concat(head, headLength);
    const wrapped =
      start.length >= 2 &&
      (start[0]! & 0x0f) === 8 &&
      start[0]! >> 4 <= 7 &&
      ((start[0]! << 8) | start[1]!) % 31 === 0;
    const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    async function* replay(): AsyncGenerator<Uint8Array> {
      if (start.length > 0) yield start;
      while (!done) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    }
    yield* through(replay(), wrapped ? zlib.createInflate(options) : zlib.createInflateRaw(options));
  } finally {
    // Stopping early (cap, error) must release the response stream underneath. Not awaited: a source
    // stuck waiting for bytes would hold the failure back until it produced one.
    iterator.return?.().catch(() => undefined);
  }
}
