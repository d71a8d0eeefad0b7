// npm run bench:audio — speech throughput and latency (a benchmark, not a test): ./audio/run.ts, in a
// namespace of the run's own (./support/bench-namespace.ts: here only its Redis keys), removed at the end.
import { runBench } from './support/bench-namespace.ts';

await runBench('audio', {}, () => import('./audio/run.ts'));
