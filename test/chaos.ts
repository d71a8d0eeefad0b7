// npm run chaos — a fault-injection run (a benchmark-style run, not a unit test): the pipeline as real
// processes under a steady feed, a flaky webhook receiver and a schedule of faults, then a ledger of
// what was released against what the system holds and sent (./chaos/run.ts, docs/reliability.md).
// CHAOS_MINUTES (10), CHAOS_SEED (printed at the start), CHAOS_SHORT=true or --short (one fault of each
// kind, about 3 minutes of articles: what CI runs). Exit code 1 when anything was lost or doubled.
//
// In a namespace of the run's own (./bench/support/bench-namespace.ts), removed at the end, also on
// failure and Ctrl-C. The webhook retry schedule is shortened before provisioning (its retry topics are
// made from it) so a delivery's retries end within the run.
import { runBench } from './bench/support/bench-namespace.ts';

process.env.WEBHOOK_RETRY_SCHEDULE ??= '2s,5s,10s,20s,30s,60s';
await runBench('chaos', { stack: true, migrations: true }, () => import('./chaos/run.ts'));
