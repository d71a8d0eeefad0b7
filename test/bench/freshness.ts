// npm run bench:freshness — how soon adaptive polling finds articles, beside fixed-interval polling at the
// same number of requests (a benchmark, not a test): ./freshness/run.ts, in a namespace of the run's own
// (./support/bench-namespace.ts), as every benchmark; it needs no stack (a simulation in this process),
// and leaves nothing in it.
import { runBench } from './support/bench-namespace.ts';

await runBench('freshness', {}, () => import('./freshness/run.ts'));
