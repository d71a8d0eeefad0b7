// Where audio files are kept: the settings shape (merged into the env shape of every process that reads
// or writes audio) and the one place that turns it into an AudioStore.
//
// The local directory defaults to `.stack/audio` in the repository: `.stack/` already holds the local
// stack's data and logs, is git-ignored, and is what a developer wipes to start clean, so narrations go
// with the rest of the machine-local state rather than into the work tree.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { boolean, ConfigError, httpUrl, oneOf, text, type ConfigOf } from '../runtime/config.ts';
import { optionalSecret } from '../runtime/secret.ts';
import type { AudioStore } from './audio-store.ts';
import { LocalAudioStore } from './local-store.ts';
import { createS3Client, S3AudioStore } from './s3-store.ts';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

export const audioStoreEnv = {
  AUDIO_STORE: oneOf(['local', 's3'], 'local').describe(
    'Where audio files are kept: `local` (the directory `AUDIO_DIR`) or `s3` (an S3-compatible bucket, `AUDIO_S3_*`). The API serves them under /v1/audio/… either way.',
  ),
  AUDIO_DIR: text(`${repositoryRoot}.stack/audio`).describe(
    'The directory of the `local` store (created if missing); every process that writes or serves audio needs the same one.',
  ),
  AUDIO_S3_BUCKET: text('').describe('The bucket of the `s3` store (required with it; it must exist).'),
  AUDIO_S3_PREFIX: z
    .string()
    .default('')
    .refine((s) => s === '' || /^[A-Za-z0-9!_.*'()/-]*\/$/.test(s), {
      message: 'expected empty or a key prefix ending in / (e.g. audio/)',
    })
    .meta({
      accepted: 'empty, or a key prefix ending in `/`',
      description: 'Prepended to every object key, to share a bucket.',
    }),
  AUDIO_S3_ENDPOINT: httpUrl()
    .optional()
    .describe('The S3-compatible server (MinIO, Ceph, R2, …); empty: AWS S3 in `AUDIO_S3_REGION`.'),
  AUDIO_S3_REGION: text('us-east-1').describe('Region the requests are signed for.'),
  AUDIO_S3_FORCE_PATH_STYLE: boolean(false).describe(
    'Address the bucket as `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (most self-hosted servers need it).',
  ),
  AUDIO_S3_ACCESS_KEY_ID: text('').describe(
    'With `AUDIO_S3_SECRET_ACCESS_KEY`; both empty: the AWS SDK finds credentials itself (environment, shared files, instance or task role).',
  ),
  AUDIO_S3_SECRET_ACCESS_KEY: optionalSecret({
    accepted: 'text',
    description: 'The secret of `AUDIO_S3_ACCESS_KEY_ID`.',
  }),
} satisfies Record<string, z.ZodType>;

export type AudioStoreConfig = ConfigOf<typeof audioStoreEnv>;

export function createAudioStore(config: AudioStoreConfig): AudioStore {
  if (config.AUDIO_STORE === 'local') return new LocalAudioStore(config.AUDIO_DIR);
  const problems: string[] = [];
  if (config.AUDIO_S3_BUCKET.trim() === '') problems.push('AUDIO_S3_BUCKET: required when AUDIO_STORE is s3');
  const id = config.AUDIO_S3_ACCESS_KEY_ID.trim();
  const secret = config.AUDIO_S3_SECRET_ACCESS_KEY;
  if ((id === '') !== (secret === undefined)) {
    problems.push('AUDIO_S3_ACCESS_KEY_ID and AUDIO_S3_SECRET_ACCESS_KEY: give both or neither');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const client = createS3Client({
    region: config.AUDIO_S3_REGION,
    forcePathStyle: config.AUDIO_S3_FORCE_PATH_STYLE,
    ...(config.AUDIO_S3_ENDPOINT ? { endpoint: config.AUDIO_S3_ENDPOINT } : {}),
    ...(secret ? { credentials: { accessKeyId: id, secretAccessKey: secret.reveal() } } : {}),
  });
  return new S3AudioStore(client, { bucket: config.AUDIO_S3_BUCKET, prefix: config.AUDIO_S3_PREFIX });
}
