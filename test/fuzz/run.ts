// npm run fuzz — hostile clients against the real API (./main.ts runs this in a namespace of its own).
//
// Drives every operation of the /openapi.json the API serves (./openapi-walker.ts) with FUZZ_REQUESTS
// requests (20,000), FUZZ_CONCURRENCY (4) at a time: valid ones, and ones with one mutation each
// (./mutators.ts, ./values.ts): boundary values, wrong types, huge strings, control characters,
// broken Unicode and percent-escapes, deep JSON, wrong Content-Types, duplicated parameters, absurd
// headers, wrong methods and paths, missing or bad credentials. Each answer is judged (./oracle.ts):
// no 5xx, every 4xx in its error shape with a message, nothing internal or secret in any body. The
// API's heap after a full GC is measured after a warm-up and again after the run, and may not grow by
// more than FUZZ_HEAP_MARGIN_MIB. FUZZ_SEED (random unless given, always printed) fixes every request:
// FUZZ_SEED=s FUZZ_REPLAY=n1,n2 sends only those requests again. FUZZ_REPORT=file writes the summary as
// JSON. Exits 1 on any failure.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { integer, loadConfig, text } from '../../services/runtime/config.ts';
import { errorStatus } from '../../services/runtime/api-error.ts';
import type { BenchContext } from '../bench/support/bench-namespace.ts';
import { buildRequest, operationOrder, type RequestPlan } from './mutators.ts';
import { judge, type OracleContext } from './oracle.ts';
import { walkOpenApi, type OpenApiDocument, type Operation } from './openapi-walker.ts';
import { Pools } from './pools.ts';
import { parseSeed, randomSeed } from './prng.ts';
import { retryAfter, send } from './raw-http.ts';
import { printReport, Tally, type FuzzReport, type MemoryFigures } from './report.ts';
import { startTarget } from './target.ts';
import type { FuzzRequest } from './requests.ts';

const config = loadConfig({
  FUZZ_REQUESTS: integer(20_000, 1, 10_000_000),
  FUZZ_SEED: text(''),
  FUZZ_CONCURRENCY: integer(4, 1, 64),
  FUZZ_TIMEOUT_MS: integer(30_000, 1_000, 600_000),
  FUZZ_HEAP_MARGIN_MIB: integer(24, 1, 4_096),
  FUZZ_REPLAY: text(''),
  FUZZ_REPORT: text(''),
});

/** Served without being in the document; fuzzed all the same. */
const undocumented: Operation[] = [
  ['healthz', '/healthz', 'application/json'],
  ['readyz', '/readyz', 'application/json'],
  ['metrics', '/metrics', 'text/plain'],
  ['openApiDocument', '/openapi.json', 'application/json'],
  ['docsPage', '/docs', 'text/html'],
].map(([id, path, type]) => ({
  id: id!,
  method: 'GET',
  path: path!,
  parameters: [],
  authenticated: false,
  answers: { '200': { contentTypes: [type!] } },
  targets: ['valid', 'auth', 'content-type', 'headers', 'method', 'path', 'query'],
}));

export default async function fuzz({ cleanUp, log: print }: BenchContext): Promise<number> {
  const begun = performance.now();
  const log = (line: string) =>
    print(
      line.startsWith('fuzz:')
        ? `[${((performance.now() - begun) / 1000).toFixed(0).padStart(4)} s] ${line}`
        : line,
    );
  const seed = config.FUZZ_SEED ? parseSeed(config.FUZZ_SEED) : randomSeed();
  log(`fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
  const loadStart = loadavg();
  const target = await startTarget(cleanUp, log);
  const document = (await (await fetch(`${target.url}/openapi.json`)).json()) as OpenApiDocument;
  const operations = [...walkOpenApi(document), ...undocumented];
  const pools = new Pools(target.feeds.url, { clientId: target.clientId, clientSecret: target.clientSecret });
  const plan: RequestPlan = {
    seed,
    operations,
    host: `127.0.0.1:${target.port}`,
    pools,
    credentials: { apiKey: target.apiKey, limitedKey: target.limitedKey },
  };
  const oracle: OracleContext = {
    errorStatus,
    errorSchema: document.components?.schemas?.Error ?? {},
    secrets: target.secrets,
    internals: [process.env.CLICKHOUSE_DATABASE ?? '', process.cwd()].filter((s) => s.length > 3),
  };
  const byId = new Map(operations.map((o) => [o.id, o]));
  const tally = new Tally();
  const exchange = async (request: FuzzRequest, record: boolean) => {
    const operation = byId.get(request.operation)!;
    let result = await send(target.port, request, config.FUZZ_TIMEOUT_MS);
    // A 503 with Retry-After is the API shedding load or waiting on its read model, as documented; a
    // client that honours it sends the request again, and only what it then gets is judged.
    for (let retry = 0; retry < maxRetries && result.ok; retry++) {
      const waitSeconds = retryAfter(result.answer);
      if (waitSeconds === undefined) break;
      if (record) tally.retried++;
      await sleep(waitSeconds * 1000);
      result = await send(target.port, request, config.FUZZ_TIMEOUT_MS);
    }
    if (!result.ok) {
      if (record) tally.record(request, 'no answer', [result.problem], '(none)');
      return;
    }
    const { answer } = result;
    if (answer.status >= 200 && answer.status < 300)
      pools.harvest(operation, request.url, answer.headers['content-type'] ?? '', answer.body);
    if (!record) return;
    // A request sent with another method or to another path is judged by the operation it reached.
    const reached =
      request.target === 'method' || request.target === 'path'
        ? matchOperation(operations, request)
        : operation;
    const problems = judge(request, answer, reached, oracle);
    let shown = `${answer.status} ${JSON.stringify(answer.headers['content-type'] ?? '')} ${JSON.stringify(answer.body.toString('utf8').slice(0, 300))}`;
    // A 5xx names its request id: what the API logged under it says why.
    const requestId = answer.status >= 500 ? answer.headers['x-request-id'] : undefined;
    if (requestId) shown += `\n      API log: ${target.logFor(requestId).slice(0, 1_500) || '(nothing)'}`;
    tally.record(request, String(answer.status), problems, shown);
  };

  log(
    `fuzz: ${operations.length} operations, ${operations.reduce((n, o) => n + o.targets.length, 0)} targets; warming up with valid requests`,
  );
  await warmUp(plan, operations, (request) => exchange(request, false));
  let baseline: MemoryFigures | undefined;
  const replay = config.FUZZ_REPLAY ? config.FUZZ_REPLAY.split(',').map((n) => Number(n.trim())) : undefined;
  if (!replay) baseline = await target.memory();

  const order = operationOrder(seed, operations.length);
  const indexes = replay ?? Array.from({ length: config.FUZZ_REQUESTS }, (_, i) => i);
  log(`fuzz: sending ${indexes.length} requests, ${config.FUZZ_CONCURRENCY} at a time`);
  const started = performance.now();
  let next = 0;
  let crashed = false;
  const worker = async () => {
    while (next < indexes.length && !crashed) {
      const index = indexes[next++]!;
      await exchange(buildRequest(plan, order, index), true);
      if (target.exited() !== null) crashed = true;
      if (tally.requests % 2_000 === 0) log(`fuzz: ${tally.requests} sent, ${tally.failureCount} failures`);
    }
  };
  await Promise.all(Array.from({ length: config.FUZZ_CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  if (crashed)
    log(`fuzz: THE API EXITED (${target.exited()}) during the run; its last output:\n${target.output()}`);

  let memory: FuzzReport['memory'];
  if (baseline && !crashed) {
    const after = await target.memory();
    const heapMarginBytes = config.FUZZ_HEAP_MARGIN_MIB * 1024 * 1024;
    memory = {
      baseline,
      after,
      heapMarginBytes,
      heapGrowthBytes: after.heapUsedBytes - baseline.heapUsedBytes,
    };
  }
  const targets = operations.flatMap((o) => o.targets.map((t) => `${o.id} ${t}`));
  const report: FuzzReport = {
    seed,
    requests: tally.requests,
    seconds,
    concurrency: config.FUZZ_CONCURRENCY,
    byStatus: tally.byStatus,
    byOperation: tally.byOperation,
    byMutation: tally.byMutation,
    targetsReached: targets.filter((t) => tally.reached.has(t)).length,
    targetsTotal: targets.length,
    targetsMissed: replay ? [] : targets.filter((t) => !tally.reached.has(t)),
    failures: tally.failures,
    failureCount: tally.failureCount,
    retried: tally.retried,
    ...(memory ? { memory } : {}),
    loadAverage: { start: loadStart, end: loadavg() },
  };
  printReport(report, log);
  if (config.FUZZ_REPORT) writeFileSync(config.FUZZ_REPORT, `${JSON.stringify(report, null, 2)}\n`);
  const heapGrew = memory !== undefined && memory.heapGrowthBytes > memory.heapMarginBytes;
  if (heapGrew) log('fuzz: FAILED: the API heap did not come back to its baseline');
  return crashed || heapGrew || tally.failureCount > 0 ? 1 : 0;
}

/** Times a request answered 503 with Retry-After is sent again before its answer is judged. */
const maxRetries = 3;

/** The operation a method and path reach, if any. */
function matchOperation(operations: readonly Operation[], request: FuzzRequest): Operation | undefined {
  // The absolute form (http://host/path) reaches the same route as its path.
  const path = request.url.replace(/^[a-z]+:\/\/[^/]*/i, '').split(/[?#]/)[0]!;
  return operations.find(
    // As the router matches: in any case, a trailing slash allowed.
    (o) =>
      o.method === request.method && new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i').test(path),
  );
}

/**
 * Valid requests to every operation, the commands first, twice over: the resources they create give
 * the run valid ids, and the API has loaded and cached what it will (so the baseline is not a cold start).
 */
async function warmUp(
  plan: RequestPlan,
  operations: readonly Operation[],
  send: (r: FuzzRequest) => Promise<void>,
): Promise<void> {
  const commandsFirst = operations
    .map((operation, i) => ({ operation, i }))
    .sort((a, b) => rank(a.operation) - rank(b.operation));
  const order = commandsFirst.map(({ i }) => i);
  let index = -1_000_000;
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < order.length; k++) {
      const request = buildRequest(plan, order, index--, { valid: true, operationAt: k });
      await send(request);
    }
  }
}

const rank = (operation: Operation) =>
  operation.method === 'DELETE' ? 2 : operation.method === 'POST' ? 0 : 1;
