// The short chaos run (npm run chaos -- --short, test/chaos/run.ts) as part of the suite: the pipeline as
// real processes under a steady feed and a flaky webhook receiver, one fault of each kind (every service
// SIGKILLed, the broker killed, ClickHouse, Redis and the registry down, two pollers and dispatchers),
// and then the ledger must show nothing lost, nothing doubled, and every fault recovered. It kills the
// stack's own processes, so it needs the native stack (docker/stack/stack.sh, with its pid files); with
// containers it is skipped. It takes about eight minutes; on a loaded machine up to three times that.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../chaos/ledger.ts';
import { stackDir } from '../support/stack-dirs.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The stack under test: its pid files say whether it is the native one this run can kill parts of. */
const dir = stackDir();
const nativeStack = existsSync(`${dir}/run/kafka.pid`) || existsSync(`${dir}/run/kafka-1.pid`);

/** The chaos run, while it runs. */
let running: ChildProcess | undefined;

function runChaos(): Promise<{ code: number | null; output: string }> {
  // A process group of its own, with the services it starts (the stack's daemons are setsid'd by
  // stack.sh, so they are not in it): if the test times out, afterAll stops all of it. Left running, a
  // timed-out run went on killing services and loading the machine under the files after it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/chaos.ts', '--short'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', STACK_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  let output = '';
  const keep = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** SIGTERM to the run's group (it stops its services), SIGKILL to what is left 30 s later. */
afterAll(async () => {
  const child = running;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // gone already
    }
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signalGroup('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  signalGroup('SIGKILL');
}, 60_000);

describe('the short chaos run', () => {
  it.skipIf(!nativeStack)(
    'loses nothing, doubles nothing and recovers from every fault',
    async () => {
      const { code, output } = await runChaos();
      const line = output.split('\n').find((l) => l.startsWith('chaos-ledger '));
      expect(line, output.slice(-6000)).toBeDefined();
      const ledger = JSON.parse(line!.slice('chaos-ledger '.length)) as Ledger;
      console.log(output.slice(output.indexOf('chaos ledger')));
      expect(ledger.problems, output.slice(-12_000)).toEqual([]);
      expect(ledger.articles.released).toBeGreaterThan(100);
      expect(ledger.articles.projectedOnce).toBe(ledger.articles.released);
      expect(ledger.articles.apiOnce).toBe(ledger.articles.released);
      expect(ledger.alerts.expected).toBeGreaterThan(20);
      expect(ledger.alerts.deliveredAtLeastOnce).toBe(ledger.alerts.expected);
      expect(ledger.alerts.deliveredWithDifferentIds).toBe(0);
      expect(ledger.deadLetters.unexpected).toBe(0);
      expect(ledger.deadLetters.poisoned).toBeGreaterThan(0);
      // One of each kind: the service kills, the broker, ClickHouse, Redis, the registry, two copies.
      expect(ledger.faults).toHaveLength(6);
      for (const fault of ledger.faults) expect(fault.recoveryMs, fault.name).not.toBeNull();
      expect(code).toBe(0);
    },
    30 * 60_000,
  );
});
