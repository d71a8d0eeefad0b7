import { describe, expect, it } from 'vitest';
import { headerRepeated } from './repeated-header.ts';

describe('headerRepeated', () => {
  it('sees a header sent twice in any case, never a value that looks like a name', () => {
    const raw = (...rawHeaders: string[]) => ({ rawHeaders });
    expect(
      headerRepeated(raw('Authorization', 'Bearer a', 'authorization', 'Bearer b'), 'authorization'),
    ).toBe(true);
    expect(headerRepeated(raw('Authorization', 'Bearer a', 'Accept', 'authorization'), 'authorization')).toBe(
      false,
    );
    expect(headerRepeated(raw('X-Api-Key', 'a'), 'authorization')).toBe(false);
  });
});
