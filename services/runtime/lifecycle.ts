// How every process starts and stops. A ConfigError prints its message and
// exits 78 (EX_CONFIG) before anything connects; SIGTERM/SIGINT run the stop
// hooks in reverse order of registration (stop consuming before closing the
// producer it writes dead letters with), bounded by a grace period.
import { ConfigError } from './config.ts';
import type { Logger } from './logger.ts';

export type StopHook = () => Promise<void>;

export interface Lifecycle {
  onStop: (hook: StopHook) => void;
  /** Resolves when a stop signal arrived and every hook ran. */
  stopped: Promise<void>;
}

export const EXIT_CONFIG = 78;

export function runProcess(
  main: (lifecycle: Lifecycle) => Promise<void>,
  options: { logger?: () => Logger; graceMs?: number } = {},
): void {
  const hooks: StopHook[] = [];
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping = false;

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const log = options.logger?.();
    log?.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      log?.error({ graceMs: options.graceMs ?? 30_000 }, 'stop hooks did not finish in time; exiting');
      process.exit(1);
    }, options.graceMs ?? 30_000);
    timer.unref();
    for (const hook of [...hooks].reverse()) {
      try {
        await hook();
      } catch (error) {
        log?.error({ err: error }, 'stop hook failed');
      }
    }
    resolveStopped();
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  main({ onStop: (hook) => hooks.push(hook), stopped }).catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    const log = options.logger?.();
    const message = missingTopic(error) ?? 'process failed';
    if (log) log.fatal({ err: error }, message);
    else process.stderr.write(`${message}: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
}

/**
 * What a start against an unprovisioned namespace fails with, said as what to do: KafkaJS answers a
 * missing topic with "This server does not host this topic-partition" and names no topic.
 */
export function missingTopic(error: unknown): string | null {
  const e = error as { name?: unknown; type?: unknown } | null;
  if (e?.name !== 'KafkaJSProtocolError' || e.type !== 'UNKNOWN_TOPIC_OR_PARTITION') return null;
  const prefix = process.env.TOPIC_PREFIX ? ` under TOPIC_PREFIX=${process.env.TOPIC_PREFIX}` : '';
  return `a Kafka topic this process uses does not exist${prefix}: run \`npm run provision\` with the same TOPIC_PREFIX and KAFKA_BROKERS`;
}
