import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAudioStoreContract, freshKey } from '../../test/support/audio-store-contract.ts';
import { startS3Server, type TestS3Server } from '../../test/support/s3-server.ts';
import { loadConfig } from '../runtime/config.ts';
import { audioStoreEnv, createAudioStore } from './config.ts';
import { S3AudioStore } from './s3-store.ts';

// Against s3rver, a real S3-compatible server on loopback (test/support/s3-server.ts). It starts in this
// process in well under a second and needs nothing of the stack, so these run with the unit tests.

describeAudioStoreContract('S3AudioStore', async () => {
  const server = await startS3Server(['audio']);
  return { store: new S3AudioStore(server.client(), { bucket: 'audio' }), close: () => server.close() };
});

describeAudioStoreContract('S3AudioStore under a prefix, made from its settings', async () => {
  const server = await startS3Server(['shared']);
  const config = loadConfig(audioStoreEnv, {
    AUDIO_STORE: 's3',
    AUDIO_S3_BUCKET: 'shared',
    AUDIO_S3_PREFIX: 'narrations/',
    AUDIO_S3_ENDPOINT: server.endpoint,
    AUDIO_S3_FORCE_PATH_STYLE: 'true',
    AUDIO_S3_ACCESS_KEY_ID: server.credentials.accessKeyId,
    AUDIO_S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
  });
  return { store: createAudioStore(config), close: () => server.close() };
});

describe('S3AudioStore objects', () => {
  let server: TestS3Server;
  beforeAll(async () => {
    server = await startS3Server(['audio']);
  });
  afterAll(() => server.close());

  it('are typed, cached for a year and carry the duration as metadata, under the prefix', async () => {
    const store = new S3AudioStore(server.client(), { bucket: 'audio', prefix: 'a/' });
    const key = freshKey();
    await store.put(key, Buffer.from('ID3'), { contentType: 'audio/mpeg', durationMs: 1_500 });
    const object = await server.client().send(new HeadObjectCommand({ Bucket: 'audio', Key: `a/${key}` }));
    expect(object.ContentType).toBe('audio/mpeg');
    expect(object.CacheControl).toBe('public, max-age=31536000, immutable');
    expect(object.Metadata).toEqual({ 'duration-ms': '1500' });
  });

  // HEAD answers have no body, so a missing bucket and a missing key are the same 404 there (on AWS too).
  it('fail loudly when the bucket does not exist, rather than reading as missing', async () => {
    const store = new S3AudioStore(server.client(), { bucket: 'no-such-bucket' });
    await expect(store.read(freshKey())).rejects.toThrow(/bucket/i);
    await expect(
      store.put(freshKey(), Buffer.from('x'), { contentType: 'audio/mpeg', durationMs: null }),
    ).rejects.toThrow(/bucket/i);
  });

  // s3rver checks the access key id; it does not verify SigV4 signatures, so a wrong secret is not tested.
  it('fail with credentials the server does not know', async () => {
    const config = loadConfig(audioStoreEnv, {
      AUDIO_STORE: 's3',
      AUDIO_S3_BUCKET: 'audio',
      AUDIO_S3_ENDPOINT: server.endpoint,
      AUDIO_S3_FORCE_PATH_STYLE: 'true',
      AUDIO_S3_ACCESS_KEY_ID: 'UNKNOWN',
      AUDIO_S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    });
    await expect(
      createAudioStore(config).put(freshKey(), Buffer.from('x'), {
        contentType: 'audio/mpeg',
        durationMs: null,
      }),
    ).rejects.toThrow(/Access Key Id/);
  });
});

describe('createAudioStore', () => {
  it('refuses the s3 store without a bucket, or with half the credentials', () => {
    const s3 = { AUDIO_STORE: 's3', AUDIO_S3_BUCKET: 'b' };
    expect(() => createAudioStore(loadConfig(audioStoreEnv, { AUDIO_STORE: 's3' }))).toThrow(
      /AUDIO_S3_BUCKET/,
    );
    expect(() =>
      createAudioStore(loadConfig(audioStoreEnv, { ...s3, AUDIO_S3_ACCESS_KEY_ID: 'id' })),
    ).toThrow(/give both or neither/);
    expect(() =>
      createAudioStore(loadConfig(audioStoreEnv, { ...s3, AUDIO_S3_SECRET_ACCESS_KEY: 'secret' })),
    ).toThrow(/give both or neither/);
  });

  it('defaults to the local directory under .stack/audio', () => {
    const config = loadConfig(audioStoreEnv, {});
    expect(config.AUDIO_STORE).toBe('local');
    expect(config.AUDIO_DIR).toMatch(/\/\.stack\/audio$/);
  });
});
