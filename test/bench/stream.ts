// npm run bench:stream — GET /v1/stream fanning Kafka out to many SSE clients (a benchmark, not a test):
// ./stream/run.ts, in a namespace of the run's own (./support/bench-namespace.ts), removed at the end.
import { runBench } from './support/bench-namespace.ts';

await runBench('stream', { stack: true, migrations: true }, () => import('./stream/run.ts'));
