// `npm run demo`: the whole system on one machine, fed by local feeds.
//
// Brings the stack up (if it is not running), provisions it, serves the real
// feed snapshots and a BBC corpus released one article every few seconds from
// a loopback feed server, registers those feeds as "Demo: …" sources, starts
// the projector, the poller and the API, waits until the API lists articles,
// then prints where to point curl. Ctrl-C stops everything it started: the
// services, the feed server, its sources (deactivated, so no other poller keeps
// polling a server that is gone) and the stack if it brought the stack up.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { ClientRegistry, kafkaClientStore } from '../clients/client-registry.ts';
import { ConfigError } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { createLogger } from '../runtime/logger.ts';
import { nodeFlagsOf, serviceEnv } from '../runtime/node-flags.ts';
import type { SourceInput } from '../sources/source.ts';
import { SourceRegistry } from '../sources/source-registry.ts';
import {
  apiArticleProbe,
  apiNarrationProbe,
  progressLine,
  waitForArticles,
  waitForNarration,
} from './article-readiness.ts';
import { loadDemoConfig, loopbackAllowList, repositoryRoot, type DemoConfig } from './config.ts';
import { demoSealingKeys } from './demo-sealing-key.ts';
import { readCorpus } from './corpus.ts';
import { CorpusRelease } from './corpus-release.ts';
import { demoCredentials } from './demo-credentials.ts';
import { demoSourcePrefix, demoSources } from './demo-sources.ts';
import { readyMessage } from './example-requests.ts';
import { readRealFeeds } from './feed-responses.ts';
import { ensureStack, type StackAction } from './local-stack.ts';
import { startLocalFeedServer, type LocalFeedServer } from './local-feed-server.ts';
import { startService, throttle, type ServiceProcess } from './service-process.ts';

const startedAt = Date.now();
const say = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)} s`;

let config: DemoConfig;
try {
  config = loadDemoConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78);
}

/** Everything started so far, for stopping; in the order started. */
const processes: ServiceProcess[] = [];
const stopRequested = new AbortController();
let stackBroughtUp = false;
let feedServer: LocalFeedServer | undefined;
let registration: { registry: SourceRegistry; producer: EventProducer; sources: SourceInput[] } | undefined;
const demoLog = createLogger(
  'demo',
  config.LOG_LEVEL,
  pino.destination({ dest: path.join(config.DEMO_LOG_DIR, 'demo.log'), mkdir: true, sync: true }),
);

const childEnv: NodeJS.ProcessEnv = {
  ...process.env,
  // Loopback feeds (ours, and any local test server the user adds) and webhooks to local receivers.
  OUTBOUND_ALLOW_LIST: [...new Set([...config.OUTBOUND_ALLOW_LIST, ...loopbackAllowList])].join(','),
  // One API process: a signing key made for this run is enough (and keeps the API from warning).
  API_TOKEN_KEYS: process.env.API_TOKEN_KEYS || `demo:${randomBytes(32).toString('base64url')}`,
  // Webhook secrets sealed with a key of this checkout's, not the public development key.
  WEBHOOK_SECRET_KEYS: await demoSealingKeys(
    process.env.WEBHOOK_SECRET_KEYS,
    path.join(process.env.STACK_DIR || path.join(repositoryRoot, '.stack'), 'demo-webhook-secret-keys'),
  ),
  // Audio URLs are signed by the API and (in webhooks) the dispatcher: one key for the run, shared.
  AUDIO_URL_KEYS: process.env.AUDIO_URL_KEYS || `demo:${randomBytes(32).toString('base64url')}`,
  // The narrator's and the dispatcher's audio addresses point at this run's API.
  API_PUBLIC_URL:
    process.env.API_PUBLIC_URL ||
    `http://${config.API_HOST.includes(':') ? `[${config.API_HOST}]` : config.API_HOST}:${config.PORT}`,
  PORT: String(config.PORT),
  API_HOST: config.API_HOST,
  // Sources added through the API poll as often as the demo's own live feeds.
  API_SOURCE_POLL_INTERVAL_SECONDS:
    process.env.API_SOURCE_POLL_INTERVAL_SECONDS || String(config.DEMO_POLL_SECONDS),
  // Adaptive polling may poll the busy live feeds that often too (its default minimum is 2 minutes).
  POLLER_MIN_INTERVAL_SECONDS: process.env.POLLER_MIN_INTERVAL_SECONDS || String(config.DEMO_POLL_SECONDS),
};

interface LaunchOptions {
  env?: NodeJS.ProcessEnv;
  /** Keep its output in the log file only. */
  quiet?: boolean;
  /** Show its plain-text output too (a command's own report), not only its JSON log's warnings. */
  plainLines?: boolean;
  /** Allowed while stopping (taking the stack down); anything else is refused once a stop began. */
  whileStopping?: boolean;
}

function launch(name: string, args: string[], options: LaunchOptions = {}): ServiceProcess {
  if (!options.whileStopping) stopRequested.signal.throwIfAborted();
  const service = startService({
    name,
    command: args[0]!,
    args: args.slice(1),
    cwd: repositoryRoot,
    env: options.env ?? childEnv,
    logDirectory: config.DEMO_LOG_DIR,
    plainLines: options.plainLines ?? false,
    ...(options.quiet
      ? {}
      : {
          onAttention: throttle(
            (line, heldBack) => {
              if (heldBack > 0) say(`${name} | (${heldBack} more warnings and errors: see its log)`);
              say(`${name} | ${line}`);
            },
            { burst: 5, windowMs: 60_000 },
          ),
        }),
  });
  processes.push(service);
  return service;
}

const tsx = (entry: string, flags: readonly string[] = []) => [
  process.execPath,
  ...flags,
  '--import',
  'tsx',
  entry,
];

/** Runs a command to its end and resolves with its exit code. */
async function runToEnd(name: string, args: string[], options: LaunchOptions = {}): Promise<number | null> {
  const exit = await launch(name, args, options).exited;
  if (exit.error) throw new Error(`${name} could not be started: ${exit.error.message}`);
  return exit.code;
}

async function assertPortFree(host: string, port: number, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `${host}:${port} is in use (another demo, or an API already running?); choose another port with ${variable}=…`
            : `cannot listen on ${host}:${port} (${variable}): ${error.message}`,
        ),
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A service that exits while the demo runs takes the demo down with it, saying why. */
function watch(service: ServiceProcess): void {
  void service.exited.then((exit) => {
    if (stopRequested.signal.aborted) return;
    const how = exit.error
      ? `could not be started (${exit.error.message})`
      : `exited unexpectedly (${exit.signal ?? `exit code ${exit.code}`})`;
    say(`\n${service.name} ${how}. Its last lines (all of them in ${relative(service.logFile)}):`);
    for (const line of service.tail().slice(-10)) say(`  ${service.name} | ${line.slice(0, 400)}`);
    void stop(1);
  });
}

const relative = (file: string) => path.relative(process.cwd(), file) || file;

async function start(): Promise<void> {
  const apiUrl = `http://${config.API_HOST.includes(':') ? `[${config.API_HOST}]` : config.API_HOST}:${config.PORT}`;
  // Before anything starts: a port in use is the commonest reason a second demo cannot run.
  await assertPortFree(config.API_HOST, config.PORT, 'PORT');
  if (config.DEMO_FEED_PORT !== 0) await assertPortFree('127.0.0.1', config.DEMO_FEED_PORT, 'DEMO_FEED_PORT');

  await ensureStack(
    process.env,
    (action: StackAction) => {
      if (action === 'up') stackBroughtUp = true;
      // `status` reports DOWN lines that are expected here: they stay in its log.
      return runToEnd(`stack-${action}`, ['bash', 'docker/stack/stack.sh', action], {
        quiet: action === 'status',
        plainLines: true,
      });
    },
    say,
  );

  say('provisioning: topics, schemas, ClickHouse migrations');
  const provisioned = await runToEnd('provision', tsx('services/provision/main.ts'), {
    env: { ...childEnv, LOG_LEVEL: 'warn' },
    plainLines: true,
  });
  if (provisioned !== 0) {
    throw new Error(
      `provisioning failed (exit code ${provisioned}); see ${relative(path.join(config.DEMO_LOG_DIR, 'provision.log'))}`,
    );
  }

  stopRequested.signal.throwIfAborted();

  const release = new CorpusRelease(readCorpus(), { periodMs: config.DEMO_RELEASE_SECONDS * 1000 });
  const realFeeds = readRealFeeds();
  feedServer = await startLocalFeedServer({
    release,
    realFeeds,
    window: config.DEMO_FEED_WINDOW,
    port: config.DEMO_FEED_PORT,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'EADDRINUSE'
        ? `the feed server's port ${config.DEMO_FEED_PORT} is in use; choose another with DEMO_FEED_PORT=…`
        : `the feed server could not start: ${error.message}`,
    );
  });

  const sources = demoSources({
    feedServerUrl: feedServer.url,
    liveCategories: release.categories,
    realFeeds: [...realFeeds.keys()],
    livePollSeconds: config.DEMO_POLL_SECONDS,
    snapshotPollSeconds: Math.max(300, config.DEMO_POLL_SECONDS),
  });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: `${config.KAFKA_CLIENT_ID}-demo`,
    logger: demoLog,
  });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  const registry = new SourceRegistry({ kafka, codec, producer });
  // From here on, stopping deactivates them (possibly before they were ever active: harmless).
  registration = { registry, producer, sources };
  stopRequested.signal.throwIfAborted();
  const changes = await registry.addMany(sources);
  const count = (change: string) => changes.filter((c) => c.change === change).length;
  say(
    `feeds: ${feedServer.url}/ serves ${realFeeds.size} real snapshots and ${release.categories.length} live BBC feeds; ` +
      `registered as "${demoSourcePrefix}…" sources (${count('added')} added, ${count('updated')} reactivated or updated, ${count('unchanged')} unchanged)`,
  );

  // Before the API starts, so its client directory knows the demo client from its first request.
  const credentials = await demoCredentials(
    new ClientRegistry({ store: kafkaClientStore({ kafka, codec, producer }) }),
    config.DEMO_API_KEY,
  );
  say(
    credentials.generated
      ? 'credentials: DEMO_API_KEY was not set, so a key was made for this run (shown below)'
      : 'credentials: DEMO_API_KEY belongs to the "Demo" client (Professional plan, every scope)',
  );

  for (const [name, entry] of [
    ['projector', 'services/projector/main.ts'],
    ['enricher', 'services/enricher/main.ts'],
    ['narrator', 'services/narrator/main.ts'],
    ['documentarian', 'services/documentarian/main.ts'],
    ['matcher', 'services/matcher/main.ts'],
    ['clusterer', 'services/clusterer/main.ts'],
    ['dispatcher', 'services/dispatcher/main.ts'],
    ['poller', 'services/poller/main.ts'],
    ['api', 'services/api/main.ts'],
  ] as const) {
    watch(
      launch(name, tsx(entry, nodeFlagsOf(name)), {
        env: serviceEnv(name, childEnv),
      }),
    );
  }
  say(
    'services: projector, enricher, narrator, documentarian, matcher, clusterer, dispatcher, poller and api started',
  );

  const progress = progressLine(say);
  const sample = await waitForArticles(apiArticleProbe(apiUrl, credentials.apiKey), {
    timeoutMs: config.DEMO_READY_TIMEOUT_SECONDS * 1000,
    onProgress: (_, status) =>
      progress.update(`waiting for articles to be queryable: ${elapsed()} (${status})`),
    signal: stopRequested.signal,
  }).finally(() => progress.done());

  progress.update('waiting for the first narration');
  const narrationUrl = await waitForNarration(apiNarrationProbe(apiUrl, credentials.apiKey), {
    timeoutMs: 60_000,
    signal: stopRequested.signal,
  }).finally(() => progress.done());
  const message = readyMessage({
    apiUrl,
    articleId: sample.ids[0]!,
    feedServerUrl: feedServer.url,
    credentials,
    elapsed: elapsed(),
    releaseSeconds: config.DEMO_RELEASE_SECONDS,
    pollSeconds: config.DEMO_POLL_SECONDS,
    narrationUrl,
    logFiles: [
      'projector',
      'enricher',
      'narrator',
      'documentarian',
      'matcher',
      'clusterer',
      'dispatcher',
      'poller',
      'api',
    ].map((n) => relative(path.join(config.DEMO_LOG_DIR, `${n}.log`))),
  });
  for (const line of message) say(line);
}

let stopping: Promise<void> | undefined;

/** Stops everything the demo started, then exits with `code`. */
function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    stopRequested.abort();
    say('\nstopping the demo… (Ctrl-C again to force)');
    await Promise.all([...processes].reverse().map((p) => p.stop(15_000)));
    // Let an interrupted start settle before undoing what it did.
    await startup.catch(() => undefined);
    if (registration) {
      const { registry, producer, sources } = registration;
      try {
        await withTimeout(
          registry.addMany(sources.map((s) => ({ ...s, active: false }))),
          10_000,
          'deactivating the demo sources',
        );
        say(
          `sources: ${sources.length} "${demoSourcePrefix}…" sources deactivated (the next demo reactivates them)`,
        );
      } catch (error) {
        say(`sources: could not deactivate the demo sources: ${(error as Error).message}`);
      }
      await producer.disconnect().catch(() => undefined);
    }
    await feedServer?.close();
    if (stackBroughtUp && !config.DEMO_KEEP_STACK) {
      say('local stack: taking it down (the demo brought it up; DEMO_KEEP_STACK=true keeps it)');
      await runToEnd('stack-down', ['bash', 'docker/stack/stack.sh', 'down'], {
        whileStopping: true,
        plainLines: true,
      });
    }
    say('demo stopped.');
    process.exit(code);
  })();
  return stopping;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// One Ctrl-C in `npm run demo` can arrive more than once (the terminal signals the whole process group, and
// npm and tsx pass it on as well), so only a signal well after the first one means "force".
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now();
      return void stop(0);
    }
    if (Date.now() - firstSignalAt < 1_500) return;
    say('stopping now.');
    for (const p of processes) p.kill();
    process.exit(130);
  });
}

const startup = start();
startup.catch((error: unknown) => {
  if (stopRequested.signal.aborted) return;
  say(`\nthe demo could not start: ${(error as Error).message}`);
  void stop(1);
});
