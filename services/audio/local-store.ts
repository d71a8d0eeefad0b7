// The default audio store: a local directory. Layout, for key `3fa1…e9.mp3`:
//
//   <dir>/3f/3fa1…e9.mp3        the audio bytes
//   <dir>/3f/3fa1…e9.mp3.json   {"contentType", "durationMs"}: what the bytes alone do not say
//
// One level of 256 shard folders keeps each folder small (a million files is ~4,000 per folder) without
// a deep tree. Every file is written to a temporary name, flushed to disk and renamed into place, so a
// reader (or a crash) never sees half a file: a content-addressed store serves what is there forever, so
// a torn file would never heal. The metadata lands first and the audio last, so an audio file that is
// there always has its metadata; the audio's own size is the one the store reports.
//
// Keys pass isAudioKey before any path is built from them, so no key can name a file outside the folder.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { formatOfKey } from './audio-key.ts';
import { contentTypes, type AudioStore, type ByteRange, type StoredAudio } from './audio-store.ts';
import { requireAudioKey, satisfiableRange } from './store-checks.ts';

interface Sidecar {
  contentType: string;
  durationMs: number | null;
}

export class LocalAudioStore implements AudioStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = path.resolve(directory);
  }

  async head(key: string): Promise<StoredAudio | null> {
    const file = await this.#open(key);
    if (!file) return null;
    try {
      return await this.#describe(key, file);
    } finally {
      await file.close();
    }
  }

  async put(
    key: string,
    bytes: Uint8Array,
    meta: { contentType: string; durationMs: number | null },
  ): Promise<StoredAudio> {
    const target = this.#path(key);
    await mkdir(path.dirname(target), { recursive: true });
    const sidecar: Sidecar = { contentType: meta.contentType, durationMs: meta.durationMs };
    await writeAtomically(`${target}.json`, Buffer.from(JSON.stringify(sidecar)));
    await writeAtomically(target, bytes);
    return { key, size: bytes.byteLength, ...sidecar };
  }

  async read(key: string, range?: ByteRange): Promise<{ audio: StoredAudio; body: Readable } | null> {
    // The handle opened here is the one streamed from, so what was described is what is sent.
    const file = await this.#open(key);
    if (!file) return null;
    try {
      const audio = await this.#describe(key, file);
      const { start, end } = range ? satisfiableRange(range, audio.size) : { start: 0, end: audio.size - 1 };
      if (audio.size === 0) {
        // No byte to start a file stream at; an empty stream says the same.
        await file.close();
        return { audio, body: Readable.from([]) };
      }
      return { audio, body: file.createReadStream({ start, end, autoClose: true }) };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  #path(key: string): string {
    requireAudioKey(key);
    return path.join(this.directory, key.slice(0, 2), key);
  }

  async #open(key: string): Promise<FileHandle | null> {
    try {
      return await open(this.#path(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async #describe(key: string, file: FileHandle): Promise<StoredAudio> {
    const { size } = await file.stat();
    const sidecar = await readSidecar(`${this.#path(key)}.json`);
    return {
      key,
      size,
      contentType: sidecar?.contentType || contentTypes[formatOfKey(key)],
      durationMs: sidecar?.durationMs ?? null,
    };
  }
}

/** Metadata of a file; null when it cannot be read (a file copied in by hand): the key still says the type. */
async function readSidecar(file: string): Promise<Sidecar | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Sidecar>;
    return {
      contentType: typeof parsed.contentType === 'string' ? parsed.contentType : '',
      durationMs: typeof parsed.durationMs === 'number' ? parsed.durationMs : null,
    };
  } catch {
    return null;
  }
}

/**
 * Writes to a temporary file beside the target, flushes it and renames it over the target. Two writers of
 * the same key each rename their own complete file; the last one wins, and both wrote the same content.
 */
async function writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
