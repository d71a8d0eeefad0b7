// npm run bench:quality — how good the embedded enrichment provider is (a benchmark, not a test):
// ./quality/run.ts, in a namespace of the run's own (./support/bench-namespace.ts), as every benchmark;
// it needs no stack, and leaves nothing in it.
import { runBench } from './support/bench-namespace.ts';

await runBench('quality', {}, () => import('./quality/run.ts'));
