// npm run bench:documentary — how long a documentary takes from request to ready (a benchmark, not a
// test): ./documentary/run.ts, in a namespace of the run's own (./support/bench-namespace.ts), removed at
// the end.
import { runBench } from './support/bench-namespace.ts';

await runBench('documentary', { stack: true, migrations: true }, () => import('./documentary/run.ts'));
