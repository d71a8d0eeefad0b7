import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { ArticleEnriched, ArticleNarrated } from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import type { SynthesisRequest, SynthesizedAudio } from '../speech/synthesis.ts';
import { narratorHandler } from './narrator.ts';
import { englishVoice } from '../speech/voice.test-support.ts';

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const hour = 3_600_000;
const voice = englishVoice;

const enrichment = (id: string, at = now - 1_000, revision = 1): ArticleEnriched =>
  ({
    article_id: id,
    status: 'succeeded',
    summary: `AI summary of ${id}.`,
    language: 'en',
    revision,
    occurred_at: at,
  }) as ArticleEnriched;

/** What the read model holds: article id -> published_at (and the revision it shows, 1 unless given). */
function setUp(published: Record<string, number>, revisions: Record<string, number> = {}) {
  const clickhouse = {
    query: async () =>
      Object.entries(published).map(([article_id, at]) => ({
        article_id,
        title: `Title of ${article_id}${(revisions[article_id] ?? 1) > 1 ? ` (revision ${revisions[article_id]})` : ''}`,
        summary: '',
        content: '',
        language: 'en',
        published: at / 1000,
        revision: revisions[article_id] ?? 1,
      })),
  } as unknown as ClickHouse;
  const spoken: SynthesisRequest[] = [];
  const appended: ArticleNarrated[] = [];
  const handler = narratorHandler({
    clickhouse,
    producer: {
      send: async (_topic, events) => {
        appended.push(...events.map((e) => e.value as ArticleNarrated));
      },
    },
    synthesis: {
      voiceFor: async () => voice,
      synthesize: async (request) => {
        spoken.push(request);
        return {
          audio: { key: `${'a'.repeat(40)}.mp3`, size: 10, contentType: 'audio/mpeg', durationMs: 1_000 },
          format: 'mp3',
          voice,
          durationMs: 1_000,
          characters: request.text.length,
          cached: false,
        } satisfies SynthesizedAudio;
      },
    },
    audioAddress: (key) => `http://api.test/v1/audio/${key}`,
    format: 'mp3',
    text: 'summary',
    retry: { maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 },
    defaultProvider: 'embedded',
    concurrency: 2,
    articleWaitMs: 60_000,
    maxAgeMs: 168 * hour,
    logger: pino({ level: 'silent' }),
    clock: () => now,
  });
  const run = (events: ArticleEnriched[]) =>
    handler(
      events.map((value, offset) => ({ value, offset: String(offset) }) as ConsumedEvent<ArticleEnriched>),
      { heartbeat: async () => undefined },
    );
  return { run, spoken, appended };
}

describe('narratorHandler', () => {
  it('narrates every enriched article of the batch and appends one outcome each', async () => {
    const { run, spoken, appended } = setUp({ a1: now - hour, a2: now - 2 * hour });
    await run([enrichment('a1'), enrichment('a2')]);
    expect(spoken.map((r) => r.text)).toEqual([
      'Title of a1.\nAI summary of a1.',
      'Title of a2.\nAI summary of a2.',
    ]);
    expect(appended.map((n) => [n.article_id, n.status])).toEqual([
      ['a1', 'succeeded'],
      ['a2', 'succeeded'],
    ]);
  });

  it('skips, without synthesizing, an article published longer ago than the age limit', async () => {
    const { run, spoken, appended } = setUp({ old: now - 200 * hour, fresh: now - hour });
    await run([enrichment('old'), enrichment('fresh')]);
    expect(spoken.map((r) => r.text)).toEqual(['Title of fresh.\nAI summary of fresh.']);
    expect(appended.find((n) => n.article_id === 'old')).toMatchObject({
      status: 'skipped',
      failure_reason: 'published more than 168 hours ago (NARRATOR_MAX_AGE_HOURS)',
      audio_key: null,
    });
  });

  it('waits for an article the read model does not show yet, then narrates what the enrichment says', async () => {
    const waiting = setUp({});
    await expect(waiting.run([enrichment('new')])).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(waiting.appended).toEqual([]);

    const late = setUp({});
    await late.run([enrichment('late', now - 61_000)]);
    expect(late.spoken.map((r) => r.text)).toEqual(['AI summary of late.']);
    expect(late.appended[0]).toMatchObject({ article_id: 'late', status: 'succeeded' });
  });

  it('waits for the revision an enrichment read, so a corrected headline is what it reads out', async () => {
    const stale = setUp({ a1: now - hour });
    await expect(stale.run([enrichment('a1', now - 1_000, 2)])).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
    expect(stale.spoken).toEqual([]);

    const current = setUp({ a1: now - hour }, { a1: 2 });
    await current.run([enrichment('a1', now - 1_000, 2)]);
    expect(current.spoken.map((r) => r.text)).toEqual(['Title of a1 (revision 2).\nAI summary of a1.']);
  });
});
