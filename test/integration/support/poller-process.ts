// Runs services/poller/main.ts as a real process and follows its JSON log
// lines, so tests see what it was assigned and can SIGKILL it.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeFlags } from '../../../services/runtime/node-flags.ts';
import { topicNames } from '../../../services/runtime/kafka/topics.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface PollerProcess {
  child: ChildProcess;
  /** Partitions of news.sources.v1 in the latest assignment. */
  partitions: number[];
  /** Sources it stopped polling since no tenant subscribes to them (services/poller/source-followers.ts). */
  unfollowed: Set<string>;
  exited: Promise<number | null>;
}

/**
 * Polls at the sources' configured intervals unless `env` sets POLLER_ADAPTIVE: the suites time re-polls
 * by those intervals, and their feeds' dates (years old, or all alike) would give them other paces.
 * test/integration/adaptive-polling.test.ts runs one adaptive.
 *
 * Each suite's pollers start with an empty memory of emitted articles (POLLER_REBUILD_MEMORY=false) unless
 * `env` says otherwise: the stack's topic holds every earlier suite's and run's articles, and items
 * without a guid have the same ids in every run (their links), so a memory rebuilt from it would take
 * a suite's own feeds for seen. test/integration/poller-memory.test.ts rebuilds.
 */
export function startPoller(env: Record<string, string>): PollerProcess {
  const child = spawn(process.execPath, [...nodeFlags.poller, '--import', 'tsx', 'services/poller/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      POLLER_ADAPTIVE: 'false',
      POLLER_REBUILD_MEMORY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const handle: PollerProcess = {
    child,
    partitions: [],
    unfollowed: new Set(),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  // POLLER_LOG_DIR keeps each poller's log for diagnosis.
  const logFile = process.env.POLLER_LOG_DIR ? `${process.env.POLLER_LOG_DIR}/poller-${child.pid}.log` : null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (logFile) appendFileSync(logFile, `${line}\n`);
    try {
      const entry = JSON.parse(line) as {
        msg?: string;
        assigned?: { topic: string; partitions: number[] }[];
        sourceId?: string;
      };
      if (entry.msg?.startsWith('no tenant subscribes') && entry.sourceId)
        handle.unfollowed.add(entry.sourceId);
      if (entry.msg === 'partitions assigned') {
        handle.partitions = entry.assigned?.find((a) => a.topic === topicNames.sources)?.partitions ?? [];
      }
    } catch {
      // not a log line
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`poller exited ${code}: ${stderr}\n`);
  });
  return handle;
}
