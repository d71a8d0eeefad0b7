import { describe, expect, it } from 'vitest';
import { audioKey } from '../audio/audio-key.ts';
import { audioUrls } from '../audio/audio-urls.ts';
import { parseAudioUrlKeys, verifyAudioUrl } from '../audio/signed-url.ts';
import type { Documentary, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError, PoisonMessageError } from '../runtime/kafka/errors.ts';
import type { OutgoingEvent } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { documentaryFailedPayload, documentaryReadyPayload } from '../webhooks/payloads.ts';
import { webhookWith } from '../../test/support/webhook-records.ts';
import {
  documentaryDeliveryJobs,
  documentaryFanOutHandler,
  documentaryPayload,
  type DocumentaryFanOutDeps,
} from './documentary-fan-out.ts';
import { deliveryId } from './fan-out.ts';
import { WebhookDirectory } from './webhook-directory.ts';

const logger = createLogger('test', 'silent');
const now = new Date(Date.UTC(2026, 0, 5, 9, 31, 0));
const keys = parseAudioUrlKeys('');
const ttlSeconds = 7 * 86_400;
const audio = audioUrls({ baseUrl: () => 'https://api.example', keys, ttlSeconds, now: () => now });
const mp3 = audioKey('mp3', ['documentary', 'doc_1']);
const vtt = audioKey('vtt', ['documentary', 'doc_1']);
const json = audioKey('json', ['documentary', 'doc_1']);

function documentaryWith(overrides: Partial<Documentary> = {}): Documentary {
  return {
    documentary_id: 'doc_1',
    tenant_id: 'ten_1',
    topic: 'Electric cars in Europe',
    sources: ['news'],
    format: 'audio+transcript',
    status: 'ready',
    progress: 1,
    stage: null,
    audio_url: `https://api.example/v1/audio/${mp3}`,
    transcript_url: `https://api.example/v1/audio/${vtt}`,
    duration_ms: 301_250,
    failure_reason: null,
    requested_at: Date.UTC(2026, 0, 5, 9, 0, 0),
    period_from: null,
    period_to: null,
    date_range: null,
    language: null,
    voice: null,
    script_writer: null,
    length: null,
    max_articles: null,
    articles: [],
    segments: [],
    audio_key: mp3,
    transcript_key: vtt,
    transcript_json_key: null,
    failure_code: null,
    occurred_at: Date.UTC(2026, 0, 5, 9, 30, 0, 123),
    ...overrides,
  };
}

/** The signed URL's key, checked against the keys it must verify with. */
function verifiedKey(url: string): string {
  const parsed = new URL(url);
  expect(parsed.origin).toBe('https://api.example');
  const key = parsed.pathname.replace('/v1/audio/', '');
  const verdict = verifyAudioUrl(
    {
      key,
      expires: parsed.searchParams.get('expires') ?? undefined,
      signature: parsed.searchParams.get('signature') ?? undefined,
    },
    now,
    keys,
  );
  expect(verdict.ok).toBe(true);
  if (verdict.ok) expect(verdict.expires * 1000).toBeGreaterThanOrEqual(now.getTime() + ttlSeconds * 1000);
  return key;
}

describe('documentaryPayload', () => {
  it('is the documented body, with signed audio and transcript URLs of the stored keys', () => {
    const documentary = documentaryWith({
      transcript_json_key: json,
      language: 'pt-BR',
      voice: 'pt-BR-espeak',
    });
    const body = documentaryReadyPayload.parse(JSON.parse(documentaryPayload(documentary, audio)));
    expect(body).toMatchObject({
      event: 'documentary.ready',
      timestamp: '2026-01-05T09:30:00.123Z',
      data: {
        documentary_id: 'doc_1',
        topic: 'Electric cars in Europe',
        duration_ms: 301_250,
        language: 'pt-BR',
        voice: 'pt-BR-espeak',
      },
    });
    expect(verifiedKey(body.data.audio_url)).toBe(mp3);
    expect(verifiedKey(body.data.transcript_url!)).toBe(vtt);
    expect(verifiedKey(body.data.transcript_json_url!)).toBe(json);
  });

  it('names English when the request named no language', () => {
    const body = documentaryReadyPayload.parse(JSON.parse(documentaryPayload(documentaryWith(), audio)));
    expect(body.data.language).toBe('en');
  });

  it('has null transcript URLs when there is no transcript', () => {
    const documentary = documentaryWith({ transcript_key: null, transcript_url: null, format: 'audio' });
    const body = documentaryReadyPayload.parse(JSON.parse(documentaryPayload(documentary, audio)));
    expect(body.data.transcript_url).toBeNull();
    expect(body.data.transcript_json_url).toBeNull();
    expect(verifiedKey(body.data.audio_url)).toBe(mp3);
  });
});

describe('documentaryDeliveryJobs', () => {
  it('makes one pending first attempt per webhook, its id derived from documentary and webhook', () => {
    const documentary = documentaryWith();
    const jobs = documentaryDeliveryJobs(
      documentary,
      [webhookWith({ webhook_id: 'wh_a' }), webhookWith({ webhook_id: 'wh_b' })],
      now,
      audio,
    );
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toMatchObject({
      delivery_id: deliveryId('documentary.ready', 'doc_1', 'wh_a'),
      webhook_id: 'wh_a',
      tenant_id: 'ten_1',
      event_type: 'documentary.ready',
      event_id: 'doc_1',
      payload_json: documentaryPayload(documentary, audio),
      attempt: 1,
      due_at: now.getTime(),
      status: 'pending',
    });
    expect(jobs[1]!.delivery_id).toBe(deliveryId('documentary.ready', 'doc_1', 'wh_b'));
    expect(jobs[1]!.delivery_id).not.toBe(jobs[0]!.delivery_id);
  });
});

describe('documentaryFanOutHandler', () => {
  function setUp(readModel: Pick<DocumentaryFanOutDeps, 'shownReady' | 'readModelWaitMs'> = {}) {
    const directory = new WebhookDirectory(new Map(), logger);
    let offset = 0;
    const put = (...webhooks: ReturnType<typeof webhookWith>[]) => {
      for (const w of webhooks)
        directory.apply({ partition: 0, offset: String(offset++), key: w.webhook_id, value: w });
    };
    const sent: { topic: string; events: readonly OutgoingEvent<unknown>[] }[] = [];
    const calls: string[] = [];
    const handler = documentaryFanOutHandler({
      directory: {
        catchUp: async () => {
          calls.push('catchUp');
          return true;
        },
        subscribers: (...args) => directory.subscribers(...args),
      },
      producer: {
        send: async (topic, events) => {
          calls.push('send');
          sent.push({ topic, events });
        },
      },
      logger,
      audio,
      clock: () => now,
      readModelStepMs: 5,
      ...readModel,
    });
    const jobsSent = () =>
      sent.flatMap((s) => s.events.map((e) => ({ key: e.key, job: e.value as WebhookDelivery })));
    return { put, handler, sent, calls, jobsSent };
  }

  let offsets = 0;
  const event = (documentary: Documentary | null): ConsumedEvent<Documentary> => ({
    topic: 'news.documentaries.v1',
    partition: 0,
    offset: String(offsets++),
    key: documentary?.documentary_id ?? 'doc_x',
    value: documentary,
    headers: {},
    timestamp: '0',
  });
  const heartbeat = async () => undefined;
  const readyFor = 'documentary.ready';

  it("appends one job per webhook of the documentary's tenant subscribed to documentary.ready", async () => {
    const { put, handler, sent, calls, jobsSent } = setUp();
    put(
      webhookWith({ webhook_id: 'wh_ready', events: [readyFor] }),
      webhookWith({ webhook_id: 'wh_alerts_only', events: ['news.alert'] }),
      webhookWith({ webhook_id: 'wh_inactive', events: [readyFor], active: false }),
      webhookWith({ webhook_id: 'wh_other_tenant', tenant_id: 'ten_2', events: [readyFor] }),
    );
    await handler([event(documentaryWith())], { heartbeat });
    expect(calls).toEqual(['catchUp', 'send']);
    expect(sent[0]!.topic).toBe('news.webhook-deliveries.v1');
    expect(jobsSent().map(({ key, job }) => [key, job.event_type, job.event_id])).toEqual([
      ['wh_ready', 'documentary.ready', 'doc_1'],
    ]);
  });

  it('sends nothing for requested, progressed or unknown events, nor for tombstones, nor a failure to a webhook wanting ready alone', async () => {
    const { put, handler, calls } = setUp();
    put(webhookWith({ webhook_id: 'wh_ready', events: [readyFor] }));
    const notReady = { audio_key: null, transcript_key: null, duration_ms: null, audio_url: null };
    await handler(
      [
        event(documentaryWith({ ...notReady, status: 'requested', progress: null })),
        event(documentaryWith({ ...notReady, status: 'progressed', stage: 'narrating', progress: 0.6 })),
        event(documentaryWith({ ...notReady, status: 'failed', failure_code: 'no_articles' })),
        event(documentaryWith({ status: 'unknown' })),
        event(null),
      ],
      { heartbeat },
    );
    expect(calls).not.toContain('send');
  });

  it('sends documentary.failed, with the failure, to the webhooks subscribed to it, without waiting for the read model', async () => {
    let asked = 0;
    const { put, handler, jobsSent } = setUp({
      shownReady: async () => {
        asked++;
        return new Set();
      },
      readModelWaitMs: 10_000,
    });
    put(
      webhookWith({ webhook_id: 'wh_failed', events: ['documentary.failed'] }),
      webhookWith({ webhook_id: 'wh_ready', events: [readyFor] }),
    );
    const failure = {
      status: 'failed' as const,
      audio_key: null,
      transcript_key: null,
      duration_ms: null,
      audio_url: null,
      failure_code: 'no_articles',
      failure_reason: 'no article on "Electric cars in Europe" was published from 2026-01-01 to 2026-01-04',
    };
    await handler([event(documentaryWith(failure))], { heartbeat });
    expect(asked).toBe(0);
    const sentJobs = jobsSent();
    expect(sentJobs.map(({ key, job }) => [key, job.event_type, job.event_id])).toEqual([
      ['wh_failed', 'documentary.failed', 'doc_1'],
    ]);
    const { job } = sentJobs[0]!;
    expect(job.delivery_id).toBe(deliveryId('documentary.failed', 'doc_1', 'wh_failed'));
    const body = documentaryFailedPayload.parse(JSON.parse(job.payload_json));
    expect(body).toEqual({
      event: 'documentary.failed',
      timestamp: '2026-01-05T09:30:00.123Z',
      data: {
        documentary_id: 'doc_1',
        topic: 'Electric cars in Europe',
        failure: { code: 'no_articles', reason: failure.failure_reason },
      },
    });
  });

  it('fans out only the ready events of a mixed batch, each to its own tenant', async () => {
    const { put, handler, jobsSent } = setUp();
    put(
      webhookWith({ webhook_id: 'wh_1', events: [readyFor] }),
      webhookWith({ webhook_id: 'wh_2', tenant_id: 'ten_2', events: [readyFor, 'news.alert'] }),
    );
    await handler(
      [
        event(documentaryWith({ status: 'progressed', stage: 'assembling' })),
        event(documentaryWith()),
        event(documentaryWith({ documentary_id: 'doc_2', tenant_id: 'ten_2' })),
      ],
      { heartbeat },
    );
    expect(jobsSent().map(({ key, job }) => [key, job.event_id])).toEqual([
      ['wh_1', 'doc_1'],
      ['wh_2', 'doc_2'],
    ]);
  });

  it('appends the same delivery ids when the same ready event is handled again', async () => {
    const { put, handler, sent } = setUp();
    put(webhookWith({ webhook_id: 'wh_a', events: [readyFor] }));
    await handler([event(documentaryWith())], { heartbeat });
    await handler([event(documentaryWith())], { heartbeat });
    const idsOf = (i: number) => sent[i]!.events.map((e) => (e.value as WebhookDelivery).delivery_id);
    expect(idsOf(0)).toHaveLength(1);
    expect(idsOf(1)).toEqual(idsOf(0));
  });

  it('refuses a ready event without audio as poison, before appending anything', async () => {
    const { put, handler, calls } = setUp();
    put(webhookWith({ webhook_id: 'wh_a', events: [readyFor] }));
    await expect(
      handler(
        [event(documentaryWith({ documentary_id: 'doc_ok' })), event(documentaryWith({ audio_key: null }))],
        {
          heartbeat,
        },
      ),
    ).rejects.toBeInstanceOf(PoisonMessageError);
    await expect(handler([event(documentaryWith({ duration_ms: null }))], { heartbeat })).rejects.toThrow(
      /duration_ms/,
    );
    expect(calls).toEqual([]);
  });

  it('appends the jobs only once the read model shows the documentary ready, so a GET at once sees it', async () => {
    const asked: string[][] = [];
    let answers = 0;
    const { put, handler, calls, jobsSent } = setUp({
      shownReady: async (ids) => {
        asked.push(ids);
        calls.push('read model');
        // Behind twice (the second time failing), then caught up.
        if (++answers === 2) throw new Error('ClickHouse: connection refused');
        return new Set(answers >= 3 ? ids : []);
      },
    });
    put(webhookWith({ webhook_id: 'wh_ready', events: [readyFor] }));
    await handler([event(documentaryWith()), event(documentaryWith())], { heartbeat });
    expect(calls).toEqual(['catchUp', 'read model', 'read model', 'read model', 'send']);
    expect(asked).toEqual([['doc_1'], ['doc_1'], ['doc_1']]);
    expect(jobsSent().map(({ job }) => job.event_id)).toEqual(['doc_1', 'doc_1']);
  });

  it('does not ask the read model when no webhook wants the event', async () => {
    const { handler, calls } = setUp({ shownReady: async () => new Set() });
    await handler([event(documentaryWith())], { heartbeat });
    expect(calls).toEqual(['catchUp']);
  });

  it('sends after readModelWaitMs all the same when the read model never shows it, and says so', async () => {
    const warnings: unknown[] = [];
    const { put, handler, jobsSent } = setUp({
      shownReady: async () => new Set(),
      readModelWaitMs: 60,
    });
    put(webhookWith({ webhook_id: 'wh_ready', events: [readyFor] }));
    const warn = logger.warn.bind(logger);
    logger.warn = (...args: unknown[]) => void warnings.push(args[0]);
    const started = Date.now();
    try {
      await handler([event(documentaryWith())], { heartbeat });
    } finally {
      logger.warn = warn;
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(jobsSent().map(({ job }) => job.event_id)).toEqual(['doc_1']);
    expect(warnings).toEqual([{ documentaryIds: ['doc_1'], waitedMs: 60 }]);
  });

  it('makes the runner wait, not dead-letter the documentaries, while Kafka refuses the jobs', async () => {
    const handler = documentaryFanOutHandler({
      directory: { catchUp: async () => true, subscribers: () => [webhookWith({ events: [readyFor] })] },
      producer: {
        send: async () => {
          throw new Error('There is no leader for this topic-partition');
        },
      },
      logger,
      audio,
      clock: () => now,
    });
    await expect(handler([event(documentaryWith())], { heartbeat })).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });
});
