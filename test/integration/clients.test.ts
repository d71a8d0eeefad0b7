// API clients end to end: the admin command (a real process) appends client
// states to the real news.clients.v1; two client directories, standing in for
// two API instances, follow it. Pins down that only hashes are stored, that a
// rotation or a revocation reaches the directories within seconds, and that a
// plan change changes the limits they see.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientDirectory } from '../../services/clients/client-directory.ts';
import { isStoredHash } from '../support/credential-shapes.ts';
import { effectiveLimits } from '../../services/clients/plans.ts';
import type { Client } from '../../services/runtime/events/types.generated.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { readTable } from '../../services/runtime/kafka/table.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { testKafka } from './support/kafka.ts';
import { stack, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  startedAt: number;
  endedAt: number;
}

/** Runs `tsx services/clients/main.ts ...args` as the administrator would. */
function clientsCommand(...args: string[]): Promise<CommandResult> {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/clients/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr, startedAt, endedAt: Date.now() })),
  );
}

/** Every record of a topic, every version, as raw bytes (what a consumer of the topic can see). */
async function readRaw(kafka: Kafka, topic: string): Promise<{ key: string | null; value: Buffer | null }[]> {
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
  await admin.disconnect();
  const pending = new Set([...ends].filter(([, high]) => high > 0n).map(([p]) => p));
  const records: { key: string | null; value: Buffer | null }[] = [];
  if (pending.size === 0) return records;
  const consumer = kafka.consumer({ groupId: `clients-test-raw-${randomUUID()}`, maxWaitTimeInMs: 250 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        records.push({ key: message.key?.toString() ?? null, value: message.value });
        if (BigInt(message.offset) + 1n >= ends.get(partition)!) pending.delete(partition);
        if (pending.size === 0) finish();
      },
    });
    await waitFor(() => pending.size === 0, `reading ${topic} to its end`);
    await done;
    return records;
  } finally {
    await consumer.disconnect();
  }
}

/** Every string anywhere inside a decoded value. */
const stringsIn = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsIn)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(stringsIn)
        : [];

describe('API clients', () => {
  const run = randomUUID().slice(0, 8);
  let kafka: Kafka;
  let codec: EventCodec;
  let producer: EventProducer;
  const directories: ClientDirectory[] = [];
  const created = new Set<string>();
  /** Every key and secret the command printed in this run. */
  const issued: string[] = [];
  let tenantId = '';
  let clientId = '';
  let apiKey = '';

  beforeAll(async () => {
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    // Two API instances: each keeps its own directory in a consumer group of its own.
    for (let i = 0; i < 2; i++) {
      const startedAt = Date.now();
      const directory = await ClientDirectory.start({ kafka, codec, producer, logger: testLogger });
      directories.push(directory);
      await directory.ready();
      console.info(
        `client directory ${i + 1} ready in ${Date.now() - startedAt} ms (${directory.size} clients)`,
      );
    }
  });

  afterAll(async () => {
    await Promise.all(directories.map((d) => d.stop()));
    await producer?.send(
      topicNames.clients,
      [...created].map((id) => ({ key: id, value: null })),
    );
    await producer?.disconnect();
  });

  it('creates a tenant and its first client, printing the key and secret once', async () => {
    const result = await clientsCommand(
      'create-tenant',
      '--name',
      `Clients test ${run}`,
      '--credentials',
      'both',
    );
    expect(result.code, result.stderr).toBe(0);
    tenantId = /\b(ten_[0-9a-f]{20})\b/.exec(result.stdout)?.[1] ?? '';
    clientId = /\b(cli_[0-9a-f]{20})\b/.exec(result.stdout)?.[1] ?? '';
    apiKey = /\b(nik_[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(result.stdout)?.[1] ?? '';
    const secret = /\b(nis_[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(result.stdout)?.[1] ?? '';
    expect([tenantId, clientId, apiKey, secret].every(Boolean), result.stdout).toBe(true);
    created.add(clientId);
    issued.push(apiKey, secret);
    expect(result.stdout.split(apiKey)).toHaveLength(2);
    expect(result.stdout.split(secret)).toHaveLength(2);
    expect(result.stderr).toMatch(/shown once/i);
    console.info(`create-tenant took ${result.endedAt - result.startedAt} ms`);
  });

  it('lets every directory find the client by its key, and by nothing else', async () => {
    for (const directory of directories) {
      const found = await waitFor(
        () => directory.findByApiKey(apiKey),
        'the new client in the directory',
        5_000,
      );
      expect(found).toMatchObject({ client_id: clientId, tenant_id: tenantId, plan: 'essentials' });
      expect(directory.findByClientCredentials(clientId, issued[1]!)?.client_id).toBe(clientId);
      expect(directory.findByApiKey(issued[1]!)).toBeUndefined();
      expect(directory.findByApiKey(found.api_key_prefix!)).toBeUndefined();
    }
  });

  it('adds a second client to the tenant and lists the tenant without printing hashes', async () => {
    const second = await clientsCommand(
      'create-client',
      '--tenant',
      tenantId,
      '--name',
      `Dashboards ${run}`,
      '--plan',
      'professional',
      '--scopes',
      'read:feeds,use:ai',
      '--json',
    );
    expect(second.code, second.stderr).toBe(0);
    const output = JSON.parse(second.stdout) as {
      api_key: string;
      client: { client_id: string; scopes: string[] };
    };
    created.add(output.client.client_id);
    issued.push(output.api_key);
    expect(output.client.scopes).toEqual(['read:feeds', 'use:ai']);

    const list = await clientsCommand('list', '--tenant', tenantId);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(clientId);
    expect(list.stdout).toContain(output.client.client_id);
    expect(list.stdout).toContain(apiKey.slice(0, 12));
    expect(list.stdout).not.toContain('sha256$');
    for (const secret of issued) expect(list.stdout).not.toContain(secret);
  });

  it('rotates the key: the old one stops working, the new one works', async () => {
    const result = await clientsCommand('rotate-key', clientId, '--json');
    expect(result.code, result.stderr).toBe(0);
    const rotated = (JSON.parse(result.stdout) as { api_key: string }).api_key;
    issued.push(rotated);
    expect(rotated).not.toBe(apiKey);
    for (const directory of directories) {
      await waitFor(() => !directory.findByApiKey(apiKey), 'the old key to stop working', 5_000);
      expect(directory.findByApiKey(rotated)?.client_id).toBe(clientId);
    }
    apiKey = rotated;
  });

  it('changes the plan, and the directories see the new limits', async () => {
    const result = await clientsCommand(
      'set-plan',
      clientId,
      'enterprise',
      '--calls-per-hour',
      '50000',
      '--live-connections',
      '100',
    );
    expect(result.code, result.stderr).toBe(0);
    for (const directory of directories) {
      const client = await waitFor(
        () =>
          directory.findClient(clientId)?.plan === 'enterprise' ? directory.findClient(clientId) : undefined,
        'the enterprise plan in the directory',
        5_000,
      );
      expect(effectiveLimits(client)).toEqual({
        callsPerHour: 50_000,
        liveConnections: 100,
        alertEndpoints: null,
        addedSources: null,
      });
    }
  });

  it('refuses bad requests with exit code 2 and writes nothing', async () => {
    const before = (await readTable<Client>(kafka, codec, topicNames.clients)).get(clientId)!.version;
    const noCalls = await clientsCommand('set-plan', clientId, 'professional', '--calls-per-hour', 'lots');
    const badScope = await clientsCommand('set-scopes', clientId, 'read:feeds,admin:all');
    const noClient = await clientsCommand('issue-key', 'cli_does_not_exist');
    const noTenant = await clientsCommand('create-client', '--tenant', `ten_missing_${run}`, '--name', 'x');
    const noCommand = await clientsCommand();
    for (const result of [noCalls, badScope, noClient, noTenant, noCommand]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).not.toMatch(/nik_|nis_/);
    }
    expect((await readTable<Client>(kafka, codec, topicNames.clients)).get(clientId)!.version).toBe(before);
  });

  it('stores no key or secret in clear anywhere in the topic, only sha256 hashes', async () => {
    const raw = await readRaw(kafka, topicNames.clients);
    const ours = raw.filter((r) => r.key !== null && created.has(r.key));
    expect(ours.length).toBeGreaterThanOrEqual(4);
    // The random part of each credential, in the encodings a careless writer might use.
    const needles = issued.flatMap((c) => {
      const random = c.slice(4);
      return [
        c,
        random,
        Buffer.from(random, 'base64url').toString('hex'),
        Buffer.from(random, 'base64url').toString('base64'),
      ];
    });
    for (const record of raw) {
      for (const needle of needles) expect(record.value?.includes(needle) ?? false).toBe(false);
    }
    const table = await readTable<Client>(kafka, codec, topicNames.clients);
    for (const id of created) {
      const client = table.get(id)!;
      const strings = stringsIn(client);
      for (const needle of needles) expect(strings.some((s) => s.includes(needle))).toBe(false);
      for (const hash of [client.api_key_hash, client.client_secret_hash]) {
        if (hash !== null) expect(isStoredHash(hash)).toBe(true);
      }
    }
    expect(table.get(clientId)!.api_key_hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(table.get(clientId)!.client_secret_hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
  });

  it('revokes: every directory stops accepting the key within 5 seconds', async () => {
    const seenAt = directories.map(() => 0);
    const unsubscribe = directories.map((directory, i) =>
      directory.onChange((change) => {
        if (change.clientId === clientId && change.client === null) seenAt[i] = Date.now();
      }),
    );
    const result = await clientsCommand('revoke', clientId);
    expect(result.code, result.stderr).toBe(0);
    for (const directory of directories) {
      await waitFor(() => !directory.findByApiKey(apiKey), 'the revoked key to stop working', 5_000);
      expect(directory.findClient(clientId)).toBeUndefined();
      expect(directory.findByClientCredentials(clientId, issued[1]!)).toBeUndefined();
    }
    unsubscribe.forEach((off) => off());
    const revoked = (await readTable<Client>(kafka, codec, topicNames.clients)).get(clientId)!;
    expect(revoked).toMatchObject({ revoked: true, api_key_hash: null, client_secret_hash: null });
    const fromAppend = seenAt.map((t) => t - revoked.occurred_at);
    const fromCommandStart = seenAt.map((t) => t - result.startedAt);
    console.info(
      `revocation visible ${fromAppend.join(' / ')} ms after the revoked state was appended, ` +
        `${fromCommandStart.join(' / ')} ms after the command started (command took ${result.endedAt - result.startedAt} ms)`,
    );
    for (const ms of fromAppend) expect(ms).toBeLessThan(5_000);
    for (const t of seenAt) expect(t - result.endedAt).toBeLessThan(5_000);
  });
});
