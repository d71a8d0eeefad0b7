// A real S3-compatible server on loopback for the S3 audio store's tests: s3rver (npm), run in this
// process on a free port over a temporary directory. It speaks S3's REST protocol, so the SDK's requests,
// headers, ranges and errors (NoSuchKey on GET, a bodiless 404 on HEAD, InvalidRange) are the real ones.
//
// Known limits: it checks the access key id but not SigV4 signatures; it does not decode `aws-chunked`
// uploads (the SDK's streaming uploads with trailing checksums) but stores their framing, which is one
// reason the store uploads byte arrays and never streams; and it answers `bytes=0-0` with the whole
// object, which the store cuts to the range asked for.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createS3Client } from '../../services/audio/s3-store.ts';
import type { S3Client } from '@aws-sdk/client-s3';

export interface TestS3Server {
  endpoint: string;
  /** Buckets made at start. */
  buckets: readonly string[];
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** A client for the server, as the store would make it. */
  client(): S3Client;
  close(): Promise<void>;
}

// s3rver's built-in account; SigV4 signatures are checked against it.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(buckets: readonly string[] = ['audio']): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    buckets,
    credentials,
    client: () => {
      const client = createS3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
      clients.push(client);
      return client;
    },
    close: async () => {
      for (const client of clients) client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
