// Whether the demo needs to bring the local stack up (docker/stack/stack.sh).
// A stack the demo found running is shared infrastructure and is left alone;
// one it had to bring up is its own to take down (the caller sees the 'up').

/** Set any of these and the services are elsewhere (Docker, a shared stack): the demo leaves the stack alone. */
export const infrastructureVariables = [
  'KAFKA_BROKERS',
  'SCHEMA_REGISTRY_URL',
  'CLICKHOUSE_URL',
  'REDIS_URL',
];

export type StackAction = 'status' | 'up' | 'down';

/** Runs `stack.sh <action>` and resolves with its exit code. */
export type RunStack = (action: StackAction) => Promise<number | null>;

export async function ensureStack(
  env: Record<string, string | undefined>,
  run: RunStack,
  say: (line: string) => void,
): Promise<void> {
  const named = infrastructureVariables.filter((name) => env[name]);
  if (named.length > 0) {
    say(`infrastructure: using the services named in ${named.join(', ')}`);
    return;
  }
  if ((await run('status')) === 0) {
    say('local stack: already running (and left running when the demo stops)');
    return;
  }
  say('local stack: bringing it up (the first time fetches Kafka and the registry: minutes)');
  const code = await run('up');
  if (code !== 0) throw new Error(`the local stack did not come up (stack.sh up exited ${code})`);
}
