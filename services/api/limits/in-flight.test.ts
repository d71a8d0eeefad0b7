import { describe, expect, it } from 'vitest';
import { InFlightRequests } from './in-flight.ts';

describe('requests in progress per client', () => {
  it('admits up to the maximum per holder, each holder on its own', () => {
    const requests = new InFlightRequests(2);
    const first = requests.tryEnter('a');
    const second = requests.tryEnter('a');
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(requests.tryEnter('a')).toBeNull();
    expect(requests.tryEnter('b')).not.toBeNull();
    expect(requests.inProgress('a')).toBe(2);
  });

  it('frees a slot when a request is done, once even if released twice', () => {
    const requests = new InFlightRequests(1);
    const release = requests.tryEnter('a')!;
    release();
    release();
    expect(requests.inProgress('a')).toBe(0);
    const again = requests.tryEnter('a');
    expect(again).not.toBeNull();
    expect(requests.tryEnter('a')).toBeNull();
  });
});
