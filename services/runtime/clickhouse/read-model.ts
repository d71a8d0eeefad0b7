// Small helpers every read-model answer uses.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../api-error.ts';

/**
 * A DateTime read back as unix seconds (toUnixTimestamp; UInt32 may come back as a string in JSON
 * formats of some versions) as the API writes times: ISO 8601 UTC without milliseconds.
 */
export const isoTime = (seconds: number | string) =>
  new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * After a command appended its event: reads until the read model shows the change, so a GET right after
 * the answer sees it. Past `withinMs` the change is on Kafka but not visible yet: 503 with Retry-After.
 */
export async function untilVisible<T>(
  read: () => Promise<T>,
  done: (current: T) => boolean,
  withinMs: number,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const current = await read();
    if (done(current)) return current;
    if (Date.now() >= deadline)
      throw new ApiError(
        'service_unavailable',
        'the change was recorded but is not visible yet; check again in a few seconds',
        { 'Retry-After': '2' },
      );
    await sleep(100);
  }
}
