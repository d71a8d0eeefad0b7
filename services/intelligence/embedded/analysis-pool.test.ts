// The embedded provider on worker threads: the same answers as on this thread, the event loop free while
// a long text is analysed, refusals as the provider's, and a job past its time stopped.
import { afterEach, describe, expect, it } from 'vitest';
import * as articles from '../../../test/support/sample-articles.ts';
import { EnrichmentRejectedError, type ArticleText } from '../provider.ts';
import { offThreadAnalyses, type OffThreadOptions } from './analysis-pool.ts';
import { createEmbeddedProvider, extractTerms } from './embedded-provider.ts';

const inThread = { provider: createEmbeddedProvider(), termsOf: extractTerms };
const pools: { close: () => Promise<void> }[] = [];
function offThread(options: Partial<OffThreadOptions> = {}) {
  const analyses = offThreadAnalyses(inThread, { size: 1, timeoutMs: 60_000, ...options });
  pools.push(analyses);
  return analyses;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

// Long enough for the pool (2,000 characters and more): the shared sample articles, one after another.
const samples = Object.values(articles).filter((a): a is ArticleText => typeof a === 'object' && 'text' in a);
const long: ArticleText = {
  title: samples[0]!.title,
  text: Array.from({ length: 4 }, () => samples.map((a) => a.text).join('\n\n')).join('\n\n'),
  language: 'en',
};
// A worker's first job includes loading tsx and the provider in the new thread.
const startup = 30_000;

describe('offThreadAnalyses', () => {
  it(
    'gives the same enrichment, summary, education and terms on a worker as on this thread',
    async () => {
      const { provider, termsOf } = offThread();
      const options = { length: 'medium' as const, related: [] };
      expect(await provider.enrich(long, options)).toEqual(await inThread.provider.enrich(long, options));
      const tone = { length: 'short' as const, tone: 'executive' as const };
      expect(await provider.summarize(long, tone)).toEqual(await inThread.provider.summarize(long, tone));
      expect(await provider.educate(long, {})).toEqual(await inThread.provider.educate(long, {}));
      expect(await termsOf(long)).toEqual(inThread.termsOf(long));
    },
    startup,
  );

  it(
    'keeps the event loop turning while a long text is analysed, and short texts on this thread',
    async () => {
      const analyses = offThread();
      const warm = analyses.provider.enrich(long, { length: 'short', related: [] });
      await warm; // the worker is up
      const longest = { ...long, text: Array.from({ length: 5 }, () => long.text).join('\n\n') };
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      try {
        const analysing = analyses.provider
          .enrich(longest, { length: 'long', related: [] })
          .then(() => ticks);
        // Enriching tens of thousands of characters takes far over 5 ms: timers ran unless the thread was blocked.
        expect(await analysing).toBeGreaterThan(2);
      } finally {
        clearInterval(ticker);
      }
      // A short text is answered on this thread: its promise settles with no worker involved, so a pool
      // whose workers cannot start at all still answers it.
      const stuck = offThread({
        startTimeoutMs: 1,
        workerEntry: new URL('./no-such-worker.ts', import.meta.url),
      });
      const short = { title: 'Rates', text: 'The bank raised rates. Markets fell.', language: 'en' };
      expect(await stuck.provider.enrich(short, { length: 'short', related: [] })).toEqual(
        await inThread.provider.enrich(short, { length: 'short', related: [] }),
      );
    },
    startup,
  );

  it(
    'stops a worker idle for its idle time, and starts another for the next text',
    async () => {
      const analyses = offThread({ idleTimeoutMs: 300 });
      const first = await analyses.provider.educate(long, {});
      expect(analyses.workers).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(analyses.workers).toBe(0);
      expect(await analyses.provider.educate(long, {})).toEqual(first);
      expect(analyses.workers).toBe(1);
    },
    startup * 2,
  );

  it(
    "refuses what the provider refuses, as the provider's refusal",
    async () => {
      const blank = { title: 'x'.repeat(2_100), text: ' \n '.repeat(10), language: 'en' };
      const error = await offThread()
        .provider.enrich(blank, { length: 'short', related: [] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EnrichmentRejectedError);
      expect((error as Error).message).toBe('empty article text');
    },
    startup,
  );

  it(
    'stops an analysis past its time, and answers the next on a new worker',
    async () => {
      // Long enough for the real analyses around the hung one on a machine busy with the whole suite (an
      // analysis of `long` took over 1 s in the CI of 2026-12-05); the hung one never ends either way.
      const analyses = offThread({
        timeoutMs: 5_000,
        workerEntry: new URL('./analysis-pool.test-worker.ts', import.meta.url),
      });
      await analyses.provider.enrich(long, { length: 'short', related: [] }); // the worker is up
      const hang = { ...long, text: `HANG ${long.text}` };
      await expect(analyses.provider.enrich(hang, { length: 'short', related: [] })).rejects.toThrow(
        'the analysis took longer than 5000 ms and was stopped',
      );
      expect((await analyses.provider.enrich(long, { length: 'short', related: [] })).summary).not.toBe('');
    },
    startup,
  );

  it(
    'drops an analysis its caller gave up while it waited, and stops one under way',
    async () => {
      const lost: string[] = [];
      const analyses = offThread({
        workerEntry: new URL('./analysis-pool.test-worker.ts', import.meta.url),
        onWorkerLost: (reason) => lost.push(reason),
      });
      const given = new AbortController();
      given.abort(new Error('gone already'));
      await expect(
        analyses.provider.enrich(long, { length: 'short', related: [], signal: given.signal }),
      ).rejects.toThrow('gone already');
      expect(analyses.workers).toBe(0); // nothing was started for it

      await analyses.provider.enrich(long, { length: 'short', related: [] }); // the worker is up
      const hang = { ...long, text: `HANG ${long.text}` };
      const running = new AbortController();
      const waiting = new AbortController();
      const hanging = analyses.provider.enrich(hang, {
        length: 'short',
        related: [],
        signal: running.signal,
      });
      // One worker, busy: this one waits in the queue, and leaves it when its caller gives it up.
      const queued = analyses.provider.enrich(long, { length: 'short', related: [], signal: waiting.signal });
      waiting.abort(new Error('the client closed the connection'));
      await expect(queued).rejects.toThrow('the client closed the connection');
      expect(analyses.workers).toBe(1);

      running.abort(new Error('no answer within 1000 ms'));
      await expect(hanging).rejects.toThrow('no answer within 1000 ms');
      expect(analyses.workers).toBe(0); // the worker that never answers was stopped
      expect((await analyses.provider.enrich(long, { length: 'short', related: [] })).summary).not.toBe('');
      expect(lost).toEqual([]); // given up, not lost
    },
    startup * 2,
  );
});
