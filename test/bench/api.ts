// npm run bench:api — read-model benchmark (a benchmark, not a test): ./api/run.ts, in a namespace of the
// run's own (./support/bench-namespace.ts), removed at the end (BENCH_KEEP_DATABASE=true keeps its
// database for a look afterwards).
import { runBench } from './support/bench-namespace.ts';

const keepDatabase = ['true', '1'].includes(process.env.BENCH_KEEP_DATABASE ?? '');
await runBench('api', { stack: true, migrations: true, keepDatabase }, () => import('./api/run.ts'));
