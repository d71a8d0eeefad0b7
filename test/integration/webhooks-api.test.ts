// The webhook and monitor endpoints on the real stack: registrations appended to news.webhooks.v1 and
// news.monitors.v1 and read back through the projector; tenancy; validation; the plan's alert
// endpoint limit; sealed secrets; test pings in the delivery log; monitors sharing an alert webhook;
// changes (PATCH) and secret rotations. What deliveries do after a change: webhook-changes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../api-client/schema.d.ts';
import type { Webhook as WebhookEvent } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { startApiStack, type ApiStack, type ErrorAnswer } from './support/api-stack.ts';
import { recordTopics } from './support/topic-recorder.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

type WebhookCreated = components['schemas']['WebhookCreated'];
type Webhook = components['schemas']['Webhook'];
type WebhookList = components['schemas']['WebhookList'];
type DeliveryList = components['schemas']['WebhookDeliveryList'];
type MonitorCreated = components['schemas']['MonitorCreated'];
type Monitor = components['schemas']['Monitor'];
type SecretRotated = components['schemas']['WebhookSecretRotated'];

describe('webhooks and monitors API', () => {
  let stack: ApiStack;
  let run: string;
  const hook = (name: string) => `http://127.0.0.1:9/${run}/${name}`;

  beforeAll(async () => {
    stack = await startApiStack('hooks');
    run = stack.run;
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  }, 60_000);

  /** A client the API already knows (its directory learns of new clients from a topic). */
  const knownClient = async (client: TestClient) => {
    await waitFor(async () => {
      const answer = await stack.call('GET', '/api/v1/webhooks', undefined, { apiKey: client.apiKey });
      return answer.status === 200;
    }, 'the API to know the new client');
    return client;
  };

  it('registers a webhook, shows the secret once, lists and gets it, and seals the secret it stores', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('a'),
      events: ['news.alert', 'article.published'],
      filter: { categories: ['business'], words: ['merger'] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // Where it is, and not to be kept by a cache: the answer holds the secret.
    expect(created.headers.get('location')).toBe(`/api/v1/webhooks/${created.body.webhook.id}`);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body.webhook).toMatchObject({
      url: hook('a'),
      events: ['news.alert', 'article.published'],
      active: true,
      filter: { categories: ['business'], words: ['merger'], monitor_ids: [] },
    });
    const id = created.body.webhook.id;

    const one = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect(one.text).not.toContain(created.body.secret);
    const list = await stack.call<WebhookList>('GET', '/api/v1/webhooks');
    expect(list.body.webhooks.map((w) => w.id)).toContain(id);

    const [stored] = await stack.clickhouse.query<{ secret_ref: string }>(
      `SELECT secret_ref FROM webhooks WHERE webhook_id = '${id}'`,
    );
    expect(stored!.secret_ref).toMatch(/^sb1:/);
    expect(stored!.secret_ref).not.toContain(created.body.secret.slice('whsec_'.length));
  });

  it("answers 404 for another tenant's webhook, to read or delete, and leaves it alone", async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('mine'),
      events: ['documentary.ready'],
    });
    const id = created.body.webhook.id;
    const other = { apiKey: stack.otherClient.apiKey };
    expect((await stack.call('GET', `/api/v1/webhooks/${id}`, undefined, other)).status).toBe(404);
    expect((await stack.call('DELETE', `/api/v1/webhooks/${id}`, undefined, other)).status).toBe(404);
    expect((await stack.call('POST', `/api/v1/webhooks/${id}/test`, undefined, other)).status).toBe(404);
    const theirs = await stack.call<WebhookList>('GET', '/api/v1/webhooks', undefined, other);
    expect(theirs.body.webhooks.map((w) => w.id)).not.toContain(id);
    expect((await stack.call('GET', `/api/v1/webhooks/${id}`)).status).toBe(200);

    expect((await stack.call('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204);
    expect((await stack.call('GET', `/api/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('refuses unknown events, private or non-http URLs and weak secrets with 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: hook('x'), events: ['news.everything'] }, /^events\.0: each must be one of news\.alert/],
      [{ url: hook('x'), events: [] }, /^events: give at least one/],
      [{ url: 'http://10.1.2.3/hook', events: ['news.alert'] }, /^url: .*private/i],
      [{ url: 'ftp://example.com/hook', events: ['news.alert'] }, /^url: /],
      [{ url: hook('x'), events: ['news.alert'], secret: 'short' }, /^secret: must be whsec_/],
      [{ url: hook('x'), events: ['news.alert'], secret: 'whsec_!!!' }, /^secret: /],
      [{ url: hook('x'), events: ['news.alert'], secret: ' '.repeat(32) }, /^secret: is too easy to guess/],
      [{ url: hook('x'), events: ['news.alert'], secret: 'abababab' }, /^secret: is too easy to guess/],
      [
        { url: 'https://user:pass@example.com/hook', events: ['news.alert'] },
        /^url: must not hold credentials/,
      ],
      // The URL parser would drop the line break and store another URL than the one given.
      [
        { url: `${hook('x')}\r\nX-Injected: 1`, events: ['news.alert'] },
        /^url: must not contain control characters/,
      ],
      // Monitors set monitor_ids: a webhook cannot claim their alerts.
      [
        { url: hook('x'), events: ['news.alert'], filter: { monitor_ids: ['mon_x'] } },
        /^filter\.monitor_ids: is set by monitors .*send \[\] or leave it out/,
      ],
      [
        { url: hook('x'), events: ['article.published'], filter: { catgories: ['world'] } },
        /^filter\.catgories: unknown field/,
      ],
      // A filter narrows article events only: on a webhook receiving none it would do nothing.
      [
        { url: hook('x'), events: ['news.alert'], filter: { categories: ['sports'] } },
        /^filter: categories narrow the article\.published, article\.updated, news\.breaking events/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await stack.call('POST', '/api/v1/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('registers a webhook as a GET shows one (its empty monitor_ids included), to copy it elsewhere', async () => {
    const first = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('copied'),
      events: ['article.published'],
      filter: { categories: ['business'], words: ['merger'] },
    });
    expect(first.status, first.text).toBe(201);
    const read = await stack.call<WebhookCreated['webhook']>(
      'GET',
      `/api/v1/webhooks/${first.body.webhook.id}`,
    );
    expect(read.body.filter?.monitor_ids).toEqual([]);
    expect((await stack.call('DELETE', `/api/v1/webhooks/${first.body.webhook.id}`)).status).toBe(204);
    const copy = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: read.body.url,
      events: read.body.events,
      filter: read.body.filter,
    });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.webhook.filter).toEqual(read.body.filter);
    // One without a filter shows filter: null, which is sent back as it is.
    const open = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('copied-open'),
      events: ['documentary.ready'],
      filter: null,
    });
    expect(open.status, open.text).toBe(201);
    expect(open.body.webhook.filter).toBeNull();
  });

  it('accepts a host name that does not resolve (yet): the dispatcher checks the address at each delivery', async () => {
    // .invalid never resolves (RFC 2606), anywhere: the case of a DNS record not made yet, or of no DNS.
    const url = `https://hooks-${run}.example.invalid/receive`;
    const webhook = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url,
      events: ['documentary.ready'],
    });
    expect(webhook.status, webhook.text).toBe(201);
    expect(webhook.body.webhook.url).toBe(url);
    const monitor = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: `unresolved-${run}`,
      company: 'Acme',
      alert_webhook: `https://alerts-${run}.example.invalid/receive`,
    });
    expect(monitor.status, monitor.text).toBe(201);
    expect(monitor.headers.get('location')).toBe(`/api/v1/crm/monitors/${monitor.body.monitor.id}`);
    expect(monitor.headers.get('cache-control')).toBe('no-store');
  });

  it("enforces the plan's alert endpoints: Essentials registers 3 and the 4th answers 403", async () => {
    const essentials = await knownClient(
      await createTestClient(stack, { name: `Essentials ${run}`, plan: 'essentials' }),
    );
    const as = { apiKey: essentials.apiKey };
    for (let n = 1; n <= 3; n++) {
      const ok = await stack.call(
        'POST',
        '/api/v1/webhooks',
        { url: hook(`e${n}`), events: ['news.alert'] },
        as,
      );
      expect(ok.status, ok.text).toBe(201);
    }
    const fourth = await stack.call(
      'POST',
      '/api/v1/webhooks',
      { url: hook('e4'), events: ['news.alert'] },
      as,
    );
    expect(fourth.status).toBe(403);
    expect(fourth.body.error.code).toBe('plan_limit_reached');
    expect(fourth.body.error.message).toContain('allows 3 alert endpoints');
    // Other events are not alert endpoints.
    const other = await stack.call(
      'POST',
      '/api/v1/webhooks',
      { url: hook('e5'), events: ['documentary.ready'] },
      as,
    );
    expect(other.status).toBe(201);
  });

  it('refuses a second webhook at a URL for an event one there takes, which would deliver it twice', async () => {
    const essentials = await knownClient(
      await createTestClient(stack, { name: `Essentials again ${run}`, plan: 'essentials' }),
    );
    const as = { apiKey: essentials.apiKey };
    const register = (events: string[]) =>
      stack.call<WebhookCreated>('POST', '/api/v1/webhooks', { url: hook('again'), events }, as);
    const first = await register(['news.alert', 'article.published']);
    expect(first.status, first.text).toBe(201);
    const again = await stack.call(
      'POST',
      '/api/v1/webhooks',
      { url: hook('again'), events: ['news.alert'] },
      as,
    );
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict']);
    expect(again.body.error.message).toBe(
      `url: webhook "${first.body.webhook.id}" already sends news.alert to this URL; change it (PATCH /api/v1/webhooks/${first.body.webhook.id}) instead of registering another`,
    );
    // The same endpoint in other spellings: an empty query, a percent-encoded letter.
    const last = hook('again').length - 1;
    for (const spelling of [
      `${hook('again')}?`,
      `${hook('again').slice(0, last)}%${hook('again').charCodeAt(last).toString(16)}`,
    ]) {
      const respelled = await stack.call(
        'POST',
        '/api/v1/webhooks',
        { url: spelling, events: ['news.alert'] },
        as,
      );
      expect([respelled.status, respelled.body.error?.code], spelling).toEqual([409, 'conflict']);
    }
    // A bad value is a 400 before the state is looked at.
    const weak = await stack.call(
      'POST',
      '/api/v1/webhooks',
      { url: hook('again'), events: ['news.alert'], secret: 'short' },
      as,
    );
    expect([weak.status, weak.body.error.message]).toEqual([
      400,
      'secret: must be whsec_<base64> or 8 to 128 characters (got 5)',
    ]);
    // Another event at the same URL is another webhook; the URL still counts once against the plan.
    expect((await register(['documentary.ready'])).status).toBe(201);
    for (const n of [1, 2]) {
      const more = await stack.call(
        'POST',
        '/api/v1/webhooks',
        { url: hook(`again${n}`), events: ['news.alert'] },
        as,
      );
      expect(more.status, more.text).toBe(201);
    }
  });

  it('holds the alert-endpoint limit against registrations sent together', async () => {
    const essentials = await knownClient(
      await createTestClient(stack, { name: `Essentials together ${run}`, plan: 'essentials' }),
    );
    const as = { apiKey: essentials.apiKey };
    const one = await stack.call('POST', '/api/v1/webhooks', { url: hook('t0'), events: ['news.alert'] }, as);
    expect(one.status, one.text).toBe(201);
    // 2 of 3 left; six at once, as webhooks and as monitors on new URLs: exactly 2 get through.
    const answers = await Promise.all([
      ...[1, 2, 3].map((n) =>
        stack.call('POST', '/api/v1/webhooks', { url: hook(`t${n}`), events: ['news.alert'] }, as),
      ),
      ...[4, 5, 6].map((n) =>
        stack.call(
          'POST',
          '/api/v1/crm/monitor',
          { contact_id: `c-${n}`, company: 'Acme Corp', alert_webhook: hook(`t${n}`) },
          as,
        ),
      ),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403, 403]);
    const listed = await stack.call<{ webhooks: Webhook[] }>(
      'GET',
      '/api/v1/webhooks?limit=100',
      undefined,
      as,
    );
    expect(listed.body.webhooks.filter((w) => w.events.includes('news.alert'))).toHaveLength(3);
  }, 60_000);

  it("gives a customer's own webhook back as it was when the last monitor naming its URL is deleted", async () => {
    const recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.webhooks]);
    const url = hook('own');
    const own = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url,
      events: ['article.published'],
      filter: { categories: ['business'] },
    });
    expect(own.status, own.text).toBe(201);
    const id = own.body.webhook.id;
    const monitor = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-own',
      company: 'Initech',
      alert_webhook: url,
    });
    expect(monitor.body.signing).toMatchObject({ created: false, webhook_id: id });
    expect(monitor.body.signing.note).toContain("now also gets this monitor's news.alert");
    const joined = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(joined.body.events).toEqual(['article.published', 'news.alert']);
    expect(joined.body.filter?.monitor_ids).toEqual([monitor.body.monitor.id]);

    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${monitor.body.monitor.id}`)).status).toBe(204);
    const back = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(back.status).toBe(200);
    expect(back.body.events).toEqual(['article.published']);
    expect(back.body.filter).toMatchObject({ categories: ['business'], monitor_ids: [] });

    // Three versions on the topic (registered, joined, given back), each with the one creation time
    // the API shows: the first is not more precise than the ones rebuilt from the read model.
    await waitFor(
      () => recorder.of<WebhookEvent>(topicNames.webhooks).filter((e) => e.key === id).length >= 3,
      'the three versions of the webhook',
    );
    await recorder.stop();
    const versions = recorder.of<WebhookEvent>(topicNames.webhooks).filter((e) => e.key === id);
    expect(versions.map((v) => v.value.version)).toEqual([1, 2, 3]);
    expect(new Set(versions.map((v) => v.value.created_at))).toEqual(
      new Set([Date.parse(own.body.webhook.created_at!)]),
    );
  });

  it('queues a signed test ping, visible in the delivery log; only dead-lettered deliveries are re-sent', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('ping'),
      events: ['news.alert'],
      // A word, as clients choose them: the interface has the client choose the secret.
      secret: 'my-secret-1',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toBe(`whsec_${Buffer.from('my-secret-1').toString('base64')}`);
    const id = created.body.webhook.id;
    const ping = await stack.call<{ delivery_id: string; status: string }>(
      'POST',
      `/api/v1/webhooks/${id}/test`,
    );
    expect(ping.status).toBe(202);
    const log = await waitFor(async () => {
      const answer = await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries`);
      return answer.body.deliveries.length > 0 ? answer.body : null;
    }, 'the ping in the delivery log');
    expect(log.deliveries[0]).toMatchObject({ id: ping.body.delivery_id, event_type: 'webhook.test' });
    const resend = await stack.call(
      'POST',
      `/api/v1/webhooks/${id}/deliveries/${ping.body.delivery_id}/resend`,
    );
    expect([resend.status, resend.body.error.code]).toEqual([409, 'conflict']);
    expect(resend.body.error.message).toMatch(
      /^only a dead-lettered delivery can be sent again; this one is /,
    );
    const bad = await stack.call('GET', `/api/v1/webhooks/${id}/deliveries?status=lost`);
    expect(bad.status).toBe(400);
  });

  it('walks the delivery log by cursor: every delivery once while new ones arrive', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('walk'),
      events: ['article.published'],
    });
    const id = created.body.webhook.id;
    const ping = async () =>
      (await stack.call<{ delivery_id: string }>('POST', `/api/v1/webhooks/${id}/test`)).body.delivery_id;
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push(await ping());
    await waitFor(
      async () =>
        (await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries?limit=100`)).body.deliveries
          .length >= 7,
      'the seven pings in the delivery log',
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const suffix: string = cursor ? `&cursor=${cursor}` : '';
      const answer = await stack.call<DeliveryList>(
        'GET',
        `/api/v1/webhooks/${id}/deliveries?limit=2${suffix}`,
      );
      expect(answer.status, answer.text).toBe(200);
      seen.push(...answer.body.deliveries.map((d) => d.id));
      if (cursor) expect(answer.body.paging.next_offset).toBeNull();
      cursor = answer.body.paging.next_cursor;
      if (!cursor) break;
      // A new delivery between pages: an offset walk would list the previous page's last one again.
      await ping();
      await waitFor(
        async () =>
          (await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries?limit=100`)).body
            .deliveries.length >=
          before.length + page + 1,
        'the new ping in the delivery log',
      );
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(before));
    // An offset with a cursor skips that many after it, as the article list does.
    const first = await stack.call<DeliveryList>('GET', `/api/v1/webhooks/${id}/deliveries?limit=1`);
    const after = first.body.paging.next_cursor!;
    const next = await stack.call<DeliveryList>(
      'GET',
      `/api/v1/webhooks/${id}/deliveries?limit=3&cursor=${after}`,
    );
    const skipped = await stack.call<DeliveryList>(
      'GET',
      `/api/v1/webhooks/${id}/deliveries?limit=1&cursor=${after}&offset=2`,
    );
    expect(skipped.body.deliveries.map((d) => d.id)).toEqual([next.body.deliveries[2]!.id]);
    expect(skipped.body.paging.offset).toBe(2);
    const junk = await stack.call('GET', `/api/v1/webhooks/${id}/deliveries?cursor=bm90IGEgY3Vyc29y`);
    expect([junk.status, junk.body.error.message]).toEqual([
      400,
      'cursor: is not a delivery cursor returned by this API',
    ]);
  }, 120_000);

  it("monitors share their tenant's webhook for the same URL, and a webhook made for monitors goes with the last one", async () => {
    const url = hook('crm');
    const first = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-1',
      company: 'Acme Corp',
      aliases: ['Acme'],
      alert_webhook: url,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body.monitor).toMatchObject({
      contact_id: 'c-1',
      company: 'Acme Corp',
      aliases: ['Acme'],
      active: true,
    });
    expect(first.body.signing.created).toBe(true);
    expect(first.body.signing.secret).toMatch(/^whsec_/);
    expect(first.body.created).toBe(true);
    const webhookId = first.body.signing.webhook_id;

    // The same monitor posted again (a retry after a lost answer): answered again, not made twice, so
    // its alerts are not sent twice. Other aliases make another monitor.
    const again = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-1',
      company: 'Acme Corp',
      aliases: ['Acme', 'Acme'],
      alert_webhook: url,
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: false, monitor: { id: first.body.monitor.id } });
    expect(again.body.signing).toMatchObject({ created: false, secret: null, webhook_id: webhookId });
    // Names as the matcher compares them: "ACME corp" would raise the same alerts.
    const recased = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-1',
      company: 'ACME corp',
      aliases: ['acme'],
      alert_webhook: url,
    });
    expect([recased.status, recased.body.monitor.id]).toEqual([200, first.body.monitor.id]);
    // And with another legal form, which the matcher takes as optional: the same alerts again.
    const relegal = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-1',
      company: 'Acme Corporation',
      aliases: ['Acme Inc.'],
      alert_webhook: url,
    });
    expect([relegal.status, relegal.body.monitor.id]).toEqual([200, first.body.monitor.id]);
    const filterAfterRetry = await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhookId}`);
    expect(filterAfterRetry.body.filter?.monitor_ids).toEqual([first.body.monitor.id]);

    const second = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-2',
      company: 'Globex',
      alert_webhook: url,
    });
    expect(second.body.signing).toMatchObject({ created: false, secret: null, webhook_id: webhookId });
    const shared = await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhookId}`);
    expect(shared.body.filter?.monitor_ids.sort()).toEqual(
      [first.body.monitor.id, second.body.monitor.id].sort(),
    );

    const listed = await stack.call<{ monitors: Monitor[] }>('GET', '/api/v1/crm/monitors');
    expect(listed.body.monitors.map((m) => m.id)).toEqual(
      expect.arrayContaining([first.body.monitor.id, second.body.monitor.id]),
    );
    const other = { apiKey: stack.otherClient.apiKey };
    expect(
      (await stack.call('GET', `/api/v1/crm/monitors/${first.body.monitor.id}`, undefined, other)).status,
    ).toBe(404);
    expect(
      (await stack.call('DELETE', `/api/v1/crm/monitors/${first.body.monitor.id}`, undefined, other)).status,
    ).toBe(404);

    // Deleting the webhook under them would leave both monitors active with nowhere to send alerts.
    const refused = await stack.call('DELETE', `/api/v1/webhooks/${webhookId}`);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'conflict']);
    expect(refused.body.error.message).toContain(first.body.monitor.id);
    expect((await stack.call('GET', `/api/v1/webhooks/${webhookId}`)).status).toBe(200);

    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${first.body.monitor.id}`)).status).toBe(204);
    const narrowed = await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhookId}`);
    expect(narrowed.body.filter?.monitor_ids).toEqual([second.body.monitor.id]);
    // Deleted, it is no longer "the same monitor": posting it again makes a new one.
    const remade = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'c-1',
      company: 'Acme Corp',
      aliases: ['Acme'],
      alert_webhook: url,
    });
    expect([remade.status, remade.body.created], remade.text).toEqual([201, true]);
    expect(remade.body.monitor.id).not.toBe(first.body.monitor.id);
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${remade.body.monitor.id}`)).status).toBe(204);
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${second.body.monitor.id}`)).status).toBe(204);
    expect((await stack.call('GET', `/api/v1/webhooks/${webhookId}`)).status).toBe(404);
    expect((await stack.call('GET', `/api/v1/crm/monitors/${second.body.monitor.id}`)).status).toBe(404);

    const invalid = await stack.call('POST', '/api/v1/crm/monitor', {
      contact_id: 'c',
      company: 'A',
      alert_webhook: url,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/^company: must be at least 2 characters/);
    for (const [company, message] of [
      ['!!!', /^company: must contain a letter or a digit/],
      ['\u200b\u200b\u200b', /^company: must not contain control or invisible characters/],
      ['Ac\u0000me', /^company: must not contain control or invisible characters/],
    ] as const) {
      const refused = await stack.call('POST', '/api/v1/crm/monitor', {
        contact_id: 'c',
        company,
        alert_webhook: url,
      });
      expect(refused.status, company).toBe(400);
      expect(refused.body.error.message).toMatch(message);
    }
  });

  it('refuses to test a disabled webhook instead of queueing a ping nothing will send', async () => {
    const recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.webhooks]);
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('gone'),
      events: ['article.published'],
    });
    const id = created.body.webhook.id;
    await waitFor(
      () => recorder.of<WebhookEvent>(topicNames.webhooks).some((e) => e.key === id),
      'the registration on the topic',
    );
    await recorder.stop();
    const [registered] = recorder.of<WebhookEvent>(topicNames.webhooks).filter((e) => e.key === id);
    // As the dispatcher disables it when the endpoint answers 410 Gone.
    await stack.producer.send(topicNames.webhooks, [
      {
        key: id,
        value: {
          ...registered!.value,
          active: false,
          disabled_reason: 'the endpoint answered 410 Gone',
          version: 2,
          occurred_at: Date.now(),
        },
      },
    ]);
    await waitFor(
      async () => (await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`)).body.active === false,
      'the webhook to show disabled',
    );
    const test = await stack.call('POST', `/api/v1/webhooks/${id}/test`);
    expect([test.status, test.body.error.code]).toEqual([409, 'conflict']);
    expect(test.body.error.message).toMatch(/is disabled \(the endpoint answered 410 Gone\)/);
    expect((await stack.call('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204);
  });

  it("hands a disabled monitor webhook's monitors to the webhook a new monitor at its URL gets", async () => {
    const url = hook('replaced');
    const monitor = (contact: string) =>
      stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
        contact_id: contact,
        company: `Replaced ${contact}`,
        aliases: [],
        alert_webhook: url,
      });
    const recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.webhooks]);
    const first = await monitor('r-1');
    expect(first.status, first.text).toBe(201);
    const old = first.body.signing.webhook_id;
    const registered = await waitFor(
      () => recorder.of<WebhookEvent>(topicNames.webhooks).find((e) => e.key === old && e.value !== null),
      'the registration on the topic',
    );
    await recorder.stop();
    // As the dispatcher disables it when the endpoint answers 410 Gone.
    await stack.producer.send(topicNames.webhooks, [
      {
        key: old,
        value: {
          ...registered.value,
          active: false,
          disabled_reason: 'the endpoint answered 410 Gone',
          version: registered.value.version + 1,
          occurred_at: Date.now(),
        },
      },
    ]);
    await waitFor(
      async () => (await stack.call<Webhook>('GET', `/api/v1/webhooks/${old}`)).body.active === false,
      'the webhook to show disabled',
    );
    expect(first.body.monitor.delivery).toEqual({ webhook_id: old, status: 'active', disabled_reason: null });
    // Still active itself, the monitor says why its alerts do not arrive.
    const stuck = await stack.call<Monitor>('GET', `/api/v1/crm/monitors/${first.body.monitor.id}`);
    expect([stuck.body.active, stuck.body.delivery]).toEqual([
      true,
      { webhook_id: old, status: 'disabled', disabled_reason: 'the endpoint answered 410 Gone' },
    ]);
    // Posted again (a CRM's re-sync): the same monitor, and the answer says its webhook sends nothing.
    const again = await monitor('r-1');
    expect([again.status, again.body.monitor.id]).toEqual([200, first.body.monitor.id]);
    expect(again.body.signing.note).toContain(
      `The service disabled it (the endpoint answered 410 Gone): nothing is sent to it until it is resumed`,
    );

    // Before, the new monitor got a webhook of its own and the first monitor's alerts went nowhere: its
    // webhook could not be resumed beside the new one (a second for news.alert at the URL, a 409).
    const second = await monitor('r-2');
    expect(second.status, second.text).toBe(201);
    const { signing } = second.body;
    expect(signing.created).toBe(true);
    expect(signing.webhook_id).not.toBe(old);
    expect(signing.note).toContain(
      `It replaces webhook ${old}, which the service disabled (the endpoint answered 410 Gone), now deleted: ` +
        `the alerts of monitor ${first.body.monitor.id} go to it too.`,
    );
    const replacement = await stack.call<Webhook>('GET', `/api/v1/webhooks/${signing.webhook_id}`);
    expect(replacement.body).toMatchObject({ url, events: ['news.alert'], active: true });
    expect(replacement.body.filter?.monitor_ids).toEqual([first.body.monitor.id, second.body.monitor.id]);
    // Made for that monitor alone, the disabled webhook went with it.
    expect((await stack.call('GET', `/api/v1/webhooks/${old}`)).status).toBe(404);
    const listed = await stack.call<{ monitors: Monitor[] }>('GET', '/api/v1/crm/monitors?limit=100');
    for (const id of [first.body.monitor.id, second.body.monitor.id])
      expect(listed.body.monitors.find((m) => m.id === id)?.delivery).toEqual({
        webhook_id: signing.webhook_id,
        status: 'active',
        disabled_reason: null,
      });

    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${first.body.monitor.id}`)).status).toBe(204);
    const after = await stack.call<Webhook>('GET', `/api/v1/webhooks/${signing.webhook_id}`);
    expect(after.body.filter?.monitor_ids).toEqual([second.body.monitor.id]);
    expect((await stack.call('DELETE', `/api/v1/crm/monitors/${second.body.monitor.id}`)).status).toBe(204);
  }, 60_000);

  it('keeps one webhook per alert_webhook when monitors are created and deleted at the same time', async () => {
    const url = hook('together');
    const created = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
          contact_id: `t-${n}`,
          company: `Together ${n}`,
          alert_webhook: url,
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual([201, 201, 201, 201]);
    // One webhook made, one secret; the other three joined it, and its filter names all four.
    expect(created.filter((c) => c.body.signing.created)).toHaveLength(1);
    const webhookIds = new Set(created.map((c) => c.body.signing.webhook_id));
    expect(webhookIds.size).toBe(1);
    const [webhookId] = [...webhookIds];
    const shared = await stack.call<Webhook>('GET', `/api/v1/webhooks/${webhookId}`);
    expect(shared.body.filter?.monitor_ids.sort()).toEqual(created.map((c) => c.body.monitor.id).sort());

    const deleted = await Promise.all(
      created.map((c) => stack.call('DELETE', `/api/v1/crm/monitors/${c.body.monitor.id}`)),
    );
    expect(deleted.map((d) => d.status)).toEqual([204, 204, 204, 204]);
    // Gone with its last monitor, not left behind naming deleted ones.
    expect((await stack.call('GET', `/api/v1/webhooks/${webhookId}`)).status).toBe(404);
  }, 120_000);
  it('changes the URL, events and filter: the answer is what GET shows, and the topic has the next version', async () => {
    const recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.webhooks]);
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('patch-a'),
      events: ['article.published'],
      filter: { categories: ['business'] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.webhook.id;

    const changed = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, {
      url: `${hook('patch-b')}#fragment`,
      events: ['article.updated', 'news.breaking', 'news.breaking'],
      filter: { languages: ['en'], words: ['merger'] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      id,
      url: hook('patch-b'),
      events: ['article.updated', 'news.breaking'],
      // The filter is replaced whole: categories, left out, is empty now.
      filter: { categories: [], source_ids: [], languages: ['en'], words: ['merger'], monitor_ids: [] },
      active: true,
      disabled_reason: null,
      created_at: created.body.webhook.created_at,
    });
    const read = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(read.body).toEqual(changed.body);
    expect(changed.text).not.toContain(created.body.secret);

    // A change that changes nothing appends nothing; removing the filter is the third version.
    expect(
      (await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, { url: hook('patch-b') })).status,
    ).toBe(200);
    const cleared = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, { filter: null });
    expect(cleared.body.filter).toBeNull();
    expect((await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`)).body.filter).toBeNull();

    await waitFor(
      () => recorder.of<WebhookEvent>(topicNames.webhooks).filter((e) => e.key === id).length >= 3,
      'the three versions of the webhook',
    );
    await recorder.stop();
    const versions = recorder.of<WebhookEvent>(topicNames.webhooks).filter((e) => e.key === id);
    expect(versions.map((v) => v.value.version)).toEqual([1, 2, 3]);
    expect(versions.map((v) => v.value.url)).toEqual([hook('patch-a'), hook('patch-b'), hook('patch-b')]);
    // The third is the filter's removal: the change that changed nothing wrote no version of its own.
    expect(versions.map((v) => v.value.filter === null)).toEqual([false, false, true]);
    // One secret throughout, and each state when it came into effect.
    expect(new Set(versions.map((v) => v.value.secret_ref)).size).toBe(1);
    expect(versions[1]!.value.occurred_at).toBeGreaterThanOrEqual(versions[0]!.value.occurred_at);
    expect(versions[2]!.value.occurred_at).toBeGreaterThanOrEqual(versions[1]!.value.occurred_at);
  });

  it('refuses a bad change with 400 naming the field, and changes nothing', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('patch-bad'),
      events: ['documentary.ready'],
    });
    const id = created.body.webhook.id;
    const cases: [unknown, RegExp][] = [
      [{}, /^body: give at least one of url, events, filter, active$/],
      [{ url: 'http://10.1.2.3/hook' }, /^url: .*private/i],
      [{ url: 'https://user:pass@example.com/hook' }, /^url: must not hold credentials/],
      [{ url: `${hook('x')}\r\nX-Injected: 1` }, /^url: must not contain control characters/],
      [{ url: 'http:///hook' }, /^url: has no host/],
      [{ url: 'http://example.com:0/hook' }, /^url: has port 0/],
      [{ events: [] }, /^events: give at least one/],
      [{ events: ['news.everything'] }, /^events\.0: each must be one of news\.alert/],
      [{ filter: { catgories: ['world'] } }, /^filter\.catgories: unknown field/],
      [{ filter: { monitor_ids: ['mon_x'] } }, /^filter\.monitor_ids: is set by the monitors/],
      [{ active: 'no' }, /^active: must be true or false/],
      [{ secret: 'a-new-secret-of-enough-length' }, /^secret: unknown field/],
    ];
    for (const [body, message] of cases) {
      const answer = await stack.call('PATCH', `/api/v1/webhooks/${id}`, body);
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([
        400,
        'invalid_parameter',
      ]);
      expect(answer.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    const unchanged = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(unchanged.body).toEqual(created.body.webhook);

    const other = { apiKey: stack.otherClient.apiKey };
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/webhooks/${id}`, { active: false }],
      ['POST', `/api/v1/webhooks/${id}/secret/rotate`, {}],
    ] as const) {
      const answer = await stack.call(method, path, body, other);
      expect([answer.status, answer.body.error.code], `${method} ${path}`).toEqual([404, 'not_found']);
    }
    expect((await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`)).body).toEqual(created.body.webhook);
  });

  it("keeps a monitor's webhook its monitors, URL and news.alert; a paused one is joined, not doubled", async () => {
    const url = hook('patch-crm');
    const first = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'p-1',
      company: 'Patchwork Industries',
      alert_webhook: url,
    });
    expect(first.status, first.text).toBe(201);
    const id = first.body.signing.webhook_id;
    const monitorIds = [first.body.monitor.id];

    // Its filter can change; its monitor_ids stay, also when a GET is sent back as it is.
    const narrowed = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, {
      events: ['news.alert', 'article.published'],
      filter: { categories: ['business'] },
    });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body.filter).toMatchObject({ categories: ['business'], monitor_ids: monitorIds });
    const roundTrip = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, {
      filter: { ...narrowed.body.filter!, words: ['merger'] },
    });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.filter).toMatchObject({ words: ['merger'], monitor_ids: monitorIds });

    const refusals: [unknown, number, RegExp][] = [
      [{ filter: { monitor_ids: [] } }, 400, new RegExp(`^filter\\.monitor_ids: .*\\(${monitorIds[0]}\\)`)],
      [
        { url: hook('patch-elsewhere') },
        409,
        new RegExp(`^url: webhook "${id}" is the alert_webhook of 1 monitor`),
      ],
      [{ events: ['article.published'] }, 409, /^events: .*must keep news\.alert/],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await stack.call('PATCH', `/api/v1/webhooks/${id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error.message).toMatch(message);
    }

    // Paused, it is still the webhook at that URL: a new monitor there joins it, and is told it is paused.
    const paused = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, { active: false });
    expect(paused.body).toMatchObject({ active: false, disabled_reason: null });
    const second = await stack.call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'p-2',
      company: 'Quilting Partners',
      alert_webhook: url,
    });
    expect(second.body.signing).toMatchObject({ created: false, webhook_id: id, secret: null });
    expect(second.body.signing.note).toContain('It is paused');
    const ping = await stack.call('POST', `/api/v1/webhooks/${id}/test`);
    expect([ping.status, ping.body.error.code]).toEqual([409, 'conflict']);
    expect(ping.body.error.message).toMatch(/is paused: .*resume it with PATCH/);

    // Deleting the monitors still takes them out of the paused webhook, which keeps article.published.
    for (const monitor of [first.body.monitor.id, second.body.monitor.id])
      expect((await stack.call('DELETE', `/api/v1/crm/monitors/${monitor}`)).status).toBe(204);
    const left = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(left.body).toMatchObject({ events: ['article.published'], active: false });
    expect(left.body.filter?.monitor_ids).toEqual([]);
    // With no monitor left, its URL may change.
    const moved = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${id}`, { url: hook('patch-moved') });
    expect([moved.status, moved.body.url]).toEqual([200, hook('patch-moved')]);
  });

  it("keeps a webhook that gets every alert while monitors joined it at its URL; a change may not double a URL's events", async () => {
    const client = await knownClient(await createTestClient(stack, { name: `Joined ${run}` }));
    const as = { apiKey: client.apiKey };
    const call = <T = ErrorAnswer>(method: string, path: string, body?: unknown) =>
      stack.call<T>(method, path, body, as);
    const url = hook('joined');
    const everyAlert = await call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url,
      events: ['news.alert'],
    });
    expect(everyAlert.status, everyAlert.text).toBe(201);
    const id = everyAlert.body.webhook.id;
    const monitor = await call<MonitorCreated>('POST', '/api/v1/crm/monitor', {
      contact_id: 'j-1',
      company: 'Joinery Holdings',
      alert_webhook: url,
    });
    expect(monitor.body.signing).toMatchObject({ created: false, webhook_id: id });
    const monitorId = monitor.body.monitor.id;

    const refusals: [string, unknown, RegExp][] = [
      [
        'DELETE',
        undefined,
        new RegExp(
          `alert_webhook of 1 monitor\\(s\\) \\(${monitorId}\\): delete them first \\(then this webhook\\)`,
        ),
      ],
      ['PATCH', { events: ['article.published'] }, /^events: .*must keep news\.alert/],
      ['PATCH', { url: hook('joined-moved') }, /^url: .*alert_webhook of 1 monitor/],
    ];
    for (const [method, body, message] of refusals) {
      const answer = await call(method, `/api/v1/webhooks/${id}`, body);
      expect([answer.status, answer.body.error?.code], `${method} ${JSON.stringify(body)}`).toEqual([
        409,
        'conflict',
      ]);
      expect(answer.body.error.message).toMatch(message);
    }
    expect((await call('DELETE', `/api/v1/crm/monitors/${monitorId}`)).status).toBe(204);
    expect((await call<Webhook>('GET', `/api/v1/webhooks/${id}`)).body).toMatchObject({
      events: ['news.alert'],
    });
    expect((await call('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204);

    // Moved, given an event, or resumed onto a URL where another webhook takes that event: refused as a
    // second registration there is.
    const first = await call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('dup-a'),
      events: ['documentary.ready'],
    });
    const other = await call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('dup-b'),
      events: ['documentary.ready'],
    });
    expect([first.status, other.status]).toEqual([201, 201]);
    const otherPath = `/api/v1/webhooks/${other.body.webhook.id}`;
    const moved = await call('PATCH', otherPath, { url: hook('dup-a') });
    expect([moved.status, moved.body.error?.message]).toEqual([
      409,
      `url: webhook "${first.body.webhook.id}" already sends documentary.ready to this URL; change it (PATCH /api/v1/webhooks/${first.body.webhook.id}) instead of registering another`,
    ]);
    const elsewhere = await call<Webhook>('PATCH', otherPath, { events: ['article.updated'] });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    const beside = await call<Webhook>('PATCH', otherPath, { url: hook('dup-a') });
    expect([beside.status, beside.body.url]).toEqual([200, hook('dup-a')]);
    const doubled = await call('PATCH', otherPath, { events: ['article.updated', 'documentary.ready'] });
    expect([doubled.status, doubled.body.error?.code]).toEqual([409, 'conflict']);
    const listed = await call<{ webhooks: Webhook[] }>('GET', '/api/v1/webhooks');
    expect(
      listed.body.webhooks
        .filter((w) => w.url === hook('dup-a'))
        .map((w) => w.events)
        .sort(),
    ).toEqual([['article.updated'], ['documentary.ready']]);
  });

  it('resumes a webhook the service disabled, and counts a resumed alert endpoint against the plan', async () => {
    const essentials = await knownClient(
      await createTestClient(stack, { name: `Essentials resume ${run}`, plan: 'essentials' }),
    );
    const as = { apiKey: essentials.apiKey };
    const ids: string[] = [];
    const createdAt: (string | null)[] = [];
    for (const n of [1, 2, 3]) {
      const ok = await stack.call<WebhookCreated>(
        'POST',
        '/api/v1/webhooks',
        { url: hook(`r${n}`), events: ['news.alert'] },
        as,
      );
      expect(ok.status, ok.text).toBe(201);
      ids.push(ok.body.webhook.id);
      createdAt.push(ok.body.webhook.created_at);
    }
    // Paused, the first one is not an alert endpoint: a fourth fits, and then the first cannot resume.
    expect((await stack.call('PATCH', `/api/v1/webhooks/${ids[0]}`, { active: false }, as)).status).toBe(200);
    const fourth = await stack.call(
      'POST',
      '/api/v1/webhooks',
      { url: hook('r4'), events: ['news.alert'] },
      as,
    );
    expect(fourth.status, fourth.text).toBe(201);
    const refused = await stack.call('PATCH', `/api/v1/webhooks/${ids[0]}`, { active: true }, as);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'plan_limit_reached']);
    expect((await stack.call<Webhook>('GET', `/api/v1/webhooks/${ids[0]}`, undefined, as)).body.active).toBe(
      false,
    );
    // Nor can another webhook take news.alert on.
    const other = await stack.call<WebhookCreated>(
      'POST',
      '/api/v1/webhooks',
      { url: hook('r5'), events: ['documentary.ready'] },
      as,
    );
    const widened = await stack.call(
      'PATCH',
      `/api/v1/webhooks/${other.body.webhook.id}`,
      { events: ['news.alert'] },
      as,
    );
    expect([widened.status, widened.body.error.code]).toEqual([403, 'plan_limit_reached']);

    // Disabled by the service (as the dispatcher does on 410 Gone), then resumed by the tenant.
    const recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.webhooks]);
    const victim = ids[1]!;
    const state = await waitFor(async () => {
      const [row] = await stack.clickhouse.query<{ secret_ref: string }>(
        `SELECT secret_ref FROM webhooks WHERE webhook_id = '${victim}'`,
      );
      return row;
    }, 'the stored registration');
    await stack.producer.send(topicNames.webhooks, [
      {
        key: victim,
        value: {
          webhook_id: victim,
          tenant_id: essentials.tenantId,
          url: hook('r2'),
          events: ['news.alert'],
          filter: null,
          secret_ref: state.secret_ref,
          previous_secret_ref: null,
          previous_secret_expires_at: null,
          active: false,
          disabled_reason: 'the endpoint answered 410 Gone',
          created_at: Date.parse(createdAt[1]!),
          version: 2,
          occurred_at: Date.now(),
        } satisfies WebhookEvent,
      },
    ]);
    await waitFor(
      async () =>
        (await stack.call<Webhook>('GET', `/api/v1/webhooks/${victim}`, undefined, as)).body
          .disabled_reason !== null,
      'the webhook to show disabled',
    );
    const resumed = await stack.call<Webhook>('PATCH', `/api/v1/webhooks/${victim}`, { active: true }, as);
    expect(resumed.status, resumed.text).toBe(200);
    // The reason is gone with the state it described, in the read model as on the topic.
    expect(resumed.body).toMatchObject({ active: true, disabled_reason: null });
    expect((await stack.call<Webhook>('GET', `/api/v1/webhooks/${victim}`, undefined, as)).body).toEqual(
      resumed.body,
    );
    await waitFor(
      () =>
        recorder.of<WebhookEvent>(topicNames.webhooks).some((e) => e.key === victim && e.value.version === 3),
      'the resumed state on the topic',
    );
    await recorder.stop();
    expect(
      recorder.of<WebhookEvent>(topicNames.webhooks).find((e) => e.key === victim && e.value.version === 3)!
        .value,
    ).toMatchObject({ active: true, disabled_reason: null, secret_ref: state.secret_ref });
  }, 60_000);

  it('rotates the secret: the new one shown once and stored sealed, the old one kept until the grace period ends', async () => {
    const created = await stack.call<WebhookCreated>('POST', '/api/v1/webhooks', {
      url: hook('rotate'),
      events: ['documentary.ready'],
    });
    const id = created.body.webhook.id;
    expect(created.body.webhook.previous_secret_expires_at).toBeNull();
    const sealed = async () =>
      (
        await stack.clickhouse.query<{ secret_ref: string; previous_secret_ref: string | null }>(
          `SELECT secret_ref, previous_secret_ref FROM webhooks WHERE webhook_id = '${id}' ORDER BY version DESC LIMIT 1`,
        )
      )[0]!;
    const before = await sealed();

    const asked = Date.now();
    const rotated = await stack.call<SecretRotated>('POST', `/api/v1/webhooks/${id}/secret/rotate`, {
      secret: 'a-brand-new-customer-chosen-secret',
      previous_secret_expires_in: 3600,
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.secret).toBe(
      `whsec_${Buffer.from('a-brand-new-customer-chosen-secret').toString('base64')}`,
    );
    const expires = Date.parse(rotated.body.webhook.previous_secret_expires_at!);
    expect(expires).toBeGreaterThanOrEqual(asked + 3_600_000);
    expect(expires).toBeLessThan(Date.now() + 3_602_000);
    const read = await stack.call<Webhook>('GET', `/api/v1/webhooks/${id}`);
    expect(read.body).toEqual(rotated.body.webhook);
    expect(read.text).not.toContain(rotated.body.secret);
    expect(read.text).not.toContain(created.body.secret);
    const after = await sealed();
    expect(after.previous_secret_ref).toBe(before.secret_ref);
    expect(after.secret_ref).toMatch(/^sb1:/);
    expect(after.secret_ref).not.toContain(rotated.body.secret.slice('whsec_'.length));

    // The secret it signs with now is not a rotation; a weak one is refused as at registration.
    for (const [body, message] of [
      [
        { secret: 'a-brand-new-customer-chosen-secret' },
        /^secret: is the secret this webhook signs with now/,
      ],
      [{ secret: 'short' }, /^secret: must be whsec_/],
      [{ previous_secret_expires_in: 604_801 }, /^previous_secret_expires_in: must be at most 604800/],
    ] as const) {
      const answer = await stack.call('POST', `/api/v1/webhooks/${id}/secret/rotate`, body);
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([
        400,
        'invalid_parameter',
      ]);
      expect(answer.body.error.message).toMatch(message);
    }

    // Without a body: a generated secret, the previous one for a day; a second rotation keeps only the
    // immediately previous secret.
    const again = await stack.call<SecretRotated>('POST', `/api/v1/webhooks/${id}/secret/rotate`);
    expect(again.status, again.text).toBe(200);
    expect(again.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(again.body.webhook.previous_secret_expires_at!)).toBeGreaterThanOrEqual(
      Date.now() + 86_400_000 - 60_000,
    );
    expect((await sealed()).previous_secret_ref).toBe(after.secret_ref);
    // A grace period of 0: the new secret alone, at once.
    const now = await stack.call<SecretRotated>('POST', `/api/v1/webhooks/${id}/secret/rotate`, {
      previous_secret_expires_in: 0,
    });
    expect(now.body.webhook.previous_secret_expires_at).toBeNull();
    expect((await sealed()).previous_secret_ref).toBeNull();
  });
});
