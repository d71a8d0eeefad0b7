// npm run bench:webhooks — webhook delivery throughput and alert latency (a benchmark, not a test):
// ./webhooks/run.ts, in a namespace of the run's own (./support/bench-namespace.ts), removed at the end.
import { runBench } from './support/bench-namespace.ts';

await runBench('webhooks', { stack: true }, () => import('./webhooks/run.ts'));
