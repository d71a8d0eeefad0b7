import { describe, expect, it } from 'vitest';
import { chooseStackSource } from './environment.ts';

describe('chooseStackSource', () => {
  it('uses services named in the environment first', () => {
    expect(chooseStackSource({ KAFKA_BROKERS: 'kafka:9092' }, true)).toBe('external');
    expect(chooseStackSource({ REDIS_URL: 'redis://r:6379' }, false)).toBe('external');
  });

  it('uses containers when a Docker engine answers, else the native stack', () => {
    expect(chooseStackSource({}, true)).toBe('containers');
    expect(chooseStackSource({ KAFKA_BROKERS: '' }, false)).toBe('native');
  });
});
