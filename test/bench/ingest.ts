// npm run bench:ingest — ingestion throughput (a benchmark, not a test): ./ingest/run.ts, in a namespace
// of the run's own (./support/bench-namespace.ts), removed at the end.
import { runBench } from './support/bench-namespace.ts';

await runBench('ingest', { stack: true }, () => import('./ingest/run.ts'));
