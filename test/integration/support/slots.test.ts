import { describe, expect, it } from 'vitest';
import { slotCount, slotTopicPrefix } from './slots.ts';

describe('integration worker slots', () => {
  it("puts every slot in a namespace of its own under the stack's, slot 1 too", () => {
    expect(slotTopicPrefix(1)).toBe('it1.');
    expect(slotTopicPrefix(2)).toBe('it2.');
    expect(slotTopicPrefix(1, 'staging.')).toBe('staging.it1.');
    expect(slotTopicPrefix(3, 'staging.')).toBe('staging.it3.');
    expect(() => slotTopicPrefix(0)).toThrow(/1 or more/);
  });

  it('reads INTEGRATION_SLOTS: 3 unless set, a whole number from 1 to 16', () => {
    expect(slotCount(undefined)).toBe(3);
    expect(slotCount(' ')).toBe(3);
    expect(slotCount('1')).toBe(1);
    expect(slotCount('4')).toBe(4);
    for (const bad of ['0', '17', '2.5', 'two'])
      expect(() => slotCount(bad)).toThrow(
        `INTEGRATION_SLOTS must be a whole number from 1 to 16, not "${bad}"`,
      );
  });
});
