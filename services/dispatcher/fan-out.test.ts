import { describe, expect, it } from 'vitest';
import { audioKey } from '../audio/audio-key.ts';
import { audioUrls } from '../audio/audio-urls.ts';
import { parseAudioUrlKeys, verifyAudioUrl } from '../audio/signed-url.ts';
import type { Alert } from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { OutgoingEvent } from '../runtime/kafka/producer.ts';
import { createLogger } from '../runtime/logger.ts';
import { signatureHeaders } from '../webhooks/signing.ts';
import { alertDeliveryJobs, alertPayload, deliveryId, fanOutHandler } from './fan-out.ts';
import { alertWith, webhookWith } from '../../test/support/webhook-records.ts';
import { WebhookDirectory } from './webhook-directory.ts';

const logger = createLogger('test', 'silent');
const now = new Date(Date.UTC(2026, 0, 5, 9, 31, 0));

describe('deliveryId', () => {
  it('is the same for the same alert and webhook, different otherwise', () => {
    const id = deliveryId('news.alert', 'al_1', 'wh_1');
    expect(deliveryId('news.alert', 'al_1', 'wh_1')).toBe(id);
    expect(deliveryId('news.alert', 'al_1', 'wh_2')).not.toBe(id);
    expect(deliveryId('news.alert', 'al_2', 'wh_1')).not.toBe(id);
    expect(deliveryId('documentary.ready', 'al_1', 'wh_1')).not.toBe(id);
  });

  it('is a valid Standard Webhooks id', () => {
    const id = deliveryId('news.alert', 'al_1', 'wh_1');
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(() =>
      signatureHeaders({ id, timestamp: now, body: '{}' }, `whsec_${'A'.repeat(32)}`),
    ).not.toThrow();
  });
});

describe('alertPayload', () => {
  it('is the interface payload, with the helper keys after the four interface fields', () => {
    const text = alertPayload(alertWith({ audio_url: 'https://api.example/audio/art_1.mp3' }));
    expect(text).toBe(
      JSON.stringify({
        event: 'news.alert',
        timestamp: '2026-01-05T09:30:00.123Z',
        data: {
          contact_id: 'crm-42',
          company: 'Acme Widgets',
          news_summary: 'Acme Widgets said on Monday it would open a plant.',
          audio_url: 'https://api.example/audio/art_1.mp3',
          alert_id: 'al_1',
          monitor_id: 'mon_1',
          article_id: 'art_1',
          article_title: 'Acme Widgets opens a plant',
          article_url: 'https://news.example/acme',
          article_published_at: '2026-01-05T08:00:00Z',
          article_source: 'Harbour Gazette',
          article_publisher: null,
          matched_terms: ['Acme Widgets'],
        },
      }),
    );
  });

  it('keeps audio_url as null when the article has no narration', () => {
    const payload = JSON.parse(alertPayload(alertWith({ audio_url: null }))) as {
      data: Record<string, unknown>;
    };
    expect(payload.data).toHaveProperty('audio_url', null);
  });
});

describe('alertPayload audio_url, with signing keys (as the dispatcher always has them)', () => {
  const keys = parseAudioUrlKeys(`w1:${Buffer.alloc(32, 3).toString('base64url')}`);
  const audio = audioUrls({
    baseUrl: () => 'https://api.example',
    keys,
    ttlSeconds: 7 * 86_400,
    now: () => now,
  });
  const audioUrlOf = (alert: Alert) =>
    (JSON.parse(alertPayload(alert, audio)) as { data: { audio_url: string } }).data.audio_url;
  const signed = (url: string) => {
    const parsed = new URL(url);
    return { expires: parsed.searchParams.get('expires')!, signature: parsed.searchParams.get('signature')! };
  };

  it("is the signed URL of the narration's file when the alert carries its key", () => {
    const key = audioKey('mp3', ['alert', 'art_1']);
    const url = audioUrlOf(alertWith({ audio_key: key, audio_url: `https://api.example/v1/audio/${key}` }));
    expect(url.startsWith(`https://api.example/v1/audio/${key}?`)).toBe(true);
    expect(verifyAudioUrl({ key, ...signed(url) }, now, keys).ok).toBe(true);
  });

  it("is the signed URL of the article's narration, never null, when the narration was not ready", () => {
    for (const alert of [
      alertWith({ audio_key: null, audio_url: null }),
      // an alert written before narrations had keys: its unsigned address would only be refused
      alertWith({ audio_key: null, audio_url: 'https://api.example/v1/audio/old.mp3' }),
    ]) {
      const url = audioUrlOf(alert);
      expect(url.startsWith('https://api.example/v1/articles/art_1/audio?')).toBe(true);
      expect(verifyAudioUrl({ articleId: 'art_1', ...signed(url) }, now, keys).ok).toBe(true);
      // signed for the webhook TTL, like a file's URL, so every retry sends a URL that still works
      expect(Number(signed(url).expires) * 1000 - now.getTime()).toBeGreaterThanOrEqual(7 * 86_400_000);
    }
  });
});

describe('alertDeliveryJobs', () => {
  it('makes one pending first attempt per webhook, due now, with the exact payload', () => {
    const alert = alertWith();
    const jobs = alertDeliveryJobs(
      alert,
      [webhookWith({ webhook_id: 'wh_a' }), webhookWith({ webhook_id: 'wh_b' })],
      now,
    );
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toEqual({
      delivery_id: deliveryId('news.alert', 'al_1', 'wh_a'),
      webhook_id: 'wh_a',
      tenant_id: 'ten_1',
      event_type: 'news.alert',
      event_id: 'al_1',
      payload_json: alertPayload(alert),
      attempt: 1,
      due_at: now.getTime(),
      status: 'pending',
      last_http_status: null,
      last_error: null,
      occurred_at: now.getTime(),
    });
    expect(jobs[1]!.delivery_id).toBe(deliveryId('news.alert', 'al_1', 'wh_b'));
  });
});

describe('fanOutHandler', () => {
  function setUp() {
    const directory = new WebhookDirectory(new Map(), logger);
    let offset = 0;
    const put = (...webhooks: ReturnType<typeof webhookWith>[]) => {
      for (const w of webhooks)
        directory.apply({ partition: 0, offset: String(offset++), key: w.webhook_id, value: w });
    };
    const sent: { topic: string; events: readonly OutgoingEvent<unknown>[] }[] = [];
    const calls: string[] = [];
    const handler = fanOutHandler({
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
      clock: () => now,
    });
    return { put, handler, sent, calls };
  }

  const event = (alert: Alert | null, offset = 0): ConsumedEvent<Alert> => ({
    topic: 'news.alerts.v1',
    partition: 0,
    offset: String(offset),
    key: alert?.alert_id ?? 'x',
    value: alert,
    headers: {},
    timestamp: '0',
  });
  const heartbeat = async () => undefined;

  it('appends one job per subscriber, keyed by webhook id, after catching up with the webhooks', async () => {
    const { put, handler, sent, calls } = setUp();
    const filter = { categories: [], source_ids: [], languages: [], words: [], monitor_ids: ['mon_2'] };
    put(
      webhookWith({ webhook_id: 'wh_a' }),
      webhookWith({ webhook_id: 'wh_other_tenant', tenant_id: 'ten_2' }),
      webhookWith({ webhook_id: 'wh_mon2', filter }),
    );
    await handler(
      [
        event(alertWith({ alert_id: 'al_1', monitor_id: 'mon_1' })),
        event(alertWith({ alert_id: 'al_2', monitor_id: 'mon_2' }), 1),
        event(null, 2),
      ],
      { heartbeat },
    );
    expect(calls).toEqual(['catchUp', 'send']);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.topic).toBe('news.webhook-deliveries.v1');
    const appended = sent[0]!.events.map((e) => [e.key, (e.value as { event_id: string }).event_id]);
    expect(appended).toEqual([
      ['wh_a', 'al_1'],
      ['wh_a', 'al_2'],
      ['wh_mon2', 'al_2'],
    ]);
  });

  it('makes the runner wait, not dead-letter the alerts, while Kafka refuses the jobs', async () => {
    const handler = fanOutHandler({
      directory: { catchUp: async () => true, subscribers: () => [webhookWith()] },
      producer: {
        send: async () => {
          throw new Error('There is no leader for this topic-partition');
        },
      },
      logger,
      clock: () => now,
    });
    await expect(handler([event(alertWith())], { heartbeat })).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });

  it('appends the same delivery ids when the same alerts are handled again', async () => {
    const { put, handler, sent } = setUp();
    put(webhookWith({ webhook_id: 'wh_a' }));
    await handler([event(alertWith())], { heartbeat });
    await handler([event(alertWith())], { heartbeat });
    const idsOf = (i: number) => sent[i]!.events.map((e) => (e.value as { delivery_id: string }).delivery_id);
    expect(idsOf(1)).toEqual(idsOf(0));
  });
});
