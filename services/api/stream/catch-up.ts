// A resuming client's read-back from Kafka, for positions the replay buffer no longer holds: a reader of
// its own from the client's position up to where the buffer begins. Each reader is a consumer-group
// member with its own fetches, so an instance runs only a few at once and the rest wait their turn.
import type { Kafka } from 'kafkajs';
import type { Logger } from '../../runtime/logger.ts';
import type { EventCodec } from '../../runtime/kafka/registry.ts';
import { PositionReader } from './position-reader.ts';
import type { CatchUp } from './stream-connection.ts';

export function kafkaCatchUp(options: {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  groupPrefix: string;
  topics?: readonly string[];
  concurrency: number;
}): CatchUp {
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = async (signal: AbortSignal) => {
    while (running >= options.concurrency) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      if (signal.aborted) throw new Error('the client went away');
    }
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async (from, until, onRecords, signal) => {
    await turn(signal);
    try {
      const reader = await PositionReader.start({ ...options, from, until, onRecords });
      try {
        const gone = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        await Promise.race([reader.done, gone]);
      } finally {
        await reader.stop();
      }
    } finally {
      release();
    }
  };
}
