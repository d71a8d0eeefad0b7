// npm run bench:documentary — how long a documentary takes from request to ready, per length, split by
// step, beside the speech engine alone on the same script (a benchmark, not a test).
//
// The BBC corpus (100 articles) goes into the namespace's ClickHouse database, as the projector would
// write it (its row functions), under a catalog source, published over the last three days. Each length
// (short, medium, long) is then made by the documentarian's own makeDocumentary, in this process, with
// the embedded voices and a local audio store in a temporary folder that starts empty (nothing cached);
// its step events are kept in memory, not appended: benchmarks do not write into the live topics. The
// wall time of each step is the time between the events that start it and the next.
//
// Baseline, in the same run: the script that was spoken, sentence by sentence, through one warm
// `festival` process (the bare engine, ../audio/festival-session.ts, voice loaded once), then
// ffmpeg to mp3: what speaking the script costs with no gathering, no scripting, no assembling. Ratio:
// engine alone / documentary (1.0 = the documentary costs nothing beyond its speech).
//
// Everything happens in the run's namespace (../support/bench-namespace.ts): the database is the
// namespace's (migrated when the namespace is made), removed at the end with the rest of the namespace,
// also on failure and Ctrl-C; nothing reaches the live topics or read models.
//
// Environment: BENCH_TOPIC ("the economy"), BENCH_LENGTHS (short,medium,long). Uses the stack's
// ClickHouse (brought up with the namespace if it is not running).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LocalAudioStore } from '../../../services/audio/local-store.ts';
import { readCorpus } from '../../../services/demo/corpus.ts';
import { documentaryLengths } from '../../../services/documentaries/documentary-request.ts';
import { makeDocumentary } from '../../../services/documentarian/make-documentary.ts';
import { articleRow, sourceRow } from '../../../services/projector/rows.ts';
import { ClickHouse, clickHouseSettings } from '../../../services/runtime/clickhouse/client.ts';
import { commaList, infrastructureEnv, loadConfig, text } from '../../../services/runtime/config.ts';
import type { Documentary } from '../../../services/runtime/events/types.generated.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { createEmbeddedSpeechProvider } from '../../../services/speech/embedded/embedded-provider.ts';
import { createSynthesizer } from '../../../services/speech/synthesizer.ts';
import { encodeArgs, run } from '../audio/commands.ts';
import { startFestivalSession } from '../audio/festival-session.ts';
import { table } from '../quality/report.ts';
import type { BenchContext } from '../support/bench-namespace.ts';
import { discoveredArticle } from '../../support/discovered-article.ts';
import { checkedScriptWriter, embeddedScriptWriter } from '../../../services/documentaries/script-writer.ts';

const config = loadConfig({
  CLICKHOUSE_URL: infrastructureEnv.CLICKHOUSE_URL,
  CLICKHOUSE_USER: infrastructureEnv.CLICKHOUSE_USER,
  CLICKHOUSE_PASSWORD: infrastructureEnv.CLICKHOUSE_PASSWORD,
  CLICKHOUSE_DATABASE: infrastructureEnv.CLICKHOUSE_DATABASE,
  BENCH_TOPIC: text('the economy'),
  BENCH_LENGTHS: commaList('short,medium,long').pipe(z.array(z.enum(documentaryLengths)).min(1)),
});

const log = (line = '') => process.stdout.write(`${line}\n`);
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const logger = createLogger('bench-documentary', 'warn');

async function loadCorpus(clickhouse: ClickHouse, now: number, run: string): Promise<void> {
  const sourceId = `src_bench_${run}`;
  await clickhouse.insert('sources', [
    sourceRow(
      {
        source_id: sourceId,
        name: 'BBC corpus',
        feed_url: 'https://bench.invalid/feed',
        previous_urls: [],
        site_url: null,
        category: 'general',
        language: 'en',
        country: 'gb',
        active: false,
        poll_interval_seconds: 900,
        created_by_tenant: null,
        created_at: now,
        version: 1,
        occurred_at: now,
      },
      1,
    ),
  ]);
  const corpus = readCorpus();
  await clickhouse.insert(
    'articles',
    corpus.map((a, i) =>
      articleRow(
        discoveredArticle(`art_bench_${i}`, now, {
          source_id: sourceId,
          source_name: 'BBC News',
          guid: a.id,
          url: `https://bench.invalid/${a.id}`,
          original_url: `https://bench.invalid/${a.id}`,
          title: a.title,
          summary: a.paragraphs[0] ?? '',
          content: a.paragraphs.join('\n\n'),
          // Spread over the last three days, so recency ranks them too.
          published_at: now - Math.round(((i + 1) * 3 * 86_400_000) / (corpus.length + 1)),
          category: a.category,
        }),
        i + 1,
      ),
    ),
  );
}

interface Timed {
  event: Documentary;
  at: number;
}

export default async function documentary({ namespace, cleanUp }: BenchContext): Promise<number> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-documentary-'));
  cleanUp.onCleanup('remove the temporary folder', async () =>
    rmSync(work, { recursive: true, force: true }),
  );
  log(`bench:documentary ${new Date().toISOString()}`);
  log(`machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}); load average ${loads()}`);
  // The namespace's database, migrated when the namespace was made.
  const clickhouse = await ClickHouse.connect(clickHouseSettings(config), { createDatabase: false });
  cleanUp.onCleanup('close ClickHouse', () => clickhouse.close());
  log(`database ${config.CLICKHOUSE_DATABASE}`);
  const now = Date.now();
  await loadCorpus(clickhouse, now, namespace.run);
  log(`corpus: ${readCorpus().length} BBC articles over the last 3 days; topic "${config.BENCH_TOPIC}"`);

  const rows: string[][] = [];
  const ratios: string[][] = [];
  for (const length of config.BENCH_LENGTHS) {
    const storeDir = path.join(work, `store-${length}`);
    const provider = createEmbeddedSpeechProvider({ logger });
    const synthesis = createSynthesizer({ providers: [provider], store: new LocalAudioStore(storeDir) });
    // Started before timing, as the documentarian's Festival process is running when a request comes.
    await synthesis.synthesize({ text: 'Warming up.', language: 'en', format: 'wav' });
    const events: Timed[] = [];
    const request: Documentary = {
      documentary_id: `doc_bench_${length}`,
      tenant_id: 'bench',
      topic: config.BENCH_TOPIC,
      sources: ['news'],
      format: 'audio+transcript',
      status: 'requested',
      progress: 0,
      stage: null,
      audio_url: null,
      transcript_url: null,
      duration_ms: null,
      failure_reason: null,
      requested_at: Date.now(),
      period_from: now - 7 * 86_400_000,
      period_to: now,
      date_range: null,
      language: null,
      voice: null,
      script_writer: null,
      length,
      max_articles: null,
      articles: [],
      segments: [],
      audio_key: null,
      transcript_key: null,
      transcript_json_key: null,
      failure_code: null,
      occurred_at: Date.now(),
    };
    const start = performance.now();
    events.push({ event: request, at: start });
    await makeDocumentary(request, {
      clickhouse,
      synthesis,
      scriptWriter: checkedScriptWriter(embeddedScriptWriter, logger),
      store: new LocalAudioStore(storeDir),
      append: async (event) => void events.push({ event, at: performance.now() }),
      address: (key) => `http://bench.invalid/v1/audio/${key}`,
      heartbeat: async () => {},
      cancelled: async () => false,
      targetLufs: -19,
      candidateLimit: 400,
      logger,
    });
    const total = performance.now() - start;
    await synthesis.close();
    const last = events.at(-1)!.event;
    if (last.status !== 'ready') throw new Error(`${length}: ${last.status} (${last.failure_reason ?? ''})`);
    // Step durations: from the event that starts a step to the next step's.
    const spans = new Map<string, number>();
    let current = 'gathering';
    let since = start;
    for (const { event, at } of events.slice(1)) {
      const step = event.status === 'progressed' ? (event.stage ?? 'progressed') : event.status;
      if (step === current) continue;
      spans.set(current, (spans.get(current) ?? 0) + (at - since));
      current = step;
      since = at;
    }
    const sentences = last.segments.flatMap((s) => s.sentences);
    const words = sentences.join(' ').split(/\s+/).length;
    rows.push([
      length,
      s1(total),
      ...['gathering', 'scripting', 'narrating', 'assembling'].map((step) => s1(spans.get(step) ?? 0)),
      s1(last.duration_ms!),
      String(last.segments.filter((s) => s.kind === 'story').length),
      `${sentences.length} / ${words}`,
    ]);

    // The bare engine on the same script: one warm festival process, sentence by sentence, then ffmpeg.
    const session = await startFestivalSession();
    const folder = path.join(work, `bare-${length}`);
    execFileSync('mkdir', ['-p', folder]);
    const bareStart = performance.now();
    for (const [i, sentence] of sentences.entries()) {
      const textFile = path.join(folder, `${i}.txt`);
      const wav = path.join(folder, `${i}.wav`);
      writeFileSync(textFile, `${sentence}\n`);
      await session.say(textFile, wav);
      await run('ffmpeg', encodeArgs(wav, path.join(folder, `${i}.mp3`)));
    }
    const bare = performance.now() - bareStart;
    await session.close();
    ratios.push([length, s1(bare), s1(total), (bare / total).toFixed(2)]);
    log(`${length}: ready in ${s1(total)}, ${s1(last.duration_ms!)} of audio; load average ${loads()}`);
  }
  log();
  log(
    table(
      [
        'length',
        'request to ready',
        'gathering',
        'scripting',
        'narrating',
        'assembling',
        'audio',
        'stories',
        'sentences / words',
      ],
      rows,
    ),
  );
  log();
  log(table(['length', 'festival alone, same script', 'documentary', 'engine / documentary'], ratios));
  log(`load average ${loads()} at the end`);
  return 0;
}
