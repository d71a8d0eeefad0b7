// KafkaJS restarts a consumer that crashed on an error it deems retriable, and leaves one that crashed on
// any other error stopped for good, while the process goes on as if it consumed: nothing is thrown, the
// only sign is the CRASH event's `restart: false` (tulios/kafkajs#1445). A broker restart is enough to
// cause one: a consumer that looks for its group's coordinator while no broker answers gets
// KafkaJSGroupCoordinatorNotFound, which is non-retriable (kafkajs/src/cluster/index.js swallows each
// broker's connection error and throws it). A stall that looks like one was seen in CI's chaos run: no
// alert delivered for 19 minutes after the broker was killed, until a second dispatcher joined its
// groups (docs/reliability.md; not reproduced since).
//
// So every long-lived consumer runs again after such a crash: after a pause (1 s, doubling up to 30 s,
// back to 1 s once it has joined its group), `rerun` calls its run() with the same configuration, which is
// what KafkaJS's own restart does (the subscription outlives the crash). A crash that keeps coming (a
// topic the client may not read, say) is logged at each attempt rather than left silent.
import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import type { Logger } from '../logger.ts';

export interface CrashRestartOptions {
  consumer: Pick<Consumer, 'on' | 'events'>;
  /** Runs the consumer again: its run() with the configuration it was started with. */
  rerun: () => Promise<void>;
  logger: Logger;
  group: string;
  initialPauseMs?: number;
  maxPauseMs?: number;
}

export interface CrashRestart {
  /** No more restarts (the consumer is being stopped); cancels one that is waiting. */
  stop(): void;
}

export function restartAfterFatalCrash(options: CrashRestartOptions): CrashRestart {
  const { consumer, logger, group } = options;
  const initial = options.initialPauseMs ?? 1_000;
  const max = options.maxPauseMs ?? 30_000;
  let pause = initial;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    const wait = pause;
    pause = Math.min(pause * 2, max);
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped) return;
      options.rerun().catch((error: unknown) => {
        logger.error({ group, err: error }, 'restarting the crashed consumer failed; trying again');
        schedule();
      });
    }, wait);
  };

  const removeCrash = consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (payload.restart || stopped) return;
    logger.error(
      { group, err: payload.error, restartInMs: pause },
      'consumer crashed and KafkaJS will not restart it; starting it again',
    );
    schedule();
  });
  const removeJoin = consumer.on(consumer.events.GROUP_JOIN, () => {
    pause = initial;
  });

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      removeCrash();
      removeJoin();
    },
  };
}

/**
 * Runs `consumer` with `config`, and again with the same after any crash KafkaJS does not restart it
 * from; stop() the result before disconnecting the consumer.
 */
export async function runRestartingAfterCrash(
  consumer: Pick<Consumer, 'on' | 'events' | 'run'>,
  config: ConsumerRunConfig,
  options: Pick<CrashRestartOptions, 'logger' | 'group'>,
): Promise<CrashRestart> {
  const restart = restartAfterFatalCrash({ consumer, rerun: () => consumer.run(config), ...options });
  try {
    await consumer.run(config);
  } catch (error) {
    restart.stop();
    throw error;
  }
  return restart;
}
