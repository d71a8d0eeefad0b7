import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { Webhook } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import type { DeliveryOutcome, DeliveryRequest } from '../webhooks/delivery-client.ts';
import { createRetryPlan } from '../webhooks/retry-plan.ts';
import { spreadDelay, spreadDraw } from '../webhooks/retry-timing.ts';
import { developmentSecretBox } from '../webhooks/secret-box.ts';
import { SigningKeys } from '../webhooks/signing-keys.ts';
import { generateWebhookSecret } from '../webhooks/signing.ts';
import { audioUrls, type AudioUrls } from '../audio/audio-urls.ts';
import { parseAudioUrlKeys } from '../audio/signed-url.ts';
import { DeliveryWorker, GONE_REASON, type Append } from './delivery-worker.ts';
import { jobWith, webhookWith } from '../../test/support/webhook-records.ts';

const logger = createLogger('test', 'silent');
const now = new Date(Date.UTC(2026, 0, 5, 10, 0, 0));
const box = developmentSecretBox();
const secret = generateWebhookSecret();

function setUp(
  answer: DeliveryOutcome | ((request: DeliveryRequest) => DeliveryOutcome),
  webhook?: Webhook | null,
  clock = () => now,
  audio?: AudioUrls,
) {
  const held = webhook === undefined ? webhookWith({ secret_ref: box.seal(secret) }) : webhook;
  const requests: DeliveryRequest[] = [];
  let caughtUp = 0;
  const worker = new DeliveryWorker({
    directory: {
      get: (id) => (held && held.webhook_id === id ? held : undefined),
      catchUp: async () => {
        caughtUp++;
        return true;
      },
    },
    secrets: new SigningKeys(box),
    client: {
      deliver: async (request) => {
        requests.push(request);
        return typeof answer === 'function' ? answer(request) : answer;
      },
    },
    plan: createRetryPlan(['5s', '5m']),
    logger,
    clock,
    ...(audio ? { audio } : {}),
  });
  return { worker, requests, caughtUp: () => caughtUp };
}

const ok: DeliveryOutcome = { kind: 'delivered', status: 204, durationMs: 12 };
const serverError: DeliveryOutcome = {
  kind: 'failed',
  status: 500,
  error: 'HTTP 500',
  durationMs: 8,
  retryable: true,
};

const deliveries = (appends: Append[]) =>
  appends.map((a) =>
    a.kind === 'delivery'
      ? { kind: a.kind, topic: a.topic, status: a.record.status, attempt: a.record.attempt }
      : a.kind === 'dead-letter'
        ? { kind: a.kind, status: a.record.status, attempt: a.record.attempt }
        : { kind: a.kind, active: a.state.active },
  );

describe('DeliveryWorker', () => {
  it('POSTs the exact payload, signed so that a Standard Webhooks receiver accepts it', async () => {
    const job = jobWith();
    // The receiver library checks the timestamp against the real clock.
    const { worker, requests } = setUp(ok, undefined, () => new Date());
    await worker.attempt(job);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.url).toBe('https://hooks.example/news');
    expect(request.body).toBe(job.payload_json);
    expect(request.headers['webhook-id']).toBe(job.delivery_id);
    const receiver = new StandardWebhook(secret);
    expect(() => receiver.verify(request.body, { ...request.headers })).not.toThrow();
    expect(() => receiver.verify(`${request.body} `, { ...request.headers })).toThrow();
  });

  it('signs the audio addresses of the stored job into the body it sends, which the signature covers', async () => {
    const base = 'https://news.example.com';
    const key = `${'c3'.repeat(20)}.mp3`;
    const job = jobWith({
      payload_json: JSON.stringify({ event: 'news.alert', data: { audio_url: `${base}/v1/audio/${key}` } }),
    });
    const audio = audioUrls({
      baseUrl: () => base,
      keys: parseAudioUrlKeys(undefined),
      ttlSeconds: 86_400,
      now: () => new Date(),
    });
    const { worker, requests } = setUp(ok, undefined, () => new Date(), audio);
    const result = await worker.attempt(job);
    const sent = JSON.parse(requests[0]!.body) as { data: { audio_url: string } };
    expect(sent.data.audio_url).toMatch(
      new RegExp(`^${base}/v1/audio/${key}\\?expires=\\d+&signature=dev\\.`),
    );
    expect(() =>
      new StandardWebhook(secret).verify(requests[0]!.body, { ...requests[0]!.headers }),
    ).not.toThrow();
    // What is appended about it keeps the job as stored: unsigned.
    const logged = result.appends.flatMap((a) => (a.kind === 'delivery' ? [a.record.payload_json] : []));
    expect(logged).toEqual([job.payload_json]);
  });

  it('signs with the time of the attempt', async () => {
    const { worker, requests } = setUp(ok);
    await worker.attempt(jobWith());
    expect(requests[0]!.headers['webhook-timestamp']).toBe(String(now.getTime() / 1000));
  });

  it('records a 2xx as succeeded, with the status', async () => {
    const { worker } = setUp(ok);
    const result = await worker.attempt(jobWith());
    expect(result.status).toBe('succeeded');
    expect(result.appends).toHaveLength(1);
    expect(result.appends[0]).toMatchObject({
      kind: 'delivery',
      topic: 'news.webhook-deliveries.v1',
      record: {
        status: 'succeeded',
        attempt: 1,
        last_http_status: 204,
        last_error: null,
        occurred_at: now.getTime(),
      },
    });
  });

  it('schedules the next attempt on the retry topic the plan names, due after its delay spread for this delivery, then records failed_retrying', async () => {
    const { worker } = setUp(serverError);
    const job = jobWith({ attempt: 2 });
    const result = await worker.attempt(job);
    expect(result.status).toBe('failed_retrying');
    expect(deliveries(result.appends)).toEqual([
      { kind: 'delivery', topic: 'news.webhook-deliveries.v1.retry-5m', status: 'pending', attempt: 3 },
      { kind: 'delivery', topic: 'news.webhook-deliveries.v1', status: 'failed_retrying', attempt: 2 },
    ]);
    const next = result.appends[0]!;
    expect(next.kind === 'delivery' && next.record).toMatchObject({
      delivery_id: job.delivery_id,
      payload_json: job.payload_json,
      due_at: now.getTime() + spreadDelay(5 * 60_000, spreadDraw(job.delivery_id, 3)),
      last_http_status: 500,
      last_error: 'HTTP 500',
    });
    expect(next.kind === 'delivery' && next.record.due_at).toBeGreaterThanOrEqual(
      now.getTime() + 4.5 * 60_000,
    );
    expect(next.kind === 'delivery' && next.record.due_at).toBeLessThanOrEqual(now.getTime() + 5.5 * 60_000);
  });

  it("postpones the next attempt as a 503's Retry-After asks, on a retry topic that waits that long, and says so", async () => {
    const unavailable: DeliveryOutcome = {
      ...serverError,
      status: 503,
      error: 'HTTP 503',
      retryAfter: '3600',
    };
    const { worker } = setUp(unavailable);
    const result = await worker.attempt(jobWith({ attempt: 1 }));
    expect(result.status).toBe('failed_retrying');
    const [next, outcome] = result.appends;
    // The 5m topic is the longer one of this plan's two: a wait of an hour goes there, as attempt 2.
    expect(next).toMatchObject({
      kind: 'delivery',
      topic: 'news.webhook-deliveries.v1.retry-5m',
      record: { status: 'pending', attempt: 2, last_http_status: 503 },
    });
    const due = next?.kind === 'delivery' ? next.record.due_at : 0;
    // Capped at the plan's longest delay (5 min), spread upwards by up to 10%.
    expect(due).toBeGreaterThanOrEqual(now.getTime() + 5 * 60_000);
    expect(due).toBeLessThanOrEqual(now.getTime() + 5.5 * 60_000);
    expect(outcome?.kind === 'delivery' && outcome.record.last_error).toMatch(
      /^HTTP 503 \(Retry-After of 1 h capped: next attempt in 5 min( \d+ s)?\)$/,
    );
  });

  it('ignores a Retry-After that is unreadable or comes with a status other than 429 and 503', async () => {
    for (const answer of [
      { ...serverError, status: 503, error: 'HTTP 503', retryAfter: 'in a while' },
      { ...serverError, retryAfter: '3600' },
    ] satisfies DeliveryOutcome[]) {
      const { worker } = setUp(answer);
      const job = jobWith({ attempt: 1 });
      const [next, outcome] = (await worker.attempt(job)).appends;
      expect(next).toMatchObject({
        topic: 'news.webhook-deliveries.v1.retry-5s',
        record: { due_at: now.getTime() + spreadDelay(5_000, spreadDraw(job.delivery_id, 2)) },
      });
      expect(outcome?.kind === 'delivery' && outcome.record.last_error).toBe(answer.error);
    }
  });

  it('dead-letters the job after the last attempt, on the DLQ and in the log', async () => {
    const { worker } = setUp(serverError);
    const result = await worker.attempt(jobWith({ attempt: 3 }));
    expect(result.status).toBe('dead_lettered');
    expect(deliveries(result.appends)).toEqual([
      { kind: 'dead-letter', status: 'dead_lettered', attempt: 3 },
      { kind: 'delivery', topic: 'news.webhook-deliveries.v1', status: 'dead_lettered', attempt: 3 },
    ]);
    expect(result.appends[0]).toMatchObject({ reason: 'gave up after attempt 3: HTTP 500' });
  });

  it('dead-letters at once a failure that retrying cannot fix, and a job beyond a shortened schedule', async () => {
    const refused: DeliveryOutcome = {
      kind: 'failed',
      status: null,
      error: 'refused: 10.0.0.1 is a private address',
      durationMs: 1,
      retryable: false,
    };
    expect((await setUp(refused).worker.attempt(jobWith())).status).toBe('dead_lettered');
    expect((await setUp(serverError).worker.attempt(jobWith({ attempt: 7 }))).status).toBe('dead_lettered');
  });

  it('disables the webhook on 410 Gone: a new state, version + 1, everything else kept', async () => {
    const webhook = webhookWith({ secret_ref: box.seal(secret), version: 4, created_at: 77 });
    const { worker } = setUp({ kind: 'gone', status: 410, durationMs: 3 }, webhook);
    const result = await worker.attempt(jobWith());
    expect(result.status).toBe('disabled');
    expect(result.appends[0]).toEqual({
      kind: 'webhook',
      state: {
        ...webhook,
        active: false,
        disabled_reason: GONE_REASON,
        version: 5,
        occurred_at: now.getTime(),
      },
    });
    expect(result.appends[1]).toMatchObject({ record: { status: 'disabled', last_http_status: 410 } });
  });

  it('makes no request for a deleted, paused or unsubscribed webhook, and records it disabled', async () => {
    const cases: (Webhook | null)[] = [
      null,
      webhookWith({ active: false }),
      webhookWith({ events: ['documentary.ready'] }),
      webhookWith({ tenant_id: 'ten_other' }),
    ];
    for (const webhook of cases) {
      const { worker, requests, caughtUp } = setUp(ok, webhook);
      const result = await worker.attempt(jobWith());
      // Only after making sure the directory is not merely behind the topic.
      expect(caughtUp()).toBe(1);
      expect(requests).toHaveLength(0);
      expect(result.status).toBe('disabled');
      expect(result.appends).toHaveLength(1);
      expect(result.appends[0]).toMatchObject({ record: { status: 'disabled', last_http_status: null } });
    }
  });

  it('delivers a test ping to an active webhook whatever events it subscribes to', async () => {
    const { worker, requests } = setUp(
      ok,
      webhookWith({ events: ['documentary.ready'], secret_ref: box.seal(secret) }),
    );
    const result = await worker.attempt(jobWith({ event_type: 'webhook.test' }));
    expect(requests).toHaveLength(1);
    expect(result.status).toBe('succeeded');
  });

  it('catches up with the webhooks topic before deciding a webhook it does not know was deleted', async () => {
    const known = new Map<string, Webhook>();
    const requests: DeliveryRequest[] = [];
    const worker = new DeliveryWorker({
      directory: {
        get: (id) => known.get(id),
        catchUp: async () => {
          known.set('wh_1', webhookWith({ secret_ref: box.seal(secret) }));
          return true;
        },
      },
      secrets: new SigningKeys(box),
      client: { deliver: async (request) => (requests.push(request), ok) },
      plan: createRetryPlan(['5s']),
      logger,
      clock: () => now,
    });
    expect((await worker.attempt(jobWith())).status).toBe('succeeded');
    expect(requests).toHaveLength(1);
  });

  describe('after a secret rotation', () => {
    const previous = generateWebhookSecret();
    const rotated = (expiresAt: number) =>
      webhookWith({
        secret_ref: box.seal(secret),
        previous_secret_ref: box.seal(previous),
        previous_secret_expires_at: expiresAt,
      });
    // The receiver library checks the timestamp against the real clock.
    const realNow = () => new Date();
    const verifies = (key: string, request: DeliveryRequest) => {
      try {
        new StandardWebhook(key).verify(request.body, { ...request.headers });
        return true;
      } catch {
        return false;
      }
    };

    it('signs with both secrets while the grace period lasts: a receiver holding either accepts', async () => {
      const { worker, requests } = setUp(ok, rotated(Date.now() + 60_000), realNow);
      await worker.attempt(jobWith());
      const request = requests[0]!;
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verifies(secret, request)).toBe(true);
      expect(verifies(previous, request)).toBe(true);
      expect(verifies(generateWebhookSecret(), request)).toBe(false);
    });

    it('signs with the new secret alone once the grace period is over, also a retry queued before', async () => {
      const { worker, requests } = setUp(ok, rotated(Date.now() - 1), realNow);
      await worker.attempt(jobWith({ attempt: 3 }));
      const request = requests[0]!;
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(1);
      expect(verifies(secret, request)).toBe(true);
      expect(verifies(previous, request)).toBe(false);
    });
  });

  it('counts a secret it cannot open as a failed attempt, to retry, and never sends unsigned', async () => {
    const { worker, requests } = setUp(ok, webhookWith({ secret_ref: 'sb1:other:AAAA:BBBB' }));
    const result = await worker.attempt(jobWith());
    expect(requests).toHaveLength(0);
    expect(result.status).toBe('failed_retrying');
    const outcome = result.appends.at(-1);
    expect(outcome?.kind === 'delivery' && outcome.record.last_error).toMatch(
      /signing secret could not be used/,
    );
  });
});
