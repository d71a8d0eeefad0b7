// npm run bench:matching — how well the company matcher finds monitored companies in news (a
// benchmark, not a test): ./matching/run.ts, in a namespace of the run's own
// (./support/bench-namespace.ts), as every benchmark; it needs no stack, and leaves nothing in it.
import { runBench } from './support/bench-namespace.ts';

await runBench('matching', {}, () => import('./matching/run.ts'));
