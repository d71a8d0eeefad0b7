// WebSub is off without a public base URL, and on only with a usable master key: a clear error that
// names the setting and never shows its value.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../runtime/config.ts';
import { callbackUrl, websubEnv, websubSettings } from './settings.ts';

const settingsOf = (env: Record<string, string>) => websubSettings(loadConfig(websubEnv, env));

describe('websubSettings', () => {
  it('is off when WEBSUB_PUBLIC_BASE_URL is unset, whatever else is set', () => {
    expect(settingsOf({})).toBeNull();
    expect(settingsOf({ WEBSUB_SECRET: 'short' })).toBeNull();
  });

  it('requires WEBSUB_SECRET when the base URL is set', () => {
    expect(() => settingsOf({ WEBSUB_PUBLIC_BASE_URL: 'https://poller.example/' })).toThrow(
      /WEBSUB_SECRET: required when WEBSUB_PUBLIC_BASE_URL is set/,
    );
  });

  it('refuses a short key without echoing it', () => {
    let error: unknown;
    try {
      settingsOf({ WEBSUB_PUBLIC_BASE_URL: 'https://poller.example', WEBSUB_SECRET: 'hunter2hunter' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/WEBSUB_SECRET: expected at least 16 characters/);
    expect((error as Error).message).not.toContain('hunter2hunter');
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() =>
      settingsOf({ WEBSUB_PUBLIC_BASE_URL: 'ftp://poller.example', WEBSUB_SECRET: 'k'.repeat(16) }),
    ).toThrow(/WEBSUB_PUBLIC_BASE_URL/);
  });

  it('keeps the key wrapped, and builds callback URLs from the base without a doubled slash', () => {
    const settings = settingsOf({
      WEBSUB_PUBLIC_BASE_URL: 'https://poller.example/push/',
      WEBSUB_SECRET: 'k'.repeat(16),
    })!;
    expect(JSON.stringify(settings)).not.toContain('k'.repeat(16));
    expect(settings).toMatchObject({ publicBaseUrl: 'https://poller.example/push', leaseSeconds: 864_000 });
    expect(callbackUrl(settings.publicBaseUrl, 'src/1')).toBe('https://poller.example/push/websub/src%2F1');
  });
});
