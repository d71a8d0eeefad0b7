// Before the integration suites: make sure the stack answers (see
// support/environment.ts for where it comes from), then provision it (topics,
// schemas, migrations) exactly as a deployment would, and provision the topic
// namespace of every further worker slot (support/slots.ts), removed again at
// the end. Both integration projects name this file; it does its work once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { infrastructureEnv, loadConfig } from '../../services/runtime/config.ts';
import { removeKafkaNamespace, removeSubjects } from '../bench/support/bench-namespace.ts';
import { chooseStackSource, dockerReachable, startContainers } from './support/environment.ts';
import { integrationSlots, slotTopicPrefix } from './support/slots.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

// Each project loads this file as a module of its own, so what they share lives on the process: the
// stack brought up once, and how many projects still have to end before it is torn down.
const shared = globalThis as { integrationStack?: { up: Promise<() => Promise<void>>; users: number } };

export default async function setup(): Promise<() => Promise<void>> {
  shared.integrationStack ??= { up: bringUp(), users: 0 };
  const stack = shared.integrationStack;
  stack.users++;
  const teardown = await stack.up;
  return async () => {
    if (--stack.users === 0) await teardown();
  };
}

async function bringUp(): Promise<() => Promise<void>> {
  const source = chooseStackSource(process.env, await dockerReachable());
  let stopContainers: (() => Promise<void>) | undefined;
  if (source === 'native') {
    execFileSync('bash', ['docker/stack/stack.sh', 'up'], { cwd: root, stdio: 'inherit' });
  } else if (source === 'containers') {
    stopContainers = await startContainers();
  }
  const base = process.env.TOPIC_PREFIX ?? '';
  const provision = (env: Record<string, string>) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'services/provision/main.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...env },
    });
  provision({});
  // Where the test files claim their worker slots (slot-namespace.ts); the workers inherit the variable.
  const slotDirectory = mkdtempSync(path.join(tmpdir(), 'integration-slots-'));
  process.env.INTEGRATION_SLOT_DIR = slotDirectory;
  const slots = Array.from({ length: integrationSlots }, (_, i) => slotTopicPrefix(i + 1, base));
  // Topics and schemas only: the files use ClickHouse databases of their own.
  for (const prefix of slots) provision({ TOPIC_PREFIX: prefix, PROVISION_SKIP: 'migrations' });
  return async () => {
    const config = loadConfig(infrastructureEnv);
    for (const prefix of slots) {
      await removeKafkaNamespace(prefix, config).catch((error: Error) =>
        process.stderr.write(`removing the topics of ${prefix}: ${error.message}\n`),
      );
      await removeSubjects(prefix, config.SCHEMA_REGISTRY_URL).catch((error: Error) =>
        process.stderr.write(`removing the subjects of ${prefix}: ${error.message}\n`),
      );
    }
    rmSync(slotDirectory, { recursive: true, force: true });
    await stopContainers?.();
  };
}
