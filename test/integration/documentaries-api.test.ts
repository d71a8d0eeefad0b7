// The documentary endpoints on the real stack: a request appended to news.documentaries.v1 and read back
// through the projector (202 with its state, read-your-writes); later lifecycle events, as the
// documentary processor appends them, show through GET with signed URLs; tenancy; validation; paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../api-client/schema.d.ts';
import type { Documentary as DocumentaryEvent } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { createTestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

type Documentary = components['schemas']['Documentary'];
type DocumentaryList = components['schemas']['DocumentaryList'];

describe('documentaries API', () => {
  let stack: ApiStack;

  beforeAll(async () => {
    stack = await startApiStack('docs');
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  }, 60_000);

  const request = (body: unknown, apiKey?: string) =>
    stack.call<Documentary>('POST', '/api/v1/documentaries', body, apiKey ? { apiKey } : undefined);

  /** A tenant of its own (its own five places), once the API knows its client. */
  const newClient = async (name: string) => {
    const client = await createTestClient(stack, { name: `${name} ${stack.run}` });
    await waitFor(
      async () =>
        (await stack.call('GET', '/api/v1/documentaries', undefined, { apiKey: client.apiKey })).status ===
        200,
      'the API to know the new client',
    );
    return client;
  };

  /** The failed event the processor would append for a documentary the API accepted. */
  const failedEvent = (created: Documentary, tenantId: string, reason: string): DocumentaryEvent => ({
    documentary_id: created.id,
    tenant_id: tenantId,
    topic: created.topic,
    sources: created.sources,
    format: created.format,
    status: 'failed',
    progress: null,
    stage: null,
    audio_url: null,
    transcript_url: null,
    duration_ms: null,
    failure_reason: reason,
    requested_at: Date.parse(created.created_at),
    period_from: Date.parse(created.period.from!),
    period_to: Date.parse(created.period.to!),
    date_range: null,
    language: null,
    voice: null,
    script_writer: null,
    length: 'medium',
    max_articles: null,
    articles: [],
    segments: [],
    audio_key: null,
    transcript_key: null,
    transcript_json_key: null,
    failure_code: 'no_articles',
    occurred_at: Date.now(),
  });

  it('accepts a request with 202, its state at once, a Location, and the defaults filled in', async () => {
    const before = Date.now();
    const answer = await request({ topic: '  semiconductors ', sources: ['news', 'internal', 'news'] });
    expect(answer.status, answer.text).toBe(202);
    const d = answer.body;
    expect(answer.headers.get('location')).toBe(`/api/v1/documentaries/${d.id}`);
    expect(d).toMatchObject({
      topic: 'semiconductors',
      sources: ['news', 'internal'],
      format: 'audio+transcript',
      status: 'requested',
      progress: 0,
      length: 'medium',
      // The defaults it is made with, not nulls.
      language: 'en',
      max_articles: 16,
      voice: null,
      script_writer: null,
      audio_url: null,
      transcript_url: null,
      failure: null,
      chapters: [],
      articles: [],
      links: { self: `/api/v1/documentaries/${d.id}` },
    });
    // The default period: the 7 days up to the request.
    const to = Date.parse(d.period.to!);
    expect(to).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(to - Date.parse(d.period.from!)).toBe(7 * 86_400_000);
    const again = await stack.call<Documentary>('GET', `/api/v1/documentaries/${d.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(d);
  });

  it("names the voice that will speak, where another provider's voice name was asked for", async () => {
    const answer = await request({ topic: 'semiconductors', voice: 'en-US-JennyNeural' });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body.voice).toBe('en-US-slt-hts');
    // A language in any case is shown back in the conventional one.
    const upper = await request({ topic: 'semiconductors', language: 'EN_gb' });
    expect([upper.status, upper.body.language], upper.text).toEqual([202, 'en-GB']);
    // Not left in progress: the tenant's limit is tested below.
    expect((await stack.call('POST', `/api/v1/documentaries/${upper.body.id}/cancel`)).status).toBe(200);
    expect((await request({ topic: 'semiconductors', voice: 'en-US-slt-hts' })).body.voice).toBe(
      'en-US-slt-hts',
    );
  });

  it('shows the steps the processor appends, and when ready signed URLs that the audio route serves', async () => {
    const created = (await request({ topic: 'interest rates', length: 'short', date_range: '366d' })).body;
    const [row] = await stack.clickhouse.query<{ tenant_id: string; requested_at: string }>(
      `SELECT tenant_id, toUnixTimestamp(requested_at) * 1000 AS requested_at FROM documentaries WHERE documentary_id = '${created.id}'`,
    );
    const base: DocumentaryEvent = {
      documentary_id: created.id,
      tenant_id: row!.tenant_id,
      topic: created.topic,
      sources: created.sources,
      format: created.format,
      status: 'progressed',
      progress: 0.4,
      stage: 'narrating',
      audio_url: null,
      transcript_url: null,
      duration_ms: null,
      failure_reason: null,
      requested_at: Number(row!.requested_at),
      period_from: Date.parse(created.period.from!),
      period_to: Date.parse(created.period.to!),
      date_range: '30d',
      language: null,
      voice: 'en-US-slt-hts',
      script_writer: 'openai/gpt-4o-mini',
      length: 'short',
      max_articles: null,
      articles: [
        {
          article_id: 'art_1',
          title: 'Rates rise',
          source_name: 'BBC News',
          url: 'https://example.org/1',
          published_at: Date.UTC(2026, 10, 20, 9, 30),
          story: 0,
        },
      ],
      segments: [
        {
          kind: 'intro',
          title: 'Introduction',
          sentences: ['Hello.'],
          article_ids: [],
          start_ms: null,
          end_ms: null,
        },
      ],
      audio_key: null,
      transcript_key: null,
      transcript_json_key: null,
      failure_code: null,
      occurred_at: Date.now(),
    };
    await stack.producer.send(topicNames.documentaries, [{ key: created.id, value: base }]);
    const progressed = await waitFor(async () => {
      const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${created.id}`)).body;
      return d.status === 'narrating' ? d : null;
    }, 'the narrating step to show');
    expect(progressed).toMatchObject({
      progress: 0.4,
      voice: 'en-US-slt-hts',
      script_writer: 'openai/gpt-4o-mini',
      articles: [
        {
          id: 'art_1',
          title: 'Rates rise',
          source: 'BBC News',
          url: 'https://example.org/1',
          published_at: '2026-11-20T09:30:00Z',
          story: 0,
        },
      ],
      chapters: [
        {
          kind: 'intro',
          title: 'Introduction',
          sentences: ['Hello.'],
          start_ms: null,
          end_ms: null,
          article_ids: [],
        },
      ],
    });

    const key = 'a'.repeat(40);
    await stack.producer.send(topicNames.documentaries, [
      {
        key: created.id,
        value: {
          ...base,
          status: 'ready',
          stage: null,
          progress: 1,
          audio_key: `${key}.mp3`,
          duration_ms: 61_000,
          segments: [{ ...base.segments[0]!, start_ms: 0, end_ms: 61_000 }],
          occurred_at: Date.now(),
        },
      },
    ]);
    const ready = await waitFor(async () => {
      const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${created.id}`)).body;
      return d.status === 'ready' ? d : null;
    }, 'the documentary to be ready');
    // The newest event decides: its stage is null again, not the last stage that was set.
    expect(ready).toMatchObject({ progress: 1, duration_ms: 61_000, failure: null });
    expect(ready.audio_url).toMatch(new RegExp(`/v1/audio/${key}\\.mp3\\?expires=\\d+&signature=`));
    expect(ready.chapters[0]).toMatchObject({ start_ms: 0, end_ms: 61_000 });
  });

  it('reports a failure with its code and reason', async () => {
    const created = (await request({ topic: 'nothing at all' })).body;
    const [row] = await stack.clickhouse.query<{ tenant_id: string }>(
      `SELECT tenant_id FROM documentaries WHERE documentary_id = '${created.id}'`,
    );
    await stack.producer.send(topicNames.documentaries, [
      {
        key: created.id,
        value: failedEvent(
          created,
          row!.tenant_id,
          'no article on "nothing at all" between 17 and 24 November 2026',
        ),
      },
    ]);
    const failed = await waitFor(async () => {
      const d = (await stack.call<Documentary>('GET', `/api/v1/documentaries/${created.id}`)).body;
      return d.status === 'failed' ? d : null;
    }, 'the failure to show');
    expect(failed.failure).toEqual({
      code: 'no_articles',
      reason: 'no article on "nothing at all" between 17 and 24 November 2026',
    });
    expect(failed.audio_url).toBeNull();
  });

  it("answers 404 for another tenant's documentary and leaves it out of their list", async () => {
    const mine = (await request({ topic: 'football' })).body;
    const other = { apiKey: stack.otherClient.apiKey };
    expect((await stack.call('GET', `/api/v1/documentaries/${mine.id}`, undefined, other)).status).toBe(404);
    const theirs = await stack.call<DocumentaryList>('GET', '/api/v1/documentaries', undefined, other);
    expect(theirs.status).toBe(200);
    expect(theirs.body.documentaries.map((d) => d.id)).not.toContain(mine.id);
    expect((await stack.call('GET', '/api/v1/documentaries/doc_nope')).status).toBe(404);
  });

  it('lists newest first in stable pages', async () => {
    const client = await newClient('Pager');
    const ids: string[] = [];
    for (const topic of ['one', 'two', 'three', 'four', 'five'])
      ids.push((await request({ topic: `topic ${topic}` }, client.apiKey)).body.id);
    const seen: Documentary[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await stack.call<DocumentaryList>(
        'GET',
        `/api/v1/documentaries?limit=2&offset=${offset}`,
        undefined,
        { apiKey: client.apiKey },
      );
      expect(page.body.documentaries.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.documentaries);
      if (!page.body.paging.has_more) break;
    }
    expect(new Set(seen.map((d) => d.id))).toEqual(new Set(ids));
    expect(seen).toHaveLength(5);
    // Newest request first, to the millisecond: requests within one second come in the order they came.
    expect(seen.map((d) => d.id)).toEqual([...ids].reverse());
    const order = seen.map((d) => d.created_at);
    expect(order).toEqual([...order].sort().reverse());
  });

  it('holds a tenant to five documentaries in progress at once, and frees a place when one finishes', async () => {
    const client = await newClient('Busy');
    const accepted: Documentary[] = [];
    for (let n = 1; n <= 5; n++) {
      const answer = await request({ topic: `busy ${n}` }, client.apiKey);
      expect(answer.status, answer.text).toBe(202);
      accepted.push(answer.body);
    }
    const refused = await stack.call<{ error: { code: string; message: string } }>(
      'POST',
      '/api/v1/documentaries',
      { topic: 'busy 6' },
      { apiKey: client.apiKey },
    );
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body.error.code).toBe('documentary_limit');
    expect(refused.body.error.message).toMatch(/^5 documentaries of yours are in progress/);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another tenant is not held by this one's.
    expect((await request({ topic: 'someone else' })).status).toBe(202);

    // One fails (as the processor appends it): its place is free.
    const first = accepted[0]!;
    const failure = failedEvent(first, client.tenantId, 'no article on "busy 1"');
    await stack.producer.send(topicNames.documentaries, [{ key: first.id, value: failure }]);
    await waitFor(
      async () => (await request({ topic: 'busy 6' }, client.apiKey)).status === 202,
      'a place freed by the failure',
      30_000,
    );
  }, 120_000);

  it('cancels one not yet finished, frees its place, lists by status, and refuses to cancel a finished one', async () => {
    const client = await newClient('Canceller');
    const key = { apiKey: client.apiKey };
    const accepted: Documentary[] = [];
    for (let n = 1; n <= 5; n++) accepted.push((await request({ topic: `cancel ${n}` }, client.apiKey)).body);
    expect((await request({ topic: 'cancel 6' }, client.apiKey)).status).toBe(429);

    const [first, second] = accepted;
    const cancel = (id: string, apiKey = client.apiKey) =>
      stack.call<Documentary & { error?: { code: string; message: string } }>(
        'POST',
        `/api/v1/documentaries/${id}/cancel`,
        undefined,
        { apiKey },
      );
    const cancelled = await cancel(first!.id);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: first!.id,
      topic: 'cancel 1',
      status: 'cancelled',
      failure: null,
    });
    // Read back as cancelled, and cancelling again is harmless.
    expect(
      (await stack.call<Documentary>('GET', `/api/v1/documentaries/${first!.id}`, undefined, key)).body
        .status,
    ).toBe('cancelled');
    // The cancel repeats the request's time to the millisecond, so its elapsed_ms counts from the request.
    const rows = await stack.clickhouse.query<{ status: string; requested_at_ms: string }>(
      `SELECT status, requested_at_ms FROM documentaries WHERE documentary_id = '${first!.id}' ORDER BY version`,
    );
    expect(rows.map((r) => r.status).slice(0, 2)).toEqual(['requested', 'cancelled']);
    expect(rows[1]!.requested_at_ms).toBe(rows[0]!.requested_at_ms);
    const again = await cancel(first!.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.status).toBe('cancelled');
    // Its place is free at once.
    expect((await request({ topic: 'cancel 6' }, client.apiKey)).status).toBe(202);

    // A finished one is a conflict; another tenant's, or none, is 404.
    await stack.producer.send(topicNames.documentaries, [
      { key: second!.id, value: failedEvent(second!, client.tenantId, 'no article on "cancel 2"') },
    ]);
    await waitFor(
      async () =>
        (await stack.call<Documentary>('GET', `/api/v1/documentaries/${second!.id}`, undefined, key)).body
          .status === 'failed',
      'the failure to show',
    );
    const late = await cancel(second!.id);
    expect(late.status, late.text).toBe(409);
    expect(late.body.error).toEqual({
      code: 'conflict',
      message: `documentary "${second!.id}" is failed already: there is nothing left to cancel`,
    });
    expect((await cancel(accepted[2]!.id, stack.otherClient.apiKey)).status).toBe(404);
    expect((await cancel('doc_nope')).status).toBe(404);

    // Listed by status, alone or several at once.
    const ids = async (query: string) => {
      const page = await stack.call<DocumentaryList>('GET', `/api/v1/documentaries?${query}`, undefined, key);
      expect(page.status, page.text).toBe(200);
      return page.body.documentaries.map((d) => d.id);
    };
    expect(await ids('status=cancelled')).toEqual([first!.id]);
    expect(await ids('status=failed')).toEqual([second!.id]);
    expect((await ids('status=FAILED,cancelled')).sort()).toEqual([first!.id, second!.id].sort());
    expect(await ids('status=requested&limit=100')).toHaveLength(4);
    expect(await ids('status=ready')).toEqual([]);
    const bad = await stack.call<{ error: { message: string } }>(
      'GET',
      '/api/v1/documentaries?status=done',
      undefined,
      key,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /^status: "done" is not a documentary status \(one of requested, /,
    );
  }, 120_000);

  it('holds the limit when a tenant sends its requests all at once', async () => {
    const client = await newClient('Burst');
    // Counted from the read model without a lock, all eight passed the count of none.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => request({ topic: `burst ${n}` }, client.apiKey)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
    const listed = await stack.call<DocumentaryList>('GET', '/api/v1/documentaries?limit=20', undefined, {
      apiKey: client.apiKey,
    });
    expect(listed.body.documentaries).toHaveLength(5);
  }, 120_000);

  it('ends a period that reaches into the future now: its intro names no period without news', async () => {
    const client = await newClient('Future');
    const before = Date.now();
    const from = new Date(before - 3 * 86_400_000).toISOString().slice(0, 10);
    const created = await request({ topic: 'chips', date_range: `${from}..2030-01-01` }, client.apiKey);
    expect(created.status, created.text).toBe(202);
    expect(created.body.period.from).toBe(`${from}T00:00:00Z`);
    const to = Date.parse(created.body.period.to!);
    expect(to).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(to).toBeLessThanOrEqual(Date.now());
  });

  it('refuses bad requests with 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^topic: /],
      [{ topic: ' ' }, /^topic: must be at least 2 characters/],
      [{ topic: 'x'.repeat(201) }, /^topic: must be at most 200 characters/],
      [{ topic: '\u0000\u0000' }, /^topic: must not contain control characters/],
      [{ topic: 'chips \u202emoc.evil' }, /^topic: must not contain bidirectional overrides/],
      [{ topic: '😀😀😀' }, /^topic: must contain at least one letter or digit/],
      [{ topic: 'chips', sources: ['blogs'] }, /^sources\.0: must be one of news, internal, social/],
      [{ topic: 'chips', sources: [] }, /^sources: must name at least one kind of source/],
      [{ topic: 'chips', format: 'video' }, /^format: must be one of audio\+transcript, audio/],
      [{ topic: 'chips', length: 'epic' }, /^length: must be one of short, medium, long/],
      [{ topic: 'chips', max_articles: 0 }, /^max_articles: must be at least 1/],
      [{ topic: 'chips', max_articles: 51 }, /^max_articles: must be at most 50/],
      [
        { topic: 'chips', date_range: 'last fortnight' },
        /^date_range: .*expected a span up to now \(24h, 7d/,
      ],
      [
        { topic: 'chips', date_range: '2020-01-01..2026-01-01' },
        /^date_range: covers 2193 days, more than the 366 a documentary may cover$/,
      ],
      [{ topic: 'chips', date_range: '367d' }, /^date_range: covers 367 days, more than the 366/],
      [{ topic: 'chips', date_range: '2099-01-01..' }, /^date_range: starts in the future/],
      // Past what the archive can hold at all (32-bit seconds since 1970): named as such.
      [{ topic: 'chips', date_range: '2999-01-01..' }, /^date_range: .*starts after 2106-02-07T06:28:15Z/],
      [{ topic: 'chips', voice: 'xx-nobody' }, /^voice: /],
      [
        { topic: 'chips', language: 'de', voice: 'en-US-slt-hts' },
        /^language: voice en-US-slt-hts does not speak "de"/,
      ],
      // With no language named, a voice must speak the default one (en): not a failure minutes later.
      [{ topic: 'chips', voice: 'de-espeak-m' }, /^language: voice de-espeak-m does not speak "en"/],
      [{ topic: 'chips', colour: 'blue' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const answer = await stack.call<{ error: { code: string; message: string } }>(
        'POST',
        '/api/v1/documentaries',
        body,
      );
      expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(400);
      expect(answer.body.error.code).toBe('invalid_parameter');
      expect(answer.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('needs the scope use:audio', async () => {
    const reader = await createTestClient(stack, { name: `Reader ${stack.run}`, scopes: ['read:feeds'] });
    await waitFor(
      async () =>
        (await stack.call('GET', '/v1/sources', undefined, { apiKey: reader.apiKey })).status === 200,
      'the API to know the new client',
    );
    const answer = await stack.call<{ error: { code: string } }>(
      'POST',
      '/api/v1/documentaries',
      { topic: 'chips' },
      { apiKey: reader.apiKey },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('insufficient_scope');
  });
});
