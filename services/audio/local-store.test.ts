import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  describeAudioStoreContract,
  freshKey,
  invalidKeys,
} from '../../test/support/audio-store-contract.ts';
import { LocalAudioStore } from './local-store.ts';

describeAudioStoreContract('LocalAudioStore', async () => {
  const directory = await mkdtemp(path.join(tmpdir(), 'audio-store-'));
  return {
    store: new LocalAudioStore(directory),
    close: () => rm(directory, { recursive: true, force: true }),
  };
});

describe('LocalAudioStore on disk', () => {
  let root: string;
  let directory: string;
  let store: LocalAudioStore;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'audio-layout-'));
    directory = path.join(root, 'audio');
    store = new LocalAudioStore(directory);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  /** Every file under a directory, relative to it. */
  const filesUnder = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();

  it('shards files by the first two characters of the key, with their metadata beside them', async () => {
    const key = freshKey();
    await store.put(key, Buffer.from('abc'), { contentType: 'audio/mpeg', durationMs: 5 });
    const shard = key.slice(0, 2);
    expect(await filesUnder(path.join(directory, shard))).toEqual([key, `${key}.json`].sort());
  });

  it('leaves no temporary file behind after concurrent writers', async () => {
    const key = freshKey();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        store.put(key, Buffer.alloc(50_000, 7), { contentType: 'audio/mpeg', durationMs: null }),
      ),
    );
    expect(await filesUnder(path.join(directory, key.slice(0, 2)))).toContain(key);
    expect((await filesUnder(directory)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('does not see a half-written temporary file (a writer that crashed)', async () => {
    const key = freshKey();
    const shard = path.join(directory, key.slice(0, 2));
    await store.put(freshKey(), Buffer.from('x'), { contentType: 'audio/mpeg', durationMs: null });
    await import('node:fs/promises').then(({ mkdir }) => mkdir(shard, { recursive: true }));
    await writeFile(path.join(shard, `.${key}.1234.abcdef.tmp`), 'half');
    expect(await store.head(key)).toBeNull();
    expect(await store.read(key)).toBeNull();
  });

  it('still serves a file whose metadata is missing, typed by its key', async () => {
    const key = freshKey('wav');
    await store.put(key, Buffer.from('RIFF'), { contentType: 'audio/wav', durationMs: 3 });
    await rm(path.join(directory, key.slice(0, 2), `${key}.json`));
    expect(await store.head(key)).toEqual({ key, size: 4, contentType: 'audio/wav', durationMs: null });
    expect((await bytesOf((await store.read(key))!.body)).toString()).toBe('RIFF');
  });

  it('creates nothing anywhere for a refused key', async () => {
    const before = await filesUnder(root);
    for (const key of invalidKeys) {
      await store
        .put(key, Buffer.from('nope'), { contentType: 'audio/mpeg', durationMs: null })
        .catch(() => null);
    }
    expect(await filesUnder(root)).toEqual(before);
  });
});
