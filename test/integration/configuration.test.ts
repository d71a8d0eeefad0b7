// Invalid configuration stops a process at start with a message naming the
// variable, before it connects to anything.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT_CONFIG } from '../../services/runtime/lifecycle.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

const provision = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'services/provision/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('configuration', () => {
  it.each([
    [{ KAFKA_BROKERS: 'kafka without port' }, /KAFKA_BROKERS: expected a comma-separated list of host:port/],
    [{ TOPIC_PARTITIONS: 'six' }, /TOPIC_PARTITIONS: expected an integer/],
    [{ TOPIC_PARTITIONS: '0' }, /TOPIC_PARTITIONS: expected an integer from 1 to 1000/],
    [{ SCHEMA_REGISTRY_URL: 'localhost:8081' }, /SCHEMA_REGISTRY_URL: expected an http\(s\) URL/],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, /WEBHOOK_RETRY_SCHEDULE: expected comma-separated durations/],
    [{ CLICKHOUSE_DATABASE: 'news; DROP' }, /CLICKHOUSE_DATABASE: expected an identifier/],
  ])('stops with exit code 78 and names the variable: %o', (env, message) => {
    const result = provision(env);
    expect(result.status).toBe(EXIT_CONFIG);
    expect(result.stderr).toMatch(message);
  });
});
