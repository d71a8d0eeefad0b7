// The behaviour every AudioStore must have (services/audio/audio-store.ts), as one suite each store's
// test file runs against a real instance: the local directory, and the S3 store on a real S3 server.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../services/audio/audio-key.ts';
import type { AudioStore } from '../../services/audio/audio-store.ts';
import { AudioRangeError, InvalidAudioKeyError } from '../../services/audio/store-checks.ts';

export interface StoreUnderTest {
  store: AudioStore;
  close?: () => Promise<void>;
}

export async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

let counter = 0;
/** A key no other test uses (the stores outlive a test). */
export const freshKey = (format: 'mp3' | 'wav' | 'ogg' = 'mp3') =>
  audioKey(format, ['contract', process.pid, Date.now(), ++counter, randomBytes(8).toString('hex')]);

export const invalidKeys = [
  '',
  '../../etc/passwd',
  `${'a'.repeat(40)}.mp3/../../x`,
  `../${'a'.repeat(40)}.mp3`,
  `${'a'.repeat(40)}.exe`,
  `${'A'.repeat(40)}.mp3`,
  `${'a'.repeat(39)}.mp3`,
  `/${'a'.repeat(40)}.mp3`,
  `${'a'.repeat(40)}.mp3\u0000`,
];

export function describeAudioStoreContract(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`${name}: the AudioStore contract`, () => {
    let subject: StoreUnderTest;
    let store: AudioStore;
    beforeAll(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.close?.();
    });

    const sample = (size: number) => randomBytes(size);

    it('describes and returns what was put, byte for byte', async () => {
      const key = freshKey();
      const bytes = sample(10_000);
      const stored = await store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 1_234 });
      expect(stored).toEqual({ key, size: 10_000, contentType: 'audio/mpeg', durationMs: 1_234 });
      expect(await store.head(key)).toEqual(stored);
      const read = await store.read(key);
      expect(read?.audio).toEqual(stored);
      expect((await bytesOf(read!.body)).equals(bytes)).toBe(true);
    });

    it('keeps an unknown duration as null and the content type as given', async () => {
      const key = freshKey('ogg');
      await store.put(key, sample(100), { contentType: 'audio/ogg; codecs=opus', durationMs: null });
      expect(await store.head(key)).toEqual({
        key,
        size: 100,
        contentType: 'audio/ogg; codecs=opus',
        durationMs: null,
      });
    });

    it('returns exactly the bytes of a range, cutting an end past the last byte to it', async () => {
      const key = freshKey('wav');
      const bytes = sample(4_096);
      await store.put(key, bytes, { contentType: 'audio/wav', durationMs: 50 });
      const cases: [number, number, number, number][] = [
        [0, 0, 0, 0],
        [0, 99, 0, 99],
        [1_000, 1_999, 1_000, 1_999],
        [4_000, 4_095, 4_000, 4_095],
        [4_095, 4_095, 4_095, 4_095],
        [4_000, 1_000_000, 4_000, 4_095],
      ];
      for (const [start, end, from, to] of cases) {
        const read = await store.read(key, { start, end });
        expect(read?.audio.size, `${start}-${end}`).toBe(4_096);
        const got = await bytesOf(read!.body);
        expect(got.equals(bytes.subarray(from, to + 1)), `${start}-${end}`).toBe(true);
      }
    });

    it('refuses a range that starts past the end or is backwards, naming the size', async () => {
      const key = freshKey();
      await store.put(key, sample(500), { contentType: 'audio/mpeg', durationMs: null });
      for (const range of [
        { start: 500, end: 600 },
        { start: 10_000, end: 10_001 },
        { start: 20, end: 10 },
        { start: -1, end: 10 },
      ]) {
        const refused = await store.read(key, range).then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused, JSON.stringify(range)).toBeInstanceOf(AudioRangeError);
        expect((refused as AudioRangeError).size).toBe(500);
      }
    });

    it('answers null for a key that was never stored, with or without a range', async () => {
      const key = freshKey();
      expect(await store.head(key)).toBeNull();
      expect(await store.read(key)).toBeNull();
      expect(await store.read(key, { start: 0, end: 10 })).toBeNull();
    });

    it('takes the same key twice without harm', async () => {
      const key = freshKey();
      const bytes = sample(2_000);
      await store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 10 });
      await store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 10 });
      expect(await store.head(key)).toEqual({ key, size: 2_000, contentType: 'audio/mpeg', durationMs: 10 });
      expect((await bytesOf((await store.read(key))!.body)).equals(bytes)).toBe(true);
    });

    it('ends whole when many writers put the same key at once', async () => {
      const key = freshKey();
      const bytes = sample(300_000);
      const writers = Array.from({ length: 8 }, () =>
        store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 99 }),
      );
      // Readers racing the writers see nothing or the whole file, never a part of it.
      const readers = Array.from({ length: 8 }, async () => {
        const read = await store.read(key);
        return read ? (await bytesOf(read.body)).equals(bytes) : true;
      });
      const stored = await Promise.all(writers);
      expect(new Set(stored.map((s) => s.size))).toEqual(new Set([300_000]));
      expect((await Promise.all(readers)).every(Boolean)).toBe(true);
      expect(await store.head(key)).toEqual({
        key,
        size: 300_000,
        contentType: 'audio/mpeg',
        durationMs: 99,
      });
      expect((await bytesOf((await store.read(key))!.body)).equals(bytes)).toBe(true);
    });

    it('keeps a file of several megabytes intact, whole and in ranges', async () => {
      const key = freshKey();
      const bytes = sample(6 * 1_048_576 + 17);
      await store.put(key, bytes, { contentType: 'audio/mpeg', durationMs: 360_000 });
      expect((await store.head(key))?.size).toBe(bytes.length);
      expect((await bytesOf((await store.read(key))!.body)).equals(bytes)).toBe(true);
      const tail = await store.read(key, { start: bytes.length - 500, end: bytes.length + 500 });
      expect((await bytesOf(tail!.body)).equals(bytes.subarray(bytes.length - 500))).toBe(true);
      const middle = await store.read(key, { start: 3_000_000, end: 4_999_999 });
      expect((await bytesOf(middle!.body)).equals(bytes.subarray(3_000_000, 5_000_000))).toBe(true);
    });

    it('refuses a key audioKey could not have made, before touching storage', async () => {
      for (const key of invalidKeys) {
        await expect(store.head(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidAudioKeyError);
        await expect(store.read(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidAudioKeyError);
        await expect(
          store.put(key, sample(10), { contentType: 'audio/mpeg', durationMs: null }),
          JSON.stringify(key),
        ).rejects.toBeInstanceOf(InvalidAudioKeyError);
      }
    });
  });
}
