// The webhook dispatcher as a real process against the real stack: webhook registrations and alerts are
// appended to news.webhooks.v1 and news.alerts.v1 directly (as the API and the matcher do), a local
// receiver plays the customer's endpoint, and what the dispatcher appends (outcomes, retries, the DLQ,
// disabled webhooks) is read back from the topics. The retry schedule is shortened to 1s,1s,2s.
import { isoSecond } from '../../services/runtime/iso-second.ts';
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApiUrl } from '../../services/audio/audio-address.ts';
import { parseAudioUrlKeys, verifyAudioUrl } from '../../services/audio/signed-url.ts';
import { deliveryId } from '../../services/dispatcher/fan-out.ts';
import { startAtEndIfNew } from '../../services/runtime/kafka/start-position.ts';
import type { Alert, Webhook, WebhookDelivery } from '../../services/runtime/events/types.generated.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec, localTypes } from '../../services/runtime/kafka/registry.ts';
import {
  consumerGroup,
  deadLetterTopicName,
  parseDuration,
  topicCatalog,
  topicNames,
} from '../../services/runtime/kafka/topics.ts';
import { spreadDelay, spreadDraw } from '../../services/webhooks/retry-timing.ts';
import { developmentSecretBox } from '../../services/webhooks/secret-box.ts';
import { generateWebhookSecret } from '../../services/webhooks/signing.ts';
import { testKafka } from './support/kafka.ts';
import { provisionRetryTopics } from './support/retry-topics.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { stack, testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';
import {
  scripts,
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from './support/webhook-receiver.ts';

const schedule = ['1s', '1s', '2s'];
const deliveryDlq = deadLetterTopicName(topicNames.webhookDeliveries);

/** Reads what the dispatcher appends, from the end of the topics as they were when it started. */
async function watchTopics(kafka: Kafka, admin: Admin, codec: EventCodec, run: string) {
  const deliveries: (WebhookDelivery & { topic: string })[] = [];
  const webhooks: Webhook[] = [];
  const topics = [topicNames.webhookDeliveries, deliveryDlq, topicNames.webhooks];
  const groupId = `test-dispatcher-watch-${run}`;
  await startAtEndIfNew(kafka, admin, groupId, topics, testLogger);
  // startAtEndIfNew placed the group as the consumer runner names it (in this worker's namespace).
  const consumer: Consumer = kafka.consumer({ groupId: consumerGroup(groupId), maxWaitTimeInMs: 500 });
  await consumer.connect();
  await consumer.subscribe({ topics });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (topic === topicNames.webhooks) {
        const state = (await codec.decode(topic, message.value)) as Webhook | null;
        if (state?.webhook_id.includes(run)) webhooks.push(state);
        return;
      }
      // The DLQ carries poison messages too (not Avro, or not ours): only this run's records count.
      const record = (await codec
        .decode(topicNames.webhookDeliveries, message.value)
        .catch(() => null)) as WebhookDelivery | null;
      if (record?.tenant_id.includes(run)) deliveries.push({ ...record, topic });
    },
  });
  return { deliveries, webhooks, stop: () => consumer.disconnect() };
}

describe('webhook dispatcher', () => {
  const run = randomUUID().slice(0, 8);
  /** Every case has a tenant of its own: a tenant-wide webhook of one case must not get another's alerts. */
  const tenantOf = (name: string) => `ten_${run}_${name}`;
  const box = developmentSecretBox();
  let kafka: Kafka;
  let admin: Admin;
  let producer: EventProducer;
  let receiver: WebhookReceiver;
  let watched: Awaited<ReturnType<typeof watchTopics>>;
  let dispatcher: ServiceProcess;
  const env = {
    DISPATCHER_GROUP: `test-dispatcher-${run}`,
    DISPATCHER_FROM_BEGINNING: 'false',
    DISPATCHER_SESSION_TIMEOUT_MS: '6000',
    WEBHOOK_RETRY_SCHEDULE: schedule.join(','),
    WEBHOOK_SECRET_KEYS: '',
    WEBHOOK_TIMEOUT_MS: '20000',
    OUTBOUND_ALLOW_LIST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };

  /** A wait that, when it times out, says what the dispatcher printed last. */
  const watching = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      throw new Error(`${(error as Error).message}\ndispatcher output:\n${dispatcher?.output() ?? '(none)'}`);
    }
  };

  beforeAll(async () => {
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
    await provisionRetryTopics(admin, schedule);
    const codec = new EventCodec(
      createSchemaRegistry(stack.SCHEMA_REGISTRY_URL),
      localTypes(topicCatalog(schedule)),
    );
    producer = await EventProducer.connect(kafka, codec);
    watched = await watchTopics(kafka, admin, codec, run);
    receiver = await startWebhookReceiver();
    dispatcher = startServiceProcess('dispatcher', env);
    await watching(
      waitFor(() => dispatcher.output().includes('dispatcher started'), 'the dispatcher to start', 60_000),
    );
  }, 120_000);

  afterAll(async () => {
    if (dispatcher) {
      // After the SIGKILL case the restarted process's alert consumer may still be joining; don't wait for it.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => (timer = setTimeout(() => resolve('late'), 5_000)));
      const stopped = await Promise.race([dispatcher.stop(), late]);
      clearTimeout(timer);
      if (stopped === 'late') dispatcher.child.kill('SIGKILL');
    }
    await watched?.stop();
    await receiver?.close();
    await producer?.disconnect();
    await admin?.disconnect();
  }, 60_000);

  /** Registers a webhook of `tenant` for news.alert, delivering to `/<name>`; returns its id and secret. */
  async function registerWebhook(tenant: string, name: string, overrides: Partial<Webhook> = {}) {
    const secret = generateWebhookSecret();
    const webhookId = `wh_${run}_${name}`;
    const now = Date.now();
    const webhook: Webhook = {
      webhook_id: webhookId,
      tenant_id: tenant,
      url: receiver.url(`/${name}`),
      events: ['news.alert'],
      filter: null,
      secret_ref: box.seal(secret),
      previous_secret_ref: null,
      previous_secret_expires_at: null,
      active: true,
      disabled_reason: null,
      created_at: now,
      version: 1,
      occurred_at: now,
      ...overrides,
    };
    await producer.send(topicNames.webhooks, [{ key: webhookId, value: webhook }]);
    return { webhookId, secret, path: `/${name}` };
  }

  async function raiseAlert(tenant: string, name: string, overrides: Partial<Alert> = {}): Promise<Alert> {
    const alert: Alert = {
      alert_id: `al_${run}_${name}`,
      tenant_id: tenant,
      monitor_id: `mon_${run}_1`,
      contact_id: `crm-${name}`,
      company: 'Acme Widgets',
      article_id: `art_${run}_${name}`,
      article_title: 'Acme Widgets opens a plant in Leeds',
      article_url: `https://news.example/${run}/${name}`,
      article_source_name: 'Google News: Acme',
      article_publisher_name: 'Yorkshire Post',
      article_publisher_url: 'https://www.yorkshirepost.co.uk/',
      article_published_at: Date.now() - 3_600_000,
      news_summary: 'Acme Widgets said on Monday it would open a plant in Leeds, creating 300 jobs.',
      audio_url: null,
      audio_key: null,
      matched_terms: ['Acme Widgets'],
      occurred_at: Date.now(),
      ...overrides,
    };
    await producer.send(topicNames.alerts, [{ key: alert.alert_id, value: alert }]);
    return alert;
  }

  const requestsTo = (path: string, count: number, what: string, timeoutMs = 30_000) =>
    watching(
      waitFor(
        () => {
          const found = receiver.requests(path);
          return found.length >= count ? found : null;
        },
        what,
        timeoutMs,
      ),
    );

  const outcomes = (id: string) => watched.deliveries.filter((d) => d.delivery_id === id);

  const verify = (secret: string, request: Pick<ReceivedRequest, 'body' | 'headers'>) =>
    new StandardWebhook(secret).verify(request.body, { ...request.headers });

  it('delivers an alert to the subscribed endpoint: the documented payload, signed the Standard Webhooks way', async () => {
    const hook = await registerWebhook(tenantOf('a'), 'a');
    // Raised before its article was narrated (no audio_key; an unsigned address the API would refuse).
    const alert = await raiseAlert(tenantOf('a'), 'a', { audio_url: 'https://api.example/audio/a.mp3' });
    const [request] = await requestsTo(hook.path, 1, 'the delivery of alert a');
    const audioUrl = new URL((JSON.parse(request!.body) as { data: { audio_url: string } }).data.audio_url);

    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(deliveryId('news.alert', alert.alert_id, hook.webhookId));
    expect(JSON.parse(request!.body)).toEqual({
      event: 'news.alert',
      timestamp: new Date(alert.occurred_at).toISOString(),
      data: {
        contact_id: 'crm-a',
        company: 'Acme Widgets',
        news_summary: alert.news_summary,
        audio_url: audioUrl.href,
        alert_id: alert.alert_id,
        monitor_id: alert.monitor_id,
        article_id: alert.article_id,
        article_title: alert.article_title,
        article_url: alert.article_url,
        article_published_at: isoSecond(alert.article_published_at!),
        article_source: 'Google News: Acme',
        article_publisher: { name: 'Yorkshire Post', url: 'https://www.yorkshirepost.co.uk/' },
        matched_terms: ['Acme Widgets'],
      },
    });

    // The article's narration, signed by the dispatcher for the API, which resolves it when it is fetched.
    const apiUrl = (process.env.API_PUBLIC_URL || localApiUrl).replace(/\/+$/, '');
    expect(`${audioUrl.origin}${audioUrl.pathname}`).toBe(`${apiUrl}/v1/articles/${alert.article_id}/audio`);
    const signed = {
      articleId: alert.article_id,
      expires: audioUrl.searchParams.get('expires') ?? undefined,
      signature: audioUrl.searchParams.get('signature') ?? undefined,
    };
    expect(verifyAudioUrl(signed, new Date(), parseAudioUrlKeys(process.env.AUDIO_URL_KEYS)).ok).toBe(true);

    expect(() => verify(hook.secret, request!)).not.toThrow();
    expect(() =>
      verify(hook.secret, { ...request!, body: request!.body.replace('Leeds', 'Hull') }),
    ).toThrow();
    const timestamp = Number(request!.headers['webhook-timestamp']);
    const shifted = { ...request!.headers, 'webhook-timestamp': String(timestamp - 1) };
    expect(() => verify(hook.secret, { ...request!, headers: shifted })).toThrow();
    expect(() => verify(generateWebhookSecret(), request!)).toThrow();

    const id = request!.headers['webhook-id']!;
    const log = await watching(
      waitFor(() => outcomes(id).find((d) => d.status === 'succeeded'), 'the succeeded outcome'),
    );
    expect(log).toMatchObject({
      attempt: 1,
      last_http_status: 200,
      last_error: null,
      webhook_id: hook.webhookId,
    });
  });

  it('retries a failing endpoint on the schedule and delivers on the 4th attempt, with the same webhook-id', async () => {
    const hook = await registerWebhook(tenantOf('b'), 'b');
    receiver.script(hook.path, scripts.failTimes(3, 503));
    await raiseAlert(tenantOf('b'), 'b');
    const requests = await requestsTo(hook.path, 4, 'four attempts at delivery b');

    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const r of requests) expect(() => verify(hook.secret, r)).not.toThrow();
    expect(requests.map((r) => r.answered)).toEqual([503, 503, 503, 200]);
    // Each retry waits at least its delay after the previous attempt (1s, 1s, 2s), spread by ±10% as
    // the delivery id and the attempt number fix it.
    const [id] = ids;
    const gaps = requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.receivedAt);
    const spread = schedule.map((delay, i) => spreadDelay(parseDuration(delay), spreadDraw(id!, i + 2)));
    expect(gaps[0]).toBeGreaterThanOrEqual(spread[0]! - 50);
    expect(gaps[1]).toBeGreaterThanOrEqual(spread[1]! - 50);
    expect(gaps[2]).toBeGreaterThanOrEqual(spread[2]! - 50);

    await watching(
      waitFor(() => outcomes(id!).some((d) => d.status === 'succeeded'), 'the succeeded outcome'),
    );
    const log = outcomes(id!).filter(
      (d) => d.topic === topicNames.webhookDeliveries && d.status !== 'pending',
    );
    expect(log.map((d) => [d.status, d.attempt, d.last_http_status])).toEqual([
      ['failed_retrying', 1, 503],
      ['failed_retrying', 2, 503],
      ['failed_retrying', 3, 503],
      ['succeeded', 4, 200],
    ]);
  });

  it("waits as a 503's Retry-After asks, capped at the schedule's longest delay, and says so in the log", async () => {
    const hook = await registerWebhook(tenantOf('r'), 'r');
    receiver.script(hook.path, scripts.retryAfter(503, '30'));
    const alert = await raiseAlert(tenantOf('r'), 'r');
    const id = deliveryId('news.alert', alert.alert_id, hook.webhookId);
    const requests = await requestsTo(hook.path, 2, 'the retry of delivery r');

    expect(requests.map((r) => r.answered)).toEqual([503, 200]);
    // 30 s asked, 2 s (the longest delay of 1s,1s,2s) given: later than the 1 s the schedule says.
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1_950);
    await watching(
      waitFor(() => outcomes(id).some((d) => d.status === 'succeeded'), 'the succeeded outcome'),
    );
    const failed = outcomes(id).find((d) => d.status === 'failed_retrying');
    expect(failed?.last_error).toBe('HTTP 503 (Retry-After of 30 s capped: next attempt in 2 s)');
  });

  it('dead-letters a delivery whose endpoint always fails, after the last attempt of the schedule', async () => {
    const hook = await registerWebhook(tenantOf('c'), 'c');
    receiver.script(hook.path, scripts.always(500));
    const alert = await raiseAlert(tenantOf('c'), 'c');
    const id = deliveryId('news.alert', alert.alert_id, hook.webhookId);

    const dead = await watching(
      waitFor(
        () => outcomes(id).find((d) => d.topic === deliveryDlq),
        'the job on news.webhook-deliveries.v1.dlq',
        30_000,
      ),
    );
    expect(dead).toMatchObject({
      status: 'dead_lettered',
      attempt: 4,
      last_http_status: 500,
      last_error: 'HTTP 500',
    });
    await watching(
      waitFor(
        () =>
          outcomes(id).find((d) => d.topic === topicNames.webhookDeliveries && d.status === 'dead_lettered'),
        'the dead_lettered outcome in the delivery log',
      ),
    );
    expect(receiver.requests(hook.path)).toHaveLength(4);
  });

  it('keeps alerts within their tenant and monitor filter, and stops delivering to a deleted webhook', async () => {
    const [tenant, otherTenant] = [tenantOf('e'), tenantOf('e-other')];
    const monitor2 = `mon_${run}_2`;
    const mine = await registerWebhook(tenant, 'e-mine');
    const other = await registerWebhook(otherTenant, 'e-other');
    const filtered = await registerWebhook(tenant, 'e-mon2', {
      filter: { categories: [], source_ids: [], languages: [], words: [], monitor_ids: [monitor2] },
    });

    const first = await raiseAlert(tenant, 'e1');
    const second = await raiseAlert(tenant, 'e2', { monitor_id: monitor2 });
    await requestsTo(mine.path, 2, 'both alerts at the tenant-wide webhook');
    await requestsTo(filtered.path, 1, 'the monitor-2 alert at the filtered webhook');
    // The other tenant's endpoint shares nothing with this tenant's alerts; its own alert reaches it,
    // and (same partition, appended later) would have arrived after any stray delivery.
    const own = await raiseAlert(otherTenant, 'e-own');
    await requestsTo(other.path, 1, "the other tenant's own alert");

    const dataOf = (r: ReceivedRequest) =>
      (JSON.parse(r.body) as { data: { alert_id: string } }).data.alert_id;
    expect(receiver.requests(mine.path).map(dataOf).sort()).toEqual([first.alert_id, second.alert_id].sort());
    expect(receiver.requests(filtered.path).map(dataOf)).toEqual([second.alert_id]);
    expect(receiver.requests(other.path).map(dataOf)).toEqual([own.alert_id]);

    // Deleted: a tombstone. The next alert of the tenant goes to the remaining subscriber only.
    await producer.send(topicNames.webhooks, [{ key: mine.webhookId, value: null }]);
    const third = await raiseAlert(tenant, 'e3', { monitor_id: monitor2 });
    await requestsTo(filtered.path, 2, 'the third alert at the filtered webhook');
    // The receiver can hear of the job before this test's own consumer has read it: wait for the record.
    const jobsOf = (alertId: string) =>
      watched.deliveries.filter((d) => d.event_id === alertId && d.status === 'pending');
    await watching(
      waitFor(() => jobsOf(third.alert_id).length > 0, 'the pending job of the third alert in the topic'),
    );
    const jobsOfThird = jobsOf(third.alert_id);
    expect(jobsOfThird.map((d) => d.webhook_id)).toEqual([filtered.webhookId]);
    expect(receiver.requests(mine.path)).toHaveLength(2);
  });

  it('disables a webhook whose endpoint answers 410 Gone', async () => {
    const hook = await registerWebhook(tenantOf('f'), 'f');
    receiver.script(hook.path, scripts.gone());
    const alert = await raiseAlert(tenantOf('f'), 'f');
    const disabled = await watching(
      waitFor(
        () => watched.webhooks.find((w) => w.webhook_id === hook.webhookId && !w.active),
        'a news.webhooks.v1 state with active false',
      ),
    );
    expect(disabled).toMatchObject({
      version: 2,
      disabled_reason: 'the endpoint answered 410 Gone',
      tenant_id: tenantOf('f'),
    });
    const registered = watched.webhooks.find((w) => w.webhook_id === hook.webhookId && w.active);
    expect(disabled.created_at).toBe(registered?.created_at);
    expect(disabled.secret_ref).toBe(registered?.secret_ref);
    const id = deliveryId('news.alert', alert.alert_id, hook.webhookId);
    await watching(waitFor(() => outcomes(id).find((d) => d.status === 'disabled'), 'the disabled outcome'));
    expect(receiver.requests(hook.path)).toHaveLength(1);
    expect(
      outcomes(id).some((d) => d.topic !== topicNames.webhookDeliveries || d.status === 'failed_retrying'),
    ).toBe(false);
  });

  // Last: the restarted process's alert consumer waits for the killed member's 30 s session to expire.
  it('delivers after a SIGKILL mid-delivery: the job in flight again (same webhook-id) and the one queued behind it', async () => {
    const hook = await registerWebhook(tenantOf('d'), 'd');
    receiver.script(hook.path, scripts.holdFirst(1));
    const first = await raiseAlert(tenantOf('d'), 'd1');
    await watching(waitFor(() => receiver.held().length === 1, 'the first delivery to be in flight'));
    const second = await raiseAlert(tenantOf('d'), 'd2');
    const secondId = deliveryId('news.alert', second.alert_id, hook.webhookId);
    await watching(
      waitFor(() => outcomes(secondId).some((d) => d.status === 'pending'), 'the second job to be queued'),
    );

    dispatcher.child.kill('SIGKILL');
    await dispatcher.exited;
    dispatcher = startServiceProcess('dispatcher', env);

    const firstId = deliveryId('news.alert', first.alert_id, hook.webhookId);
    const delivered = await watching(
      waitFor(
        () => {
          const requests = receiver.requests(hook.path);
          const answered = (id: string) =>
            requests.some((r) => r.headers['webhook-id'] === id && r.answered === 200);
          return answered(firstId) && answered(secondId) ? requests : null;
        },
        'both deliveries after the restart',
        60_000,
      ),
    );
    const firstAttempts = delivered.filter((r) => r.headers['webhook-id'] === firstId);
    expect(firstAttempts.length).toBeGreaterThanOrEqual(2);
    expect(firstAttempts[0]!.answered).toBe('closed');
    for (const r of delivered) expect(() => verify(hook.secret, r)).not.toThrow();
  });
});
