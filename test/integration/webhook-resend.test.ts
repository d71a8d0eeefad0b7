// Test pings and re-sends through the API with a real dispatcher process: a ping to an endpoint that
// keeps failing is dead-lettered after the (shortened) schedule and shows so in the delivery log; once
// the endpoint works, POST .../resend delivers the same payload with the same webhook-id.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../api-client/schema.d.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { provisionRetryTopics } from './support/retry-topics.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { waitFor } from './support/wait.ts';
import { scripts, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type DeliveryList = components['schemas']['WebhookDeliveryList'];

const schedule = ['1s', '1s'];

describe('webhook test pings and re-sends', () => {
  let stack: ApiStack;
  let receiver: WebhookReceiver;
  let dispatcher: ServiceProcess | undefined;

  beforeAll(async () => {
    stack = await startApiStack('resend');
    receiver = await startWebhookReceiver();
    const admin = stack.kafka.admin();
    await admin.connect();
    try {
      await provisionRetryTopics(admin, schedule);
    } finally {
      await admin.disconnect();
    }
    dispatcher = startServiceProcess('dispatcher', {
      DISPATCHER_GROUP: `resend-dispatcher-${stack.run}`,
      DISPATCHER_FROM_BEGINNING: 'false',
      WEBHOOK_RETRY_SCHEDULE: schedule.join(','),
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    await waitFor(() => dispatcher!.output().includes('dispatcher started'), 'the dispatcher', 90_000);
  }, 180_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
    await stack?.close();
  }, 60_000);

  it('dead-letters a ping the endpoint keeps refusing, and re-sends it once the endpoint works', async () => {
    receiver.script('/hook', scripts.always(503));
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/hook'),
      events: ['news.alert'],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.webhook.id;
    const ping = await stack.call<{ delivery_id: string }>('POST', `/api/v1/webhooks/${id}/test`);
    expect(ping.status).toBe(202);

    const dead = await waitFor(
      async () => {
        const log = await stack.call<DeliveryList>(
          'GET',
          `/api/v1/webhooks/${id}/deliveries?status=dead_lettered`,
        );
        return log.body.deliveries[0] ?? null;
      },
      'the ping to be dead-lettered',
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${dispatcher!.output()}`);
    });
    expect(dead).toMatchObject({ id: ping.body.delivery_id, attempts: 3, last_http_status: 503 });
    expect(receiver.requests('/hook')).toHaveLength(3);

    receiver.script('/hook', scripts.ok());
    const resent = await stack.call(
      'POST',
      `/api/v1/webhooks/${id}/deliveries/${ping.body.delivery_id}/resend`,
    );
    expect(resent.status, resent.text).toBe(202);
    const delivered = await waitFor(
      () => receiver.requests('/hook').find((r) => r.answered === 200),
      'the re-sent ping',
      30_000,
    );
    expect(delivered.headers['webhook-id']).toBe(ping.body.delivery_id);
    const payload = new StandardWebhook(created.body.secret).verify(delivered.body, delivered.headers);
    expect(payload).toMatchObject({ event: 'webhook.test', data: { webhook_id: id } });
    await waitFor(async () => {
      const log = await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries?status=succeeded`);
      return log.body.deliveries.some((d) => d.id === ping.body.delivery_id);
    }, 'the delivery log to show it succeeded');
  }, 120_000);

  it('re-sends a dead-lettered delivery from the admin command too', async () => {
    receiver.script('/admin', scripts.always(500));
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: receiver.url('/admin'),
      events: ['documentary.ready'],
    });
    const id = created.body.webhook.id;
    const ping = await stack.call<{ delivery_id: string }>('POST', `/api/v1/webhooks/${id}/test`);
    await waitFor(
      async () => {
        const log = await stack.call<DeliveryList>(
          'GET',
          `/api/v1/webhooks/${id}/deliveries?status=dead_lettered`,
        );
        return log.body.deliveries.length > 0;
      },
      'the ping to be dead-lettered',
      60_000,
    );
    const env = { ...process.env, CLICKHOUSE_DATABASE: stack.database, LOG_LEVEL: 'warn' };
    const listed = await run(['dead-letters', '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: ping.body.delivery_id, webhook_id: id })]),
    );

    receiver.script('/admin', scripts.ok());
    const resent = await run(['resend', ping.body.delivery_id], env);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toContain(`${ping.body.delivery_id}: queued again for webhook ${id}`);
    const delivered = await waitFor(
      () => receiver.requests('/admin').find((r) => r.answered === 200),
      'the re-sent ping',
      30_000,
    );
    expect(delivered.headers['webhook-id']).toBe(ping.body.delivery_id);
    // A delivery that is not dead-lettered (any more) is refused, with the reason.
    await waitFor(async () => {
      const log = await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries?status=succeeded`);
      return log.body.deliveries.length > 0;
    }, 'the delivery log to show it succeeded');
    const again = await run(['resend', ping.body.delivery_id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('only a dead-lettered delivery can be sent again; this one is succeeded');
  }, 120_000);
});

/** Runs `npm run webhooks -- <args>` as a newcomer would (through tsx), to its end. */
function run(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/webhooks/main.ts', ...args], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
