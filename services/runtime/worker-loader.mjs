// The first module of every worker thread (worker-pool.ts). The processes run their TypeScript through tsx, but a worker
// thread does not inherit the main thread's module hooks on Node 20 (execArgv `--import tsx` included:
// the worker's entry still fails with "Unknown file extension .ts"), so the worker registers tsx itself
// before it imports its real entry (workerData.entry, a .ts file URL). Plain JavaScript, since nothing
// can read TypeScript in this thread before this file has run.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
