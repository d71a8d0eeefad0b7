import { describe, expect, it } from 'vitest';
import { loadApiConfig } from '../config.ts';
import { serverLimits } from './server-limits.ts';

describe('the HTTP server limits', () => {
  it('passes the settings to Node, checking slow-loris connections every second', () => {
    const options = serverLimits(loadApiConfig({}));
    expect(options).toEqual({
      maxHeaderSize: 16_384,
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 65_000,
      connectionsCheckingInterval: 1_000,
    });
  });

  it('refuses timeouts that contradict each other, naming the settings', () => {
    expect(() =>
      serverLimits(loadApiConfig({ API_HEADERS_TIMEOUT_MS: '20000', API_REQUEST_TIMEOUT_MS: '10000' })),
    ).toThrow(/API_HEADERS_TIMEOUT_MS: must not be longer than API_REQUEST_TIMEOUT_MS/);
    expect(() =>
      serverLimits(loadApiConfig({ API_IDLE_TIMEOUT_MS: '30000', API_REQUEST_DEADLINE_MS: '30000' })),
    ).toThrow(/API_IDLE_TIMEOUT_MS: must be longer than API_REQUEST_DEADLINE_MS/);
  });
});
