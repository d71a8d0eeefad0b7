import { describe, expect, it } from 'vitest';
import { ConfigError } from '../runtime/config.ts';
import { loadDispatcherConfig } from './config.ts';

describe('dispatcher config', () => {
  it('defaults to the design schedule and limits', () => {
    const config = loadDispatcherConfig({});
    expect(config).toMatchObject({
      DISPATCHER_GROUP: 'dispatcher',
      DISPATCHER_FROM_BEGINNING: true,
      DISPATCHER_CONCURRENCY: 16,
      WEBHOOK_RETRY_SCHEDULE: ['5s', '5m', '30m', '2h', '5h', '10h', '10h'],
      WEBHOOK_SECRET_KEYS: '',
      WEBHOOK_CONNECT_TIMEOUT_MS: 5_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_MAX_RESPONSE_BYTES: 65_536,
      OUTBOUND_ALLOW_LIST: [],
    });
  });

  it('reads a shortened schedule and the test settings', () => {
    const config = loadDispatcherConfig({
      WEBHOOK_RETRY_SCHEDULE: '1s, 1s,2s',
      DISPATCHER_FROM_BEGINNING: 'false',
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual(['1s', '1s', '2s']);
    expect(config.DISPATCHER_FROM_BEGINNING).toBe(false);
    expect(config.OUTBOUND_ALLOW_LIST).toEqual(['127.0.0.1']);
  });

  it('refuses malformed secret keys, naming the variable and never echoing the value', () => {
    const value = 'prod:not-a-32-byte-key';
    let error: unknown;
    try {
      loadDispatcherConfig({ WEBHOOK_SECRET_KEYS: value, WEBHOOK_RETRY_SCHEDULE: 'soon' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/WEBHOOK_SECRET_KEYS: entry 1 .*32 bytes/);
    expect(message.match(/WEBHOOK_SECRET_KEYS/g)).toHaveLength(1);
    expect(message).toMatch(/WEBHOOK_RETRY_SCHEDULE/);
    expect(message).not.toContain('not-a-32-byte-key');
  });
});
