// The faults a chaos run does to the stack's own processes (docker/stack/stack.sh): kill a component by
// the pid in its pid file (after checking the pid is still that component, not a recycled one), bring
// it back with `stack.sh up` (which starts only what is down), and freeze or thaw Redis. Every fault
// here is undone by the run's clean-up too, so a run that fails or is interrupted mid-fault leaves the
// shared stack as it found it.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stackDir } from '../support/stack-dirs.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** What a component's command line contains (as stack.sh's own `signature`). */
const signatures: Record<string, string> = {
  kafka: 'kafka.Kafka',
  registry: 'apicurio-registry-app',
  clickhouse: 'clickhouse',
};

function cmdline(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** The pid of a running stack component (`kafka`, `kafka-2`, `registry`, `clickhouse`), checked. */
export function componentPid(component: string): number {
  const file = `${stackDir()}/run/${component}.pid`;
  if (!existsSync(file)) throw new Error(`no pid file ${file}: is ${component} started by the stack?`);
  const pid = Number(readFileSync(file, 'utf8').trim());
  const signature = signatures[component.replace(/-\d+$/, '')]!;
  const line = cmdline(pid);
  if (!line?.includes(signature))
    throw new Error(`pid ${pid} of ${component} is not running ${signature} (${line ?? 'gone'})`);
  return pid;
}

/** The broker components: kafka-1..kafka-N on a multi-broker stack, else the one `kafka`. */
export function brokerComponents(): string[] {
  const run = `${stackDir()}/run`;
  const numbered = readdirSync(run)
    .map((f) => /^(kafka-\d+)\.pid$/.exec(f)?.[1])
    .filter((c): c is string => c !== undefined)
    .sort();
  return numbered.length > 0 ? numbered : ['kafka'];
}

/** TCP ports a process listens on (from /proc: its socket inodes against the LISTEN sockets). */
export function listeningPorts(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is hex ip:port, st 0A is LISTEN, the inode is the 10th field
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Sends `signal` to a component and resolves once the process is gone. */
export async function killComponent(component: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
  const pid = componentPid(component);
  process.kill(pid, signal);
  const deadline = Date.now() + 120_000;
  while (cmdline(pid) !== null) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      throw new Error(`${component} (pid ${pid}) still running 120 s after ${signal}: killed`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pid;
}

/** `stack.sh up`: starts whatever of the stack is down, waits until it is healthy. */
export async function stackUp(): Promise<void> {
  await run('bash', ['docker/stack/stack.sh', 'up'], {
    cwd: root,
    env: { ...process.env, STACK_DIR: stackDir() },
    timeout: 300_000,
  });
}

/** `stack.sh status`: true when every component is healthy. */
export async function stackHealthy(): Promise<boolean> {
  try {
    await run('bash', ['docker/stack/stack.sh', 'status'], {
      cwd: root,
      env: { ...process.env, STACK_DIR: stackDir() },
      timeout: 60_000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The redis-server listening on `port`: the stack's (its pid file) or an external one that the stack
 * found running and left alone (then found by its listening port).
 */
export function redisPid(port: number): number {
  const file = `${stackDir()}/run/redis.pid`;
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (cmdline(pid)?.includes('redis-server')) return pid;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (!cmdline(pid)?.startsWith('redis-server')) continue;
    try {
      if (listeningPorts(pid).has(port)) return pid;
    } catch {
      // not ours to read
    }
  }
  throw new Error(`no redis-server listening on ${port}`);
}
