// The baseline of ./baseline.ts in a process of its own, as the dispatcher under test is: each POST then
// crosses from one process to another (the receiver in the bench process), which is what the dispatcher's
// POSTs cost, rather than being answered on the same event loop that sent it. Started with fork() from
// ./run.ts (under tsx, as the dispatcher is); the parent sends one `setup` message, then a `posts` message
// per phase (warm-up, measured) and gets a `done` message back for each; it disconnects when finished.
import { rawPosts } from './baseline.ts';

export interface BaselineSetup {
  type: 'setup';
  /** The receiver's URLs, request i going to urls[i % urls.length] (the webhooks' paths). */
  urls: string[];
  /** Headers of every request, except webhook-id, which is `raw_<phase>_<i>`. */
  headers: Record<string, string>;
  body: string;
  concurrency: number;
}

export interface BaselinePosts {
  type: 'posts';
  phase: string;
  count: number;
}

export interface BaselineDone {
  type: 'done';
  phase: string;
  seconds: number;
  failed: number;
}

let setup: BaselineSetup | undefined;

process.on('message', (message: BaselineSetup | BaselinePosts) => {
  if (message.type === 'setup') {
    setup = message;
    return;
  }
  const { urls, headers, body, concurrency } = setup!;
  const { phase, count } = message;
  void rawPosts({
    count,
    concurrency,
    url: (i) => urls[i % urls.length]!,
    headers: (i) => ({ ...headers, 'webhook-id': `raw_${phase}_${i}` }),
    body,
  }).then(
    (result) => process.send!({ type: 'done', phase, ...result } satisfies BaselineDone),
    (error: unknown) => {
      process.stderr.write(`baseline process: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
