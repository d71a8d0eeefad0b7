// Prints a chaos run's ledger: a table for people, then one JSON line (`chaos-ledger {...}`) for the
// integration test and for comparing runs.
import type { Ledger } from './ledger.ts';
import type { UnexpectedExit } from './service-fleet.ts';

export interface RunFacts {
  log: (line: string) => void;
  seed: number;
  short: boolean;
  brokers: number;
  normalP50: number;
  normalP99: number;
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
  log(`  freshness without faults               p50 ${s(run.normalP50)}, p99 ${s(run.normalP99)}`);
  log('  faults (recovery: from the end of the fault until freshness is back under the p99)');
  for (const f of ledger.faults)
    log(
      `    ${f.name.padEnd(60)} held ${s(f.endedAt - f.startedAt).padStart(7)}  recovered ${f.recoveryMs === null ? 'NEVER' : `after ${s(f.recoveryMs)}`}`,
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
