import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/** Polls `check` until it returns a truthy value or the time runs out (no fixed sleeps in tests). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  description: string,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${description}${last instanceof Error ? `: ${last.message}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Reads until the answer equals `expected` (deeply), and returns it. For an assertion on state that
 * arrives asynchronously: whatever the test asserts is what it waits for, so the assertion cannot run
 * before the state it checks. On timeout it fails with the difference from the last answer.
 */
export async function waitUntilEqual<T>(
  read: () => Promise<T>,
  expected: T,
  description: string,
  timeoutMs = 30_000,
): Promise<T> {
  let last: T | undefined;
  try {
    return await waitFor(
      async () => {
        last = await read();
        return isDeepStrictEqual(last, expected) ? { value: last } : undefined;
      },
      description,
      timeoutMs,
    ).then((found) => found.value);
  } catch (error) {
    if (last !== undefined) expect(last, `${(error as Error).message}; last answer`).toEqual(expected);
    throw error;
  }
}
