// Before the integration suites: make sure the stack answers (see
// support/environment.ts for where it comes from), then provision it (topics,
// schemas, migrations) exactly as a deployment would.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseStackSource, dockerReachable, startContainers } from './support/environment.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const source = chooseStackSource(process.env, await dockerReachable());
  let teardown: (() => Promise<void>) | undefined;
  if (source === 'native') {
    execFileSync('bash', ['docker/stack/stack.sh', 'up'], { cwd: root, stdio: 'inherit' });
  } else if (source === 'containers') {
    teardown = await startContainers();
  }
  execFileSync('npx', ['tsx', 'services/provision/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  return teardown;
}
