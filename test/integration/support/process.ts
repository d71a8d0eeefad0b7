// Starts the recording consumer as a real child process and follows the JSON
// lines it prints, so tests can SIGKILL or SIGTERM it like an orchestrator would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ConsumerProcess {
  child: ChildProcess;
  /** Latest snapshot the process printed. */
  latest: Record<string, unknown> & {
    processed?: number;
    assigned?: { topic: string; partitions: number[] }[];
  };
  events: Record<string, unknown>[];
  exited: Promise<number | null>;
}

export function startRecordingConsumer(env: Record<string, string>): ConsumerProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/integration/fixtures/recording-consumer.ts'],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const handle: ConsumerProcess = {
    child,
    latest: {},
    events: [],
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      handle.events.push(event);
      if (event.event === 'stats' || event.event === 'stopped') handle.latest = event;
    } catch {
      // not one of our lines (a stray log); ignore
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`recording consumer exited ${code}: ${stderr}\n`);
  });
  return handle;
}

export const assignedPartitions = (p: ConsumerProcess): number[] =>
  (p.latest.assigned ?? []).flatMap((a) => a.partitions);
