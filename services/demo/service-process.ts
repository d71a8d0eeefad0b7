// One process the demo started (a service, the stack command, provisioning):
// its output goes to a log file, the lines worth a person's attention are
// passed on, and it can be stopped politely, then firmly.
//
// Each runs in a process group of its own, so a Ctrl-C in the terminal reaches
// the demo only and the demo decides the order things stop in; stopping signals
// the whole group, so nothing the child started itself is left behind.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error?: Error;
}

export interface ServiceProcess {
  readonly name: string;
  readonly pid: number | undefined;
  readonly logFile: string;
  readonly running: boolean;
  /** Resolves once the process has exited and its output is written down. */
  readonly exited: Promise<ServiceExit>;
  /** SIGTERM, then SIGKILL if it is still running after `graceMs`. */
  stop(graceMs: number): Promise<ServiceExit>;
  kill(): void;
  /** The last lines of its output, for a message about why it stopped. */
  tail(): string[];
}

export interface ServiceOptions {
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logDirectory: string;
  /** Called with each output line that deserves a person's attention (see `attentionWorthy`). */
  onAttention?: (line: string) => void;
  /** Pass on lines that are not JSON as well (a command's own report), not only the JSON log's warnings. */
  plainLines?: boolean;
}

const tailLength = 20;

export function startService(options: ServiceOptions): ServiceProcess {
  mkdirSync(options.logDirectory, { recursive: true });
  const logFile = path.join(options.logDirectory, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: 'w' });
  const lastLines: string[] = [];

  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let running = child.pid !== undefined;

  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      log.write(`${line}\n`);
      lastLines.push(line);
      if (lastLines.length > tailLength) lastLines.shift();
      const attention = attentionWorthy(line, options.plainLines ?? false);
      if (attention !== null) options.onAttention?.(attention);
    });
  }

  const exited = new Promise<ServiceExit>((resolve) => {
    // 'close' comes after the output streams ended, so the log file is complete.
    child.once('close', (code, signal) => {
      running = false;
      log.end(() => resolve({ code, signal }));
    });
    child.once('error', (error) => {
      if (child.pid !== undefined) return; // a failed kill(), not a failed start
      running = false;
      log.end(() => resolve({ code: null, signal: null, error }));
    });
  });

  const signalGroup = (signal: NodeJS.Signals) => {
    if (!running || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone between the check and the signal.
    }
  };

  return {
    name: options.name,
    pid: child.pid,
    logFile,
    get running() {
      return running;
    },
    exited,
    async stop(graceMs) {
      signalGroup('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([exited, late]);
      clearTimeout(timer);
      signalGroup('SIGKILL');
      return exited;
    },
    kill: () => signalGroup('SIGKILL'),
    tail: () => [...lastLines],
  };
}

const levelNames: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/**
 * The services log JSON (pino): warnings and worse are passed on, shortened to their message and error;
 * the rest stays in the log file. Lines that are not JSON (a library writing to the console, a stack
 * trace) are passed on only when asked for: a service that crashes has its last lines shown anyway.
 */
export function attentionWorthy(line: string, plainLines: boolean): string | null {
  if (line.trim() === '') return null;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return plainLines ? line : null;
  }
  if (typeof entry !== 'object' || entry === null) return plainLines ? line : null;
  const { level, msg, err, error } = entry as {
    level?: unknown;
    msg?: unknown;
    err?: { message?: unknown };
    error?: unknown;
  };
  if (typeof level !== 'number' || level < 40) return null;
  // KafkaJS gives the broker's answer as `error`, a string: without it "Response ListOffsets(key: 2,
  // version: 3)" says nothing of what the broker said.
  const reason =
    typeof err?.message === 'string' ? `: ${err.message}` : typeof error === 'string' ? `: ${error}` : '';
  const message = typeof msg === 'string' ? msg : JSON.stringify(msg ?? '');
  return `${levelNames[Math.min(60, Math.floor(level / 10) * 10)] ?? 'warning'}: ${message}${reason}`;
}

/**
 * Passes on at most `burst` lines per window, so a service failing on every request cannot bury the
 * demo's own output; how many were held back is told with the next line that is shown.
 */
export function throttle(
  show: (line: string, heldBack: number) => void,
  options: { burst: number; windowMs: number; clock?: () => number },
): (line: string) => void {
  const clock = options.clock ?? Date.now;
  let windowStart = -Infinity;
  let shown = 0;
  let heldBack = 0;
  return (line) => {
    const now = clock();
    if (now - windowStart >= options.windowMs) {
      windowStart = now;
      shown = 0;
    }
    if (shown >= options.burst) {
      heldBack++;
      return;
    }
    shown++;
    show(line, heldBack);
    heldBack = 0;
  };
}
