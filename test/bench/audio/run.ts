// npm run bench:audio — speech throughput and latency (a benchmark, not a test).
//
// Narration: BENCH_ARTICLES BBC corpus articles (spread over its five categories), each read as the
// narrator reads it by default (the headline, then the enricher's `medium` summary; ./texts.ts),
// narrated in this process by narrateArticle over the synthesizer, the embedded provider and a local
// audio store in a temporary folder, to mp3 (./sides.ts). Nothing goes through Kafka: benchmarks
// do not write into the live topics or read models. Beside it, on the same texts, in the same run, the
// bare engines as command lines producing the same mp3 (libmp3lame 64 kbit/s mono at the voice's rate):
// - Festival with the same HTS voice: `text2wave` per text (a process started for each), and one warm
//   `festival` process per worker doing what text2wave does (./festival-session.ts): the strict
//   baseline, since the narrator keeps its Festival processes running too;
// - espeak-ng in the voice the narrator picks (English read as en-GB, whose default voice is espeak-ng's;
//   plain `en` goes to Festival), with the provider's options.
// Each engine then ffmpeg, one after the other, as the narrator does. Both sides run with the same
// concurrency (BENCH_CONCURRENCY: 1 = one text at a time; 2 = two workers, and the narrator with two
// Festival processes and SPEECH_CONCURRENCY 2), over blocks of BENCH_BLOCK texts, the sides' order
// rotating from block to block so load that comes and goes on a shared machine hits every side.
// Throughput: articles/s and the real-time factor (seconds of audio per second of wall time), the CPU
// the side's processes used, and where the time went. Target: the narrator at >= 0.8 of the bare
// engine's articles/s (Festival: of the warm process).
//
// Synthesis latency: POST /v1/synthesize for BENCH_REQUESTS different texts of BENCH_REQUEST_CHARACTERS
// (200) characters, each synthesized for the first time, then the same requests again (served from the
// store), for the default voice (Festival) and for espeak-ng (language en-GB). The API's speech routes run
// in a process of their own with a temporary AUDIO_DIR (./speech-api.ts says why not the full API:
// it would need a client on news.clients.v1). Rate-limit counters live under the Redis prefix of the
// run's namespace (../support/bench-namespace.ts), which the process inherits from this one's
// environment; its keys are removed at the end, also on failure and Ctrl-C. The bench uses no Kafka or
// ClickHouse, so its namespace holds nothing else.
//
// Environment: BENCH_ARTICLES (40), BENCH_BLOCK (10), BENCH_CONCURRENCY (1,2), BENCH_ENGINES
// (festival,espeak), BENCH_TEXT2WAVE (true), BENCH_API (true), BENCH_REQUESTS (15),
// BENCH_REQUEST_CHARACTERS (200), and REDIS_URL (the speech API's). Exit code 0 unless something broke.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { readCorpus } from '../../../services/demo/corpus.ts';
import { createEmbeddedProvider } from '../../../services/intelligence/embedded/embedded-provider.ts';
import { boolean, commaList, integer, loadConfig } from '../../../services/runtime/config.ts';
import { probeAudio } from '../../../services/speech/audio-probe.ts';
import { readWav } from '../../../services/speech/pcm.ts';
import { startApi, type ApiProcess } from '../api/api-process.ts';
import { cpuSeconds } from '../api/cpu.ts';
import { processTreeCpu } from './cpu-tree.ts';
import { blocks, latencies, rotation, throughputRatio, totals, type SideRun } from './figures.ts';
import {
  espeakSide,
  festivalSessionSide,
  inSlots,
  narratorSide,
  removeFiles,
  text2waveSide,
  type BenchText,
  type Side,
} from './sides.ts';
import { articleWords, pickEvenly, sentencesOf, spokenText, textSizes, textsOfLength } from './texts.ts';
import { table } from '../quality/report.ts';
import type { BenchContext } from '../support/bench-namespace.ts';
import type { CleanUp } from '../support/clean-up.ts';

const engines = ['festival', 'espeak'] as const;
type Engine = (typeof engines)[number];

const config = loadConfig({
  BENCH_ARTICLES: integer(40, 1, 100),
  BENCH_BLOCK: integer(10, 1, 100),
  BENCH_CONCURRENCY: commaList('1,2')
    .refine((list) => list.length > 0 && list.every((c) => /^[1-8]$/.test(c)), {
      message: 'expected concurrencies from 1 to 8, comma-separated (e.g. 1,2)',
    })
    .transform((list) => list.map(Number)),
  BENCH_ENGINES: commaList('festival,espeak').pipe(z.array(z.enum(engines)).min(1)),
  BENCH_TEXT2WAVE: boolean(true),
  BENCH_API: boolean(true),
  BENCH_REQUESTS: integer(15, 3, 500),
  BENCH_REQUEST_CHARACTERS: integer(200, 20, 5_000),
});

const root = fileURLToPath(new URL('../../../', import.meta.url));
const started = performance.now();
const log = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (since: number) => (performance.now() - since) / 1000;
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const ms = (x: number) => `${x.toFixed(0)} ms`;

// ---- clean-up, also on failure and Ctrl-C --------------------------------------------------------

let exit!: CleanUp;
const onCleanup = (name: string, task: () => Promise<unknown>) => exit.onCleanup(name, task);
let work!: string;
let apiProcess: ApiProcess | undefined;
// Last resort if the process exits without the clean-up: never leave the API behind.
process.once('exit', () => apiProcess?.child.kill('SIGKILL'));

const versionOf = (command: string, args: string[]) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .find((line) => line.trim())!
      .trim();
  } catch {
    return `${command}: not found`;
  }
};

// ---- the texts ------------------------------------------------------------------------------------

async function narrationTexts(): Promise<{ texts: Record<Engine, BenchText[]>; spoken: string[] }> {
  const chosen = pickEvenly(readCorpus(), config.BENCH_ARTICLES);
  const enricher = createEmbeddedProvider();
  const folder = path.join(work, 'texts');
  mkdirSync(folder);
  const texts: Record<Engine, BenchText[]> = { festival: [], espeak: [] };
  const spoken: string[] = [];
  for (const article of chosen) {
    const { summary } = await enricher.enrich(
      { title: article.title, text: article.paragraphs.join('\n') },
      { length: 'medium', related: [] },
    );
    const text = spokenText(articleWords(article, summary, 'en'));
    const textFile = path.join(folder, `${article.id.replace('/', '-')}.txt`);
    writeFileSync(textFile, `${text}\n`);
    spoken.push(text);
    // The same words; the language picks the voice: en -> Festival's HTS voice, en-GB -> espeak-ng.
    texts.festival.push({ id: article.id, words: articleWords(article, summary, 'en'), text, textFile });
    texts.espeak.push({ id: article.id, words: articleWords(article, summary, 'en-GB'), text, textFile });
  }
  return { texts, spoken };
}

// ---- narration throughput -------------------------------------------------------------------------

const wavSeconds = (file: string) => {
  const pcm = readWav(readFileSync(file));
  return pcm.samples.length / pcm.sampleRate;
};

interface PhaseResult {
  engine: Engine;
  concurrency: number;
  runs: SideRun[];
  sides: string[];
}

async function narrationPhase(engine: Engine, concurrency: number, texts: BenchText[]): Promise<PhaseResult> {
  const phase = `${engine}-${concurrency}`;
  const narrator = narratorSide({
    concurrency,
    storeDir: path.join(work, `store-${phase}`),
    languages: [texts[0]!.words.language!],
  });
  const sides: Side[] = [narrator];
  onCleanup(`close the narrator (${phase})`, () => narrator.close());
  if (engine === 'festival') {
    sides.push(festivalSessionSide(concurrency));
    if (config.BENCH_TEXT2WAVE) sides.push(text2waveSide());
  } else {
    const voice = await narrator.voiceFor(texts[0]!.words.language!);
    sides.push(espeakSide(voice.engineVoice));
  }
  for (const side of sides.slice(1)) onCleanup(`close ${side.name} (${phase})`, () => side.close());
  const voice = await narrator.voiceFor(texts[0]!.words.language!);
  log();
  log(
    `${engine === 'festival' ? 'Festival' : 'espeak-ng'}, concurrency ${concurrency}: voice ${voice.id} ` +
      `(${voice.engineVoice}, ${voice.sampleRateHz} Hz); load average ${loads()}`,
  );
  for (const side of sides) {
    const warm = performance.now();
    await side.warmUp();
    log(`  ${side.name.padEnd(10)} ${side.describe}  [warm-up ${f1(seconds(warm))} s, not timed]`);
  }

  const runs: SideRun[] = [];
  /** One output of each side for the same text, kept for the format check. */
  const samples = new Map<string, string>();
  for (const [index, block] of blocks(texts, config.BENCH_BLOCK).entries()) {
    const line: string[] = [];
    for (const side of rotation(sides, index)) {
      if (exit.interrupted) throw new Error('interrupted');
      const outDir = path.join(work, `out-${phase}-${side.name}`);
      mkdirSync(outDir, { recursive: true });
      const cpu = processTreeCpu();
      const own = cpuSeconds(process.pid);
      const start = performance.now();
      const spoken = await inSlots(block, concurrency, (text, slot) => side.speak(text, slot, outDir));
      const wall = seconds(start);
      const cpuUsed = processTreeCpu() - cpu;
      const ownUsed = cpuSeconds(process.pid) - own;
      const audio = spoken.reduce((sum, s) => sum + (s.audioSeconds ?? wavSeconds(s.wav!)), 0);
      runs.push({
        side: side.name,
        block: index,
        articles: block.length,
        wallSeconds: wall,
        audioSeconds: audio,
        cpuSeconds: cpuUsed,
      });
      line.push(
        `${side.name} ${f1(wall)} s (RTF ${f1(audio / wall)}, cpu ${f1(cpuUsed)} s, this process ${f1(ownUsed)} s)`,
      );
      if (index === 0) samples.set(side.name, spoken[0]!.mp3);
      await removeFiles(
        spoken.flatMap((s, i) => [...(s.wav ? [s.wav] : []), ...(index === 0 && i === 0 ? [] : [s.mp3])]),
      );
    }
    log(`  block ${index + 1} (${block.length} texts): ${line.join('; ')}`);
  }

  // The same text, by each side: the same container, codec, rate and channels, the same bit rate.
  const formats = await Promise.all(
    [...samples].map(async ([name, file]) => {
      const probed = await probeAudio(readFileSync(file));
      return `${name} ${probed.codec} ${probed.sampleRate} Hz ${probed.channels} ch ${(statSync(file).size / 1024).toFixed(0)} KiB`;
    }),
  );
  log(`  outputs for ${texts[0]!.id}: ${formats.join('; ')}`);
  for (const side of sides) {
    const busy = side.profile.describe(concurrency === 1);
    log(`  ${side.name.padEnd(10)} busy: ${busy}${side.notes ? `; ${side.notes()}` : ''}`);
  }
  for (const side of [...sides].reverse()) await side.close();
  return { engine, concurrency, runs, sides: sides.map((s) => s.name) };
}

function reportPhase(result: PhaseResult): { target: string; figure: string; met: boolean | null }[] {
  const bySide = new Map(
    result.sides.map((name) => [name, totals(result.runs.filter((r) => r.side === name))]),
  );
  const narrator = bySide.get('narrator')!;
  log();
  log(`${result.engine}, concurrency ${result.concurrency}: ${narrator.articles} articles`);
  log(
    table(
      ['side', 'wall s', 'articles/s', 'audio s', 'RTF', 'cpu s', 'cpu s/article', 'narrator/side'],
      [...bySide].map(([name, t]) => [
        name,
        f1(t.wallSeconds),
        f2(t.articlesPerSecond),
        f1(t.audioSeconds),
        f1(t.realTimeFactor),
        f1(t.cpuSeconds),
        f2(t.cpuPerArticle),
        name === 'narrator' ? '' : f2(throughputRatio(narrator, t)),
      ]),
    ),
  );
  // Per block too: a ratio that holds block by block is not an artefact of one noisy moment.
  const perBlock = result.sides.slice(1).map((name) => {
    const ratios = [...new Set(result.runs.map((r) => r.block))].map((block) => {
      const one = (side: string) => totals(result.runs.filter((r) => r.side === side && r.block === block));
      return f2(throughputRatio(one('narrator'), one(name)));
    });
    return `vs ${name} ${ratios.join(', ')}`;
  });
  log(`narrator/side per block: ${perBlock.join('; ')}`);
  const strict = result.engine === 'festival' ? 'festival' : 'espeak-ng';
  const ratio = throughputRatio(narrator, bySide.get(strict)!);
  return [
    {
      target: `${result.engine} narrator >= 0.8 x ${strict} (concurrency ${result.concurrency})`,
      figure: `${f2(narrator.articlesPerSecond)} / ${f2(bySide.get(strict)!.articlesPerSecond)} articles/s = ${f2(ratio)}`,
      met: ratio >= 0.8,
    },
  ];
}

// ---- synthesis latency through the API ------------------------------------------------------------

async function synthesizeLatency(): Promise<{ target: string; figure: string; met: boolean | null }[]> {
  const apiKey = `nik_${randomBytes(32).toString('base64url')}`;
  // REDIS_KEY_PREFIX, the namespace's, comes with our environment.
  const env = {
    AUDIO_STORE: 'local',
    AUDIO_DIR: path.join(work, 'api-audio'),
    SPEECH_PROVIDER: 'embedded',
    BENCH_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
  };
  const boot = performance.now();
  apiProcess = await startApi(root, env, 'test/bench/audio/speech-api.ts');
  const api = apiProcess;
  onCleanup('stop the speech API', () => api.stop());
  const n = config.BENCH_REQUESTS;
  const size = config.BENCH_REQUEST_CHARACTERS;
  const texts = textsOfLength(sentencesOf(readCorpus()), size, 2 * n + 2);
  const sizes = textSizes(texts);
  log();
  log(
    `POST /v1/synthesize: ${n} different texts of ${sizes.characters.min}-${sizes.characters.max} characters ` +
      `per voice (mp3, audio bytes in the answer), one request at a time, then the same ${n} again; ` +
      `speech API up in ${f1(seconds(boot))} s (SPEECH_CONCURRENCY ${process.env.SPEECH_CONCURRENCY ?? 2}, ` +
      `SPEECH_FESTIVAL_PROCESSES ${process.env.SPEECH_FESTIVAL_PROCESSES ?? 1}); load average ${loads()}`,
  );

  let sample: Uint8Array | undefined;
  const post = async (body: Record<string, unknown>) => {
    const start = performance.now();
    const response = await fetch(`${api.url}/v1/synthesize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'mp3', ...body }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const took = performance.now() - start;
    if (
      response.status !== 200 ||
      response.headers.get('content-type') !== 'audio/mpeg' ||
      bytes.length === 0
    )
      throw new Error(
        `POST /v1/synthesize answered ${response.status}: ${Buffer.from(bytes).toString().slice(0, 300)}`,
      );
    sample ??= bytes;
    return { ms: took, durationMs: Number(response.headers.get('audio-duration-ms')) };
  };

  const voices = [
    { name: 'Festival (default voice)', body: {} },
    { name: 'espeak-ng (language en-GB)', body: { language: 'en-GB' } },
  ];
  const rows: (string | number)[][] = [];
  const verdicts: { target: string; figure: string; met: boolean | null }[] = [];
  for (const [v, voice] of voices.entries()) {
    const own = texts.slice(v * (n + 1), (v + 1) * (n + 1));
    // The voice's first request starts its engine (a Festival process loading the voice): shown, not counted.
    const cold = await post({ text: own[0], ...voice.body });
    const first: number[] = [];
    let audioMs = 0;
    for (const text of own.slice(1)) {
      const answer = await post({ text, ...voice.body });
      first.push(answer.ms);
      audioMs += answer.durationMs;
    }
    const repeat: number[] = [];
    for (const text of own.slice(1)) repeat.push((await post({ text, ...voice.body })).ms);
    const a = latencies(first);
    const b = latencies(repeat);
    rows.push(
      [voice.name, 'first time', a.count, ms(a.p50), ms(a.p90), ms(a.min), ms(a.max)],
      [voice.name, 'cached repeat', b.count, ms(b.p50), ms(b.p90), ms(b.min), ms(b.max)],
    );
    log(
      `  ${voice.name}: first request after start ${ms(cold.ms)}; ${f1(audioMs / 1000 / first.length)} s of audio per text`,
    );
    verdicts.push({
      target: `synthesize p50, ${size} characters, ${voice.name}`,
      figure: `${ms(a.p50)} first time, ${ms(b.p50)} cached`,
      met: null, // the issue sets no target for it
    });
  }
  log(table(['voice', 'request', 'n', 'p50', 'p90', 'min', 'max'], rows));
  const probed = await probeAudio(sample!);
  log(
    `  answers are ${probed.container} / ${probed.codec}, ${probed.sampleRate} Hz, ${probed.channels} channel(s)`,
  );
  return verdicts;
}

// ---- the run --------------------------------------------------------------------------------------

export default async function audio({ cleanUp }: BenchContext): Promise<number> {
  exit = cleanUp;
  work = mkdtempSync(path.join(tmpdir(), 'bench-audio-'));
  onCleanup('remove the temporary folder', async () => rmSync(work, { recursive: true, force: true }));
  log(`bench:audio ${new Date().toISOString()}`);
  log(
    `machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}); load average ${loads()} (1/5/15 min)`,
  );
  log(
    `settings: BENCH_ARTICLES ${config.BENCH_ARTICLES}, BENCH_BLOCK ${config.BENCH_BLOCK}, ` +
      `BENCH_CONCURRENCY ${config.BENCH_CONCURRENCY.join(',')}, BENCH_ENGINES ${config.BENCH_ENGINES.join(',')}, ` +
      `BENCH_TEXT2WAVE ${config.BENCH_TEXT2WAVE}, BENCH_API ${config.BENCH_API}, BENCH_REQUESTS ${config.BENCH_REQUESTS}, ` +
      `BENCH_REQUEST_CHARACTERS ${config.BENCH_REQUEST_CHARACTERS}`,
  );
  log(
    `tools: ${versionOf('festival', ['--version'])}; ${versionOf('espeak-ng', ['--version'])}; ${versionOf('ffmpeg', ['-version'])}`,
  );
  const { texts, spoken } = await narrationTexts();
  const sizes = textSizes(spoken);
  log(
    `texts: ${sizes.texts} articles (headline + medium summary), ${sizes.characters.total.toLocaleString('en')} ` +
      `characters, ${sizes.words.toLocaleString('en')} words; per text ${sizes.characters.min} / ` +
      `${sizes.characters.median} / ${sizes.characters.max} characters (min / median / max)`,
  );

  const verdicts: { target: string; figure: string; met: boolean | null }[] = [];
  for (const engine of config.BENCH_ENGINES) {
    for (const concurrency of config.BENCH_CONCURRENCY) {
      const result = await narrationPhase(engine, concurrency, texts[engine]);
      verdicts.push(...reportPhase(result));
    }
  }
  if (config.BENCH_API) verdicts.push(...(await synthesizeLatency()));

  log();
  log(
    table(
      ['target', 'figure', 'met?'],
      verdicts.map((v) => [v.target, v.figure, v.met === null ? '(no target)' : v.met ? 'met' : 'NOT met']),
    ),
  );
  log(`load average ${loads()} at the end; ${f1(seconds(started) / 60)} minutes in all`);
  return 0;
}
