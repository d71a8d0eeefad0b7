// Prints a chaos run's ledger: a table for people, then one JSON line (`chaos-ledger {...}`) for the
// integration test and for comparing runs.
import type { Ledger } from './ledger.ts';
import type { UnexpectedExit } from './service-fleet.ts';

export interface RunFacts {
  log: (line: string) => void;
  seed: number;
  short: boolean;
  brokers: number;
  /** Freshness without faults (ms), of articles (to the projection) and alerts (to their delivery). */
  normal: Record<'articles' | 'alerts', { p50: number; p99: number }>;
  unexpectedExits: readonly UnexpectedExit[];
  seconds: number;
  /** The 1-, 5- and 15-minute load averages at the end. */
  load: readonly number[];
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function printLedger(ledger: Ledger, run: RunFacts): void {
  const { log } = run;
  const { articles: a, alerts: al, deadLetters: d } = ledger;
  log('');
  log(
    `chaos ledger (seed ${run.seed}, ${run.short ? 'short' : 'full'} schedule, ${run.brokers} broker(s), ${run.seconds.toFixed(0)} s, load average ${run.load.map((l) => l.toFixed(2)).join(' ')})`,
  );
  log(`  articles released                       ${a.released}`);
  log(
    `    projected exactly once (FINAL, by id) ${a.projectedOnce}   missing ${a.projectedMissing}, more than once ${a.projectedMoreThanOnce}`,
  );
  log(
    `    listed by the API exactly once        ${a.apiOnce}   missing ${a.apiMissing}, more than once ${a.apiMoreThanOnce}`,
  );
  log(`  alerts expected                         ${al.expected}`);
  log(`    delivered at least once               ${al.deliveredAtLeastOnce}   missing ${al.missing}`);
  log(`    delivered under different webhook ids ${al.deliveredWithDifferentIds}`);
  log(`    redelivered under the same id         ${al.redelivered} (allowed: at-least-once)`);
  log(
    `    requests in all / unexpected / bad signature  ${al.attempts} / ${al.unexpected} / ${al.badSignatures}`,
  );
  log(
    `  dead-lettered                           ${d.total}   poisoned ${d.poisoned}, other ${d.unexpected}, poisoned but not dead-lettered ${d.poisonedNotDeadLettered}`,
  );
  log(
    `  freshness without faults: articles (release → projection) p50 ${s(run.normal.articles.p50)}, p99 ${s(run.normal.articles.p99)}; ` +
      `alerts (release → accepted delivery) p50 ${s(run.normal.alerts.p50)}, p99 ${s(run.normal.alerts.p99)}`,
  );
  log(
    '  faults: held (from the fault to its end), then caught up (from its end until freshness is back under its p99)',
  );
  log(`    ${'fault'.padEnd(62)} ${'held'.padStart(7)} ${'articles'.padStart(9)} ${'alerts'.padStart(9)}`);
  const or = (ms: number | null) => (ms === null ? 'NEVER' : s(ms));
  for (const f of ledger.faults)
    log(
      `    ${f.name.padEnd(62)} ${s(f.endedAt - f.startedAt).padStart(7)} ${or(f.articlesMs).padStart(9)} ${or(f.alertsMs).padStart(9)}`,
    );
  if (run.unexpectedExits.length > 0) {
    log('  services that exited by themselves (started again):');
    for (const e of run.unexpectedExits)
      log(
        `    ${e.service} (${e.signal ?? `exit ${e.code}`}): ${e.tail.split('\n').filter(Boolean).slice(-1)[0] ?? ''}`,
      );
  }
  log(
    ledger.problems.length === 0
      ? '  OK: nothing lost, nothing doubled, every fault recovered'
      : '  PROBLEMS:',
  );
  for (const p of ledger.problems) log(`    - ${p}`);
  log(
    `chaos-ledger ${JSON.stringify({ ...ledger, seed: run.seed, brokers: run.brokers, unexpectedExits: run.unexpectedExits.length })}`,
  );
}
