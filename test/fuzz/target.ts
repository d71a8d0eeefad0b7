// What the fuzzer runs against, all in the run's namespace: news in its topics (articles from the BBC
// corpus, enriched), two API clients (every scope; read:feeds only), a local feed server (valid feed
// and webhook URLs), the projector (commands answer once the read model shows them) and the real API
// process, started with --expose-gc and ./memory-probe.ts so its memory can be read after a full GC.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kafka } from 'kafkajs';
import { ClientRegistry, kafkaClientStore } from '../../services/clients/client-registry.ts';
import { readCorpus } from '../../services/demo/corpus.ts';
import type { ArticleDiscovered, ArticleEnriched } from '../../services/runtime/events/types.generated.ts';
import { infrastructureEnv, loadConfig } from '../../services/runtime/config.ts';
import { createKafka } from '../../services/runtime/kafka/client.ts';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../services/runtime/logger.ts';
import { freePort } from '../integration/support/api-process.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import type { CleanUp } from '../bench/support/clean-up.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import type { MemoryFigures } from './report.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Target {
  url: string;
  port: number;
  feeds: FeedServer;
  apiKey: string;
  limitedKey: string;
  clientId: string;
  clientSecret: string;
  /** Secrets the API holds or was given (keys, client credentials): none may appear in an answer. */
  secrets: string[];
  /** The API's memory after a full GC. */
  memory(): Promise<MemoryFigures>;
  /** The API process ended (crashed) while the run went on. */
  exited(): number | string | null;
  /** The last lines the API wrote. */
  output(): string;
  /** The API's log lines about one request (by its id). */
  logFor(requestId: string): string;
}

const key = () => randomBytes(32).toString('base64url');

export async function startTarget(cleanUp: CleanUp, log: (line: string) => void): Promise<Target> {
  const config = loadConfig(infrastructureEnv);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'fuzz',
    logger: createLogger('fuzz', 'error'),
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  cleanUp.onCleanup('disconnect the producer', () => producer.disconnect());

  const feeds = await startFeedServer();
  cleanUp.onCleanup('stop the feed server', () => feeds.close());
  const clients = await createClients(kafka, codec, producer);
  await appendNews(producer);
  log('fuzz: appended 60 articles and their enrichments; starting the projector and the API');

  const serverKeys = {
    API_TOKEN_KEYS: `f1:${key()}`,
    AUDIO_URL_KEYS: `a1:${key()}`,
    WEBHOOK_SECRET_KEYS: `w1:${key()}`,
  };
  const audioDir = mkdtempSync(path.join(tmpdir(), 'fuzz-audio-'));
  cleanUp.onCleanup('remove the audio directory', async () =>
    rmSync(audioDir, { recursive: true, force: true }),
  );
  const projector = spawnProcess(['--import', 'tsx', 'services/projector/main.ts'], { LOG_LEVEL: 'warn' });
  cleanUp.onCleanup('stop the projector', () => projector.stop());

  const port = await freePort();
  const api = spawnProcess(
    ['--expose-gc', '--import', 'tsx', '--import', './test/fuzz/memory-probe.ts', 'services/api/main.ts'],
    {
      LOG_LEVEL: 'warn',
      PORT: String(port),
      API_HOST: '127.0.0.1',
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
      AUDIO_DIR: audioDir,
      STREAM_TOKEN_TTL_SECONDS: '3600',
      API_VISIBLE_WITHIN_MS: '20000',
      // The run presents hundreds of failing credentials a minute from one address on purpose: with the
      // limit on guessing (30 a minute) every request carrying a credential answered 429 once it was
      // reached, and most of the run tested nothing else (4,551 of 20,000 on 2026-12-03). That limit is
      // tested on its own (test/integration/access-control.test.ts).
      API_AUTH_FAILURES_PER_MINUTE: '0',
      ...serverKeys,
    },
    true,
  );
  cleanUp.onCleanup('stop the API', () => api.stop());
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => {
    if (api.child.exitCode !== null) throw new Error(`the API exited while starting:\n${api.output()}`);
    return (await fetch(`${url}/readyz`).catch(() => null))?.ok === true;
  }, 'the API to be ready');
  await waitUntil(async () => {
    const answer = await fetch(`${url}/v1/articles?limit=100`, {
      headers: { authorization: `Bearer ${clients.apiKey}` },
    });
    const body = (await answer.json()) as { articles?: unknown[] };
    return (body.articles?.length ?? 0) >= 60;
  }, 'the articles to be projected');

  return {
    url,
    port,
    feeds,
    ...clients,
    secrets: [
      clients.apiKey,
      clients.limitedKey,
      clients.clientSecret,
      ...Object.values(serverKeys).map((v) => v.split(':')[1]!),
      ...(config.CLICKHOUSE_PASSWORD ? [config.CLICKHOUSE_PASSWORD] : []),
    ],
    memory: () => measureMemory(api.child),
    exited: () => api.child.exitCode ?? api.child.signalCode,
    output: () => api.output(),
    logFor: (requestId) =>
      api
        .log()
        .split('\n')
        .filter((line) => line.includes(requestId))
        .join('\n'),
  };
}

async function createClients(kafka: Kafka, codec: EventCodec, producer: EventProducer) {
  const registry = new ClientRegistry({ store: kafkaClientStore({ kafka, codec, producer }) });
  const limits = { calls_per_hour: 1_000_000_000, live_connections: null, alert_endpoints: null };
  const full = await registry.createTenant(
    { name: 'Fuzz tenant', plan: { plan: 'enterprise', limits } },
    { apiKey: true, clientSecret: true },
  );
  const limited = await registry.createTenant(
    { name: 'Fuzz reader', plan: { plan: 'enterprise', limits }, scopes: ['read:feeds'] },
    { apiKey: true },
  );
  return {
    apiKey: full.apiKey!,
    clientId: full.client.client_id,
    clientSecret: full.clientSecret!,
    limitedKey: limited.apiKey!,
  };
}

/** Sixty articles of the BBC corpus, published over the last two days, each with an enrichment. */
async function appendNews(producer: EventProducer): Promise<void> {
  const corpus = readCorpus();
  const categories = [...new Set(corpus.map((a) => a.category))];
  const chosen = categories.flatMap((c) => corpus.filter((a) => a.category === c).slice(0, 12)).slice(0, 60);
  const now = Date.now();
  const articles: ArticleDiscovered[] = chosen.map((a, i) => {
    const at = now - (i + 1) * 47 * 60_000;
    return discoveredArticle(`fuzz-${a.id.replace('/', '-')}`, at + 1000, {
      source_id: `fuzz-source-${a.category}`,
      source_name: `BBC ${a.category}`,
      guid: a.id,
      url: `https://news.example/${a.id}`,
      original_url: `https://news.example/${a.id}`,
      title: a.title,
      summary: a.paragraphs[0] ?? '',
      content: a.paragraphs.join('\n'),
      published_at: at,
      category: ({ tech: 'technology', sport: 'sports' } as Record<string, string>)[a.category] ?? a.category,
    });
  });
  const sentiments = ['positive', 'negative', 'neutral', 'mixed'] as const;
  const enrichments: ArticleEnriched[] = articles.map((a, i) => ({
    article_id: a.article_id,
    status: 'succeeded',
    failure_reason: null,
    summary: a.summary,
    context: null,
    context_article_ids: [],
    insights: [],
    sentiment: { label: sentiments[i % 4]!, score: 0.5 },
    entities: [
      { name: i % 2 ? 'Microsoft' : 'Bank of England', type: 'organization', salience: 0.8, mentions: 2 },
    ],
    keywords: ['economy'],
    category: a.category,
    language: 'en',
    reading_time_seconds: 60,
    provider: 'embedded',
    model: 'extractive-1',
    enriched_at: a.discovered_at + 1000,
    revision: 1,
    occurred_at: a.discovered_at + 1000,
    article_url: a.url,
    article_title: a.title,
  }));
  await producer.send(
    topicNames.articlesDiscovered,
    articles.map((value) => ({ key: value.article_id, value })),
  );
  await producer.send(
    topicNames.articlesEnriched,
    enrichments.map((value) => ({ key: value.article_id, value })),
  );
}

interface Spawned {
  child: ChildProcess;
  output(): string;
  /** Its warnings and errors of the whole run (it logs at warn). */
  log(): string;
  stop(): Promise<void>;
}

function spawnProcess(args: string[], env: Record<string, string>, ipc = false): Spawned {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let log = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (log.length < 20_000_000) log += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function measureMemory(child: ChildProcess): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the API did not report its memory (started without the probe?)')),
      30_000,
    );
    const onMessage = (message: { type?: string } & MemoryFigures) => {
      if (message?.type !== 'memory') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ rssBytes: message.rssBytes, heapUsedBytes: message.heapUsedBytes });
    };
    child.on('message', onMessage);
    child.send({ type: 'measure-memory' });
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (/exited/.test((error as Error).message)) throw error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
