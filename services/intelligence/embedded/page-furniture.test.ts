import { describe, expect, it } from 'vitest';
import { isNotWriting } from './page-furniture.ts';

describe('isNotWriting', () => {
  it('tells furniture from writing that starts the same way', () => {
    expect(isNotWriting('By John Smith')).toBe(true);
    expect(isNotWriting('By Sarah Jones, Technology reporter')).toBe(true);
    expect(isNotWriting('Photo credit: Reuters')).toBe(true);
    expect(isNotWriting('Related: Acme warns on profits')).toBe(true);
    expect(isNotWriting('Image copyright Getty Images')).toBe(true);
    expect(isNotWriting('The post Acme cuts jobs appeared first on Daily Wire.')).toBe(true);
    expect(isNotWriting('By the end of the year, the plant will employ 2,000 people.')).toBe(false);
    expect(isNotWriting('By Monday, Acme had cut 500 jobs.')).toBe(false);
    expect(isNotWriting('Sign up for our daily newsletter.')).toBe(true);
    expect(
      isNotWriting('Related stories were published by other outlets over the following days and weeks.'),
    ).toBe(false);
  });
});
