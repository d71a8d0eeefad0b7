// documentary.ready end to end on the real stack: webhooks registered through the API for two tenants, a
// documentary's lifecycle events appended to news.documentaries.v1 directly (as the documentarian does),
// the dispatcher as a real process, and a local receiver playing each customer's endpoint. The audio and
// WebVTT files sit in the API's audio store, so the signed URLs in the payload are fetched as a podcast
// player would, without a key.
//
// "Nothing was sent" is never asserted after a sleep: each such check comes after a later delivery to the
// same webhook, which its jobs' partition (keyed by webhook id) would have carried first.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Admin } from 'kafkajs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioKey } from '../../services/audio/audio-key.ts';
import { LocalAudioStore } from '../../services/audio/local-store.ts';
import { deliveryId } from '../../services/dispatcher/fan-out.ts';
import type { Documentary } from '../../services/runtime/events/types.generated.ts';
import { consumerGroup, topicNames } from '../../services/runtime/kafka/topics.ts';
import { documentaryFailedPayload, documentaryReadyPayload } from '../../services/webhooks/payloads.ts';
import type { components } from '../api-client/schema.d.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import {
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from './support/webhook-receiver.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];

const execFileAsync = promisify(execFile);

/** One second of a tone as MP3, made by ffmpeg as the documentarian's encoder would. */
async function toneMp3(): Promise<Buffer> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=1'],
      ...['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', 'pipe:1'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  return stdout;
}

const vttText = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nElectric cars are selling faster than ever.\n';

describe('documentary.ready webhooks', () => {
  let stack: ApiStack;
  let run: string;
  let admin: Admin;
  let receiver: WebhookReceiver;
  let dispatcher: ServiceProcess;
  let audioDir: string;
  let group: string;
  let hookA: WebhookCreated;
  let hookB: WebhookCreated;
  let mp3: Buffer;
  let mp3Key: string;
  let vttKey: string;

  /** A lifecycle event of documentary `id`, in the shape the documentarian writes. */
  const lifecycle = (
    id: string,
    tenantId: string,
    status: Documentary['status'],
    overrides: Partial<Documentary> = {},
  ): Documentary => ({
    documentary_id: id,
    tenant_id: tenantId,
    topic: `Electric cars ${run}`,
    sources: ['news'],
    format: 'audio+transcript',
    status,
    progress: status === 'requested' ? null : status === 'ready' ? 1 : 0.5,
    stage: status === 'progressed' ? 'narrating' : null,
    audio_url: null,
    transcript_url: null,
    duration_ms: null,
    failure_reason: null,
    requested_at: Date.now() - 60_000,
    period_from: Date.now() - 7 * 86_400_000,
    period_to: Date.now() - 60_000,
    date_range: '7d',
    language: null,
    voice: null,
    script_writer: null,
    length: 'short',
    max_articles: null,
    articles: [],
    segments: [],
    audio_key: null,
    transcript_key: null,
    transcript_json_key: null,
    failure_code: null,
    occurred_at: Date.now(),
    ...overrides,
  });

  const ready = (id: string, tenantId: string) =>
    lifecycle(id, tenantId, 'ready', {
      audio_key: mp3Key,
      transcript_key: vttKey,
      audio_url: `${stack.api.url}/v1/audio/${mp3Key}`,
      transcript_url: `${stack.api.url}/v1/audio/${vttKey}`,
      duration_ms: 1_000,
    });

  const append = (...events: Documentary[]) =>
    stack.producer.send(
      topicNames.documentaries,
      events.map((value) => ({ key: value.documentary_id, value })),
    );

  /** Waits until the dispatcher's documentaries group has committed everything appended so far. */
  const handledSoFar = async () => {
    const ends = await admin.fetchTopicOffsets(topicNames.documentaries);
    await watching(
      waitFor(
        async () => {
          const [committed] = await admin.fetchOffsets({
            groupId: consumerGroup(`${group}.documentaries`),
            topics: [topicNames.documentaries],
          });
          return ends.every(({ partition, high }) => {
            const at = committed?.partitions.find((p) => p.partition === partition)?.offset ?? '-1';
            return BigInt(at) >= BigInt(high);
          });
        },
        'the dispatcher to handle the documentaries appended so far',
        60_000,
      ),
    );
  };

  const watching = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      throw new Error(`${(error as Error).message}\ndispatcher output:\n${dispatcher?.output() ?? '(none)'}`);
    }
  };

  const receivedAt = (hookPath: string, count: number) =>
    watching(
      waitFor(
        () => (receiver.requests(hookPath).length >= count ? receiver.requests(hookPath) : null),
        `${count} deliveries at ${hookPath}`,
        60_000,
        20,
      ),
    );

  /** The verified body (the reference Standard Webhooks verifier), checked against the documented schema. */
  const verified = (request: ReceivedRequest, secret: string) =>
    documentaryReadyPayload.parse(new StandardWebhook(secret).verify(request.body, request.headers));

  beforeAll(async () => {
    audioDir = await mkdtemp(path.join(tmpdir(), 'documentary-webhook-'));
    stack = await startApiStack('docready', { AUDIO_DIR: audioDir });
    run = stack.run;
    admin = stack.kafka.admin();
    await admin.connect();
    receiver = await startWebhookReceiver();

    // The documentary's files, where the API serves them from.
    mp3 = await toneMp3();
    mp3Key = audioKey('mp3', ['documentary-webhook-test', run]);
    vttKey = audioKey('vtt', ['documentary-webhook-test', run]);
    const store = new LocalAudioStore(audioDir);
    await store.put(mp3Key, mp3, { contentType: 'audio/mpeg', durationMs: 1_000 });
    await store.put(vttKey, Buffer.from(vttText), {
      contentType: 'text/vtt; charset=utf-8',
      durationMs: null,
    });

    group = `test-docready-dispatcher-${run}`;
    dispatcher = startServiceProcess('dispatcher', {
      DISPATCHER_GROUP: group,
      DISPATCHER_FROM_BEGINNING: 'false',
      CLICKHOUSE_DATABASE: stack.database,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      API_PUBLIC_URL: stack.api.url,
      LOG_LEVEL: 'info',
    });
    await watching(
      waitFor(() => dispatcher.output().includes('dispatcher started'), 'the dispatcher to start', 90_000),
    );

    const register = async (hookPath: string, apiKey: string) => {
      const created = await stack.call<WebhookCreated>(
        'POST',
        '/api/v1/webhooks',
        { url: receiver.url(hookPath), events: ['documentary.ready'] },
        { apiKey },
      );
      expect(created.status, created.text).toBe(201);
      return created.body;
    };
    hookA = await register('/a', stack.client.apiKey);
    hookB = await register('/b', stack.otherClient.apiKey);
  }, 180_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await admin?.disconnect();
    await receiver?.close();
    await stack?.close();
    if (audioDir) await rm(audioDir, { recursive: true, force: true });
  }, 60_000);

  it("sends one signed documentary.ready to the tenant's webhook when its documentary is ready, and none for a failed one", async () => {
    const tenantA = stack.client.tenantId;
    // A documentary that fails: requested, progressed, failed. Handled completely before the other one
    // starts, so a job it made would be queued for webhook A ahead of the ready one's.
    const failedId = `doc_failed_${run}`;
    await append(
      lifecycle(failedId, tenantA, 'requested'),
      lifecycle(failedId, tenantA, 'progressed', { stage: 'gathering' }),
      lifecycle(failedId, tenantA, 'failed', {
        failure_code: 'no_articles',
        failure_reason: 'nothing on the topic in the period',
      }),
    );
    await handledSoFar();

    const id = `doc_${run}`;
    const readyEvent = ready(id, tenantA);
    await append(
      lifecycle(id, tenantA, 'requested'),
      lifecycle(id, tenantA, 'progressed', { stage: 'scripting', progress: 0.4 }),
      readyEvent,
    );
    const [delivery] = await receivedAt('/a', 1);
    expect(receiver.requests('/a')).toHaveLength(1);
    expect(delivery!.headers['webhook-id']).toBe(deliveryId('documentary.ready', id, hookA.webhook.id));
    // Sent once the read model showed it ready (not after the dispatcher gave up waiting): a receiver
    // that asks at once sees what the webhook said.
    const shown = await stack.call<{ status: string }>('GET', `/api/v1/documentaries/${id}`);
    expect(shown.body.status, shown.text).toBe('ready');
    expect(dispatcher.output()).not.toContain('before the read model showed');

    const body = verified(delivery!, hookA.secret);
    expect(body).toMatchObject({
      event: 'documentary.ready',
      timestamp: new Date(readyEvent.occurred_at).toISOString(),
      data: { documentary_id: id, topic: `Electric cars ${run}`, duration_ms: 1_000 },
    });
    // An altered body does not verify.
    expect(() =>
      new StandardWebhook(hookA.secret).verify(delivery!.body.replace(id, `${id}x`), delivery!.headers),
    ).toThrow();

    // Signed URLs of the stored files, for this API; they play without a key, the unsigned ones do not.
    const signed = /^\?expires=\d+&signature=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
    const audioUrl = new URL(body.data.audio_url);
    expect(`${audioUrl.origin}${audioUrl.pathname}`).toBe(`${stack.api.url}/v1/audio/${mp3Key}`);
    expect(audioUrl.search).toMatch(signed);
    const transcriptUrl = new URL(body.data.transcript_url!);
    expect(`${transcriptUrl.origin}${transcriptUrl.pathname}`).toBe(`${stack.api.url}/v1/audio/${vttKey}`);
    expect(transcriptUrl.search).toMatch(signed);

    const audio = await fetch(audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await audio.arrayBuffer()).equals(mp3)).toBe(true);
    const transcript = await fetch(transcriptUrl);
    expect(transcript.status).toBe(200);
    expect(await transcript.text()).toBe(vttText);
    expect((await fetch(`${stack.api.url}/v1/audio/${mp3Key}`)).status).toBe(403);

    // What is stored of the delivery (the topic's job, the analysts' table) holds only the unsigned
    // addresses: each attempt signs them, and no stored copy opens the tenant's audio.
    const stored = await waitFor(async () => {
      const rows = await stack.clickhouse.query<{ payload_json: string }>(
        `SELECT DISTINCT payload_json FROM webhook_deliveries WHERE delivery_id = '${delivery!.headers['webhook-id']}'`,
      );
      return rows.length > 0 ? rows : null;
    }, 'the delivery in the read model');
    expect(stored).toHaveLength(1);
    const kept = JSON.parse(stored[0]!.payload_json) as typeof body;
    expect(kept.data.audio_url).toBe(`${stack.api.url}/v1/audio/${mp3Key}`);
    expect(kept.data.transcript_url).toBe(`${stack.api.url}/v1/audio/${vttKey}`);
    expect(stored[0]!.payload_json).not.toContain('signature=');
    expect({
      ...kept,
      data: { ...kept.data, audio_url: '', transcript_url: '', transcript_json_url: '' },
    }).toEqual({
      ...body,
      data: { ...body.data, audio_url: '', transcript_url: '', transcript_json_url: '' },
    });
  }, 120_000);

  it('delivers a replayed ready event again under the same webhook-id (the dispatcher does not dedupe; receivers do)', async () => {
    const id = `doc_${run}`;
    const [first] = receiver.requests('/a');
    expect(first, 'the first case delivered').toBeDefined();
    await append(ready(id, stack.client.tenantId));
    const requests = await receivedAt('/a', 2);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verified(requests[1]!, hookA.secret).data.documentary_id).toBe(id);
  }, 120_000);

  it("sends nothing to another tenant's webhook: it gets only its own tenant's documentary", async () => {
    const id = `doc_b_${run}`;
    await append(ready(id, stack.otherClient.tenantId));
    const requests = await receivedAt('/b', 1);
    // A job for tenant A's documentary would have been queued for webhook B before this one.
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['webhook-id']).toBe(deliveryId('documentary.ready', id, hookB.webhook.id));
    expect(verified(requests[0]!, hookB.secret).data.documentary_id).toBe(id);
    await handledSoFar();
    expect(receiver.requests('/a')).toHaveLength(2);
  }, 120_000);

  it('sends documentary.failed, with its failure, to a webhook subscribed to it', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/a-failed'),
      events: ['documentary.failed'],
    });
    expect(created.status, created.text).toBe(201);
    const tenantA = stack.client.tenantId;
    const id = `doc_failing_${run}`;
    await append(
      lifecycle(id, tenantA, 'requested'),
      lifecycle(id, tenantA, 'failed', {
        failure_code: 'no_articles',
        failure_reason: 'nothing on the topic in the period',
      }),
    );
    const [delivery] = await receivedAt('/a-failed', 1);
    expect(delivery!.headers['webhook-id']).toBe(
      deliveryId('documentary.failed', id, created.body.webhook.id),
    );
    const body = documentaryFailedPayload.parse(
      new StandardWebhook(created.body.secret).verify(delivery!.body, delivery!.headers),
    );
    expect(body.data).toEqual({
      documentary_id: id,
      topic: `Electric cars ${run}`,
      failure: { code: 'no_articles', reason: 'nothing on the topic in the period' },
    });
    // The webhook that wants documentary.ready alone heard nothing of it.
    await handledSoFar();
    expect(receiver.requests('/a')).toHaveLength(2);
  }, 120_000);
});
