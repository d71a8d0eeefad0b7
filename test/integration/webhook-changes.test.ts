// What a change to a webhook does to its deliveries, through the API with a real dispatcher process and a
// local receiver: a paused webhook is sent nothing and a resumed one is again; one the dispatcher disabled
// (its endpoint answered 410) is resumed by the tenant; after a secret rotation every delivery, retries of
// earlier ones included, is signed with the new secret and, during the grace period only, with the old one.
// The API side of the same changes (validation, monitors, the plan, the topic): webhooks-api.test.ts.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../api-client/schema.d.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { provisionRetryTopics } from './support/retry-topics.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import {
  scripts,
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from './support/webhook-receiver.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type Webhook = components['schemas']['Webhook'];
type DeliveryList = components['schemas']['WebhookDeliveryList'];
type SecretRotated = components['schemas']['WebhookSecretRotated'];

// Long enough for a test to change the webhook between a failed attempt and its retry.
const schedule = ['3s', '3s'];

/** Whether a receiver holding `secret` accepts `request` (the reference Standard Webhooks verifier). */
const verifies = (secret: string, request: Pick<ReceivedRequest, 'body' | 'headers'>) => {
  try {
    new StandardWebhook(secret).verify(request.body, { ...request.headers });
    return true;
  } catch {
    return false;
  }
};

describe('webhook changes and secret rotation, delivered', () => {
  let stack: ApiStack;
  let receiver: WebhookReceiver;
  let dispatcher: ServiceProcess | undefined;

  /** A wait that, when it times out, says what the dispatcher printed last. */
  const watching = async <T>(wait: Promise<T>): Promise<T> => {
    try {
      return await wait;
    } catch (error) {
      throw new Error(`${(error as Error).message}\ndispatcher output:\n${dispatcher?.output() ?? '(none)'}`);
    }
  };

  beforeAll(async () => {
    stack = await startApiStack('changes');
    receiver = await startWebhookReceiver();
    const admin = stack.kafka.admin();
    await admin.connect();
    try {
      await provisionRetryTopics(admin, schedule);
    } finally {
      await admin.disconnect();
    }
    dispatcher = startServiceProcess('dispatcher', {
      DISPATCHER_GROUP: `changes-dispatcher-${stack.run}`,
      DISPATCHER_FROM_BEGINNING: 'false',
      WEBHOOK_RETRY_SCHEDULE: schedule.join(','),
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    await watching(
      waitFor(() => dispatcher!.output().includes('dispatcher started'), 'the dispatcher', 90_000),
    );
  }, 180_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await stack?.close();
  }, 60_000);

  const register = async (path: string, secret?: string) => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url(path),
      events: ['documentary.ready'],
      ...(secret === undefined ? {} : { secret }),
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  };

  const ping = async (id: string) => {
    const queued = await stack.call<{ delivery_id: string }>('POST', `/api/v1/webhooks/${id}/test`);
    expect(queued.status, queued.text).toBe(202);
    return queued.body.delivery_id;
  };

  /** The request that delivered `deliveryId` to `path` with a 2xx answer. */
  const delivered = (path: string, deliveryId: string) =>
    watching(
      waitFor(
        () =>
          receiver.requests(path).find((r) => r.headers['webhook-id'] === deliveryId && r.answered === 200),
        `delivery ${deliveryId} at ${path}`,
      ),
    );

  const logged = (id: string, deliveryId: string, status: string) =>
    watching(
      waitFor(async () => {
        const log = await stack.call<DeliveryList>(
          'GET',
          `/api/v1/webhooks/${id}/deliveries?status=${status}`,
        );
        return log.body.deliveries.find((d) => d.id === deliveryId);
      }, `delivery ${deliveryId} ${status} in the log`),
    );

  const patch = async (id: string, body: unknown) => {
    const answer = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, body);
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };

  it('sends a paused webhook nothing, not even a retry queued before the pause, and a resumed one again', async () => {
    receiver.script('/paused', scripts.failTimes(1, 500));
    const { webhook } = await register('/paused');
    const queued = await ping(webhook.id);
    await watching(waitFor(() => receiver.requests('/paused').length === 1, 'the first attempt'));

    expect(await patch(webhook.id, { active: false })).toMatchObject({
      active: false,
      disabled_reason: null,
    });
    // The retry comes due while it is paused: recorded, not sent.
    const retry = await logged(webhook.id, queued, 'disabled');
    expect(retry.last_error).toBe('the webhook is paused');
    // One request was made: the retry that came due while paused was none.
    expect(retry.attempts).toBe(1);
    expect(receiver.requests('/paused')).toHaveLength(1);
    const refused = await stack.call('POST', `/api/v1/webhooks/${webhook.id}/test`);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'conflict']);

    expect(await patch(webhook.id, { active: true })).toMatchObject({ active: true, disabled_reason: null });
    const again = await ping(webhook.id);
    await delivered('/paused', again);
    expect(receiver.requests('/paused').map((r) => r.headers['webhook-id'])).toEqual([queued, again]);
  }, 60_000);

  it('resumes a webhook the dispatcher disabled when its endpoint answered 410 Gone', async () => {
    receiver.script('/gone', scripts.gone());
    const { webhook, secret } = await register('/gone');
    const first = await ping(webhook.id);
    // The 410 was an answer to a request: one attempt.
    expect((await logged(webhook.id, first, 'disabled')).attempts).toBe(1);
    const disabled = await watching(
      waitFor(async () => {
        const read = await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhook.id}`);
        return read.body.active ? null : read.body;
      }, 'the webhook disabled by the dispatcher'),
    );
    expect(disabled.disabled_reason).toBe('the endpoint answered 410 Gone');

    receiver.script('/gone', scripts.ok());
    expect(await patch(webhook.id, { active: true })).toMatchObject({ active: true, disabled_reason: null });
    const second = await ping(webhook.id);
    const request = await delivered('/gone', second);
    expect(verifies(secret, request)).toBe(true);
  }, 60_000);

  it('signs with both secrets during the grace period, with the new one alone after it or without one', async () => {
    receiver.script('/rotate', scripts.ok());
    const { webhook, secret: first } = await register('/rotate');
    const rotate = async (body: unknown) => {
      const answer = await stack.call<SecretRotated>(
        'POST',
        `/api/v1/webhooks/${webhook.id}/secret/rotate`,
        body,
      );
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };

    // An hour's grace: a receiver still holding the first secret, or already the second, accepts.
    const { secret: second } = await rotate({ previous_secret_expires_in: 3600 });
    const during = await delivered('/rotate', await ping(webhook.id));
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect([verifies(first, during), verifies(second, during)]).toEqual([true, true]);

    // No grace: the third secret alone, at once; the first is no longer even the previous one.
    const { secret: third } = await rotate({ previous_secret_expires_in: 0 });
    const without = await delivered('/rotate', await ping(webhook.id));
    expect([verifies(first, without), verifies(second, without), verifies(third, without)]).toEqual([
      false,
      false,
      true,
    ]);

    // A short grace: both until it ends, then the new one alone. On a loaded machine (CI, 2026-12-02) a
    // rotation with a 2 s grace was answered after the grace had ended, so its answer said no previous
    // secret (null), and a ping could take as long to be delivered. So what is checked follows the
    // clock: the answer states the expiry only while it lies ahead; the expiry is a whole second
    // (rotatedSecrets rounds it up), so the second an attempt was signed in (its webhook-timestamp) says
    // on which side of it the attempt was made.
    const grace = 5_000;
    const asked = Date.now();
    const short = await rotate({ previous_secret_expires_in: grace / 1000 });
    const answered = Date.now();
    const fourth = short.secret;
    const stated = short.webhook.previous_secret_expires_at;
    if (stated === null) expect(answered - asked).toBeGreaterThanOrEqual(grace);
    const expiresAt = stated === null ? Math.ceil((answered + grace) / 1000) * 1000 : Date.parse(stated);
    expect(expiresAt % 1000).toBe(0);
    const early = await delivered('/rotate', await ping(webhook.id));
    const signedAt = Number(early.headers['webhook-timestamp']) * 1000;
    expect([verifies(third, early), verifies(fourth, early)]).toEqual([
      stated !== null && signedAt < expiresAt,
      true,
    ]);
    // Waiting for the clock itself: the grace period is a time, not an event to await.
    await waitFor(() => Date.now() > expiresAt + 100, 'the end of the grace period', 10_000);
    const late = await delivered('/rotate', await ping(webhook.id));
    expect([verifies(third, late), verifies(fourth, late)]).toEqual([false, true]);
    expect(
      (await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhook.id}`)).body.previous_secret_expires_at,
    ).toBeNull();
  }, 60_000);

  it('signs a retry of a delivery queued before the rotation with the new secret', async () => {
    receiver.script('/retried', scripts.failTimes(1, 503));
    const { webhook, secret: old } = await register('/retried');
    const queued = await ping(webhook.id);
    const failed = await watching(waitFor(() => receiver.requests('/retried')[0], 'the first attempt'));
    expect(verifies(old, failed)).toBe(true);

    const rotated = await stack.call<SecretRotated>('POST', `/api/v1/webhooks/${webhook.id}/secret/rotate`, {
      previous_secret_expires_in: 0,
    });
    expect(rotated.status, rotated.text).toBe(200);
    const retry = await delivered('/retried', queued);
    expect(retry.headers['webhook-id']).toBe(queued);
    expect([verifies(old, retry), verifies(rotated.body.secret, retry)]).toEqual([false, true]);
  }, 60_000);
});
