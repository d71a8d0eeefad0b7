// Before the integration suites: make sure the stack answers, then provision
// it (topics, schemas, migrations) exactly as a deployment would.
// - Services given through environment variables (KAFKA_BROKERS etc.) are used as they are.
// - Otherwise the native stack is brought up with the same command the README gives.
// (A Docker engine is not available on our CI machines; docker-compose.yml
//  covers that case for people who have one: `docker compose up -d` then
//  run the tests with its environment.)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): void {
  const external = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'CLICKHOUSE_URL'].some((v) => process.env[v]);
  if (!external) {
    execFileSync('bash', ['docker/stack/stack.sh', 'up'], { cwd: root, stdio: 'inherit' });
  }
  execFileSync('npx', ['tsx', 'services/provision/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
}
