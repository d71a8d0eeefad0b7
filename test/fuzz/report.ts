// What a run saw: answers by status, by operation and by mutation, the targets reached, the failures
// with the exact request to replay, and the API's memory before and after. Printed at the end, and
// written as JSON for a test to read.
import { describeRequest, type FuzzRequest } from './requests.ts';

export interface MemoryFigures {
  rssBytes: number;
  heapUsedBytes: number;
}

export interface Failure {
  index: number;
  operation: string;
  target: string;
  mutation: string;
  problems: string[];
  request: string;
  answer: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  seconds: number;
  concurrency: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, Record<string, number>>;
  byMutation: Record<string, number>;
  /** Targets (operation → field or request part) that got at least one request. */
  targetsReached: number;
  targetsTotal: number;
  targetsMissed: string[];
  failures: Failure[];
  failureCount: number;
  /** Requests sent again after a 503 with Retry-After (each retry counted). */
  retried: number;
  memory?: {
    baseline: MemoryFigures;
    after: MemoryFigures;
    heapMarginBytes: number;
    heapGrowthBytes: number;
  };
  loadAverage: { start: number[]; end: number[] };
}

const keptFailures = 50;

export class Tally {
  readonly byStatus: Record<string, number> = {};
  readonly byOperation: Record<string, Record<string, number>> = {};
  readonly byMutation: Record<string, number> = {};
  readonly reached = new Set<string>();
  readonly failures: Failure[] = [];
  failureCount = 0;
  requests = 0;
  retried = 0;

  record(request: FuzzRequest, status: string, problems: string[], answer: string): void {
    this.requests++;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    const operation = (this.byOperation[request.operation] ??= {});
    operation[status] = (operation[status] ?? 0) + 1;
    const mutation =
      request.target === 'valid'
        ? 'valid'
        : request.target.replace(/:.*/, ':field') + ` ${request.mutation.split(' ')[0]}`;
    this.byMutation[mutation] = (this.byMutation[mutation] ?? 0) + 1;
    this.reached.add(`${request.operation} ${request.target}`);
    if (problems.length === 0) return;
    this.failureCount++;
    if (this.failures.length < keptFailures)
      this.failures.push({
        index: request.index,
        operation: request.operation,
        target: request.target,
        mutation: request.mutation,
        problems,
        request: describeRequest(request),
        answer,
      });
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function printReport(report: FuzzReport, log: (line: string) => void): void {
  log('');
  log(
    `fuzz summary: seed ${report.seed}, ${report.requests} requests in ${report.seconds.toFixed(1)} s (${Math.round(report.requests / report.seconds)} requests/s, ${report.concurrency} at a time)`,
  );
  log(
    `  load average at start ${report.loadAverage.start.map((l) => l.toFixed(2)).join(' ')}, at end ${report.loadAverage.end.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const statuses = Object.entries(report.byStatus).sort(([a], [b]) => a.localeCompare(b));
  log(`  by status: ${statuses.map(([s, n]) => `${s} × ${n}`).join(', ')}`);
  const fiveHundreds = statuses.filter(([s]) => s.startsWith('5')).reduce((sum, [, n]) => sum + n, 0);
  log(`  5xx: ${fiveHundreds} (after ${report.retried} retries of a 503 with Retry-After, as a client does)`);
  log('  by operation:');
  for (const [operation, counts] of Object.entries(report.byOperation).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const detail = Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    log(`    ${operation.padEnd(32)} ${String(total).padStart(6)}  ${detail}`);
  }
  log('  by mutation:');
  const mutations = Object.entries(report.byMutation).sort(([, a], [, b]) => b - a);
  for (let i = 0; i < mutations.length; i += 4)
    log(
      `    ${mutations
        .slice(i, i + 4)
        .map(([m, n]) => `${m} ${n}`.padEnd(30))
        .join('')}`,
    );
  log(
    `  targets reached: ${report.targetsReached} of ${report.targetsTotal}${report.targetsMissed.length ? ` (missed: ${report.targetsMissed.join(', ')})` : ''}`,
  );
  if (report.memory) {
    const { baseline, after, heapMarginBytes, heapGrowthBytes } = report.memory;
    log(
      `  API memory after a full GC: heap used ${mib(baseline.heapUsedBytes)} before, ${mib(after.heapUsedBytes)} after (${heapGrowthBytes >= 0 ? '+' : ''}${mib(heapGrowthBytes)}, margin ${mib(heapMarginBytes)}); RSS ${mib(baseline.rssBytes)} before, ${mib(after.rssBytes)} after`,
    );
  }
  log(`  failures: ${report.failureCount}`);
  for (const failure of report.failures) {
    log('');
    log(`  ✗ ${failure.problems.join('; ')}`);
    for (const line of failure.request.split('\n')) log(`      ${line}`);
    log(`      answer: ${failure.answer}`);
    log(`      replay: FUZZ_SEED=${report.seed} FUZZ_REPLAY=${failure.index} npm run fuzz`);
  }
  if (report.failureCount > report.failures.length)
    log(`  … and ${report.failureCount - report.failures.length} more failures`);
}
