// npm run fuzz — hostile clients against the real API (./run.ts), in a namespace of the run's own
// (../bench/support/bench-namespace.ts): topics, database and Redis keys made for the run and removed
// when it ends, so the live system never sees a fuzz request's effects.
import { runBench } from '../bench/support/bench-namespace.ts';

await runBench('fuzz', { stack: true, migrations: true }, () => import('./run.ts'));
