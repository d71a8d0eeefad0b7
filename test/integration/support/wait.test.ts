import { describe, expect, it } from 'vitest';
import { waitUntilEqual } from './wait.ts';

describe('waitUntilEqual', () => {
  it('returns once the answer equals what is expected, not before', async () => {
    let reads = 0;
    const read = async () => ({ rows: ++reads >= 3 ? ['a', 'b'] : ['a'] });
    await expect(waitUntilEqual(read, { rows: ['a', 'b'] }, 'both rows', 2_000)).resolves.toEqual({
      rows: ['a', 'b'],
    });
    expect(reads).toBe(3);
  });

  it('fails on timeout with the difference between the last answer and the expected one', async () => {
    const error = await waitUntilEqual(
      async () => ({ rows: ['a'] }),
      { rows: ['a', 'b'] },
      'both rows',
      200,
    ).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('timed out after 200 ms waiting for both rows');
    expect(error?.message).toContain(
      "last answer: expected { rows: [ 'a' ] } to deeply equal { rows: [ 'a', 'b' ] }",
    );
  });
});
