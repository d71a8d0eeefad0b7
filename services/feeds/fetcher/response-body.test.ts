import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, ContentEncodingError, contentCodings, readBody } from './response-body.ts';

const text = Buffer.from('<feed>'.repeat(500));
// One byte at a time: the deflate sniffing must not decide on a partial header.
const trickle = (data: Buffer) => Readable.from(Array.from(data, (byte) => Buffer.of(byte)));
const asText = (body: Uint8Array) => Buffer.from(body).toString();

describe('contentCodings', () => {
  it('lists codings in the order applied, without identity', () => {
    expect(contentCodings(null)).toEqual([]);
    expect(contentCodings('identity')).toEqual([]);
    expect(contentCodings('GZIP')).toEqual(['gzip']);
    expect(contentCodings('deflate, br')).toEqual(['deflate', 'br']);
  });

  it('refuses a coding it cannot undo', () => {
    expect(() => contentCodings('zstd')).toThrow(
      new ContentEncodingError('unsupported Content-Encoding "zstd"'),
    );
  });
});

describe('readBody', () => {
  it('decodes zlib-wrapped and raw deflate, even when they arrive a byte at a time', async () => {
    expect(asText(await readBody(trickle(zlib.deflateSync(text)), ['deflate'], 1e6))).toBe(text.toString());
    expect(asText(await readBody(trickle(zlib.deflateRawSync(text)), ['deflate'], 1e6))).toBe(
      text.toString(),
    );
  });

  it('undoes stacked codings last to first', async () => {
    const twice = zlib.brotliCompressSync(zlib.gzipSync(text));
    expect(asText(await readBody(Readable.from([twice]), ['gzip', 'br'], 1e6))).toBe(text.toString());
  });

  it('keeps what a truncated gzip stream held, as browsers do', async () => {
    const gz = zlib.gzipSync(text);
    const body = await readBody(Readable.from([gz.subarray(0, gz.length - 8)]), ['gzip'], 1e6);
    expect(asText(body)).toBe(text.toString());
  });

  it('caps the wire bytes, and the decoded bytes separately', async () => {
    await expect(readBody(Readable.from([Buffer.alloc(101)]), [], 100)).rejects.toThrow(BodyTooLargeError);
    await expect(readBody(Readable.from([Buffer.alloc(100)]), [], 100)).resolves.toHaveLength(100);
    const inflates = zlib.gzipSync(Buffer.alloc(10_000));
    expect(inflates.length).toBeLessThan(100);
    await expect(readBody(Readable.from([inflates]), ['gzip'], 100)).rejects.toThrow(
      'body larger than 100 bytes',
    );
  });

  it('destroys the source once the cap is passed', async () => {
    let destroyed = false;
    let reads = 0;
    const endless = new Readable({
      read() {
        reads += 1;
        this.push(Buffer.alloc(1024));
      },
      destroy(error, callback) {
        destroyed = true;
        callback(error);
      },
    });
    await expect(readBody(endless, [], 10 * 1024)).rejects.toThrow(BodyTooLargeError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(destroyed).toBe(true);
    expect(reads).toBeLessThan(100);
  });

  it('passes errors of the wire through unchanged and names decoding errors', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const failing = new Readable({
      read() {
        this.destroy(reset);
      },
    });
    await expect(readBody(failing, ['gzip'], 1e6)).rejects.toBe(reset);
    await expect(readBody(Readable.from([Buffer.alloc(16, 0xff)]), ['br'], 1e6)).rejects.toThrow(
      /^could not decode the br body: /,
    );
  });
});
