import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/config.ts';
import { loadOpenAiConfig } from '../../../test/support/openai-config.ts';
import { openAiEnv, requireOpenAiConfig } from './config.ts';

describe('the OpenAI settings (openAiEnv, then requireOpenAiConfig)', () => {
  it('applies the defaults', () => {
    const config = loadOpenAiConfig({ OPENAI_API_KEY: 'sk-x' });
    expect(config).toMatchObject({
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      OPENAI_MODEL: 'gpt-4o-mini',
      OPENAI_TIMEOUT_MS: 30_000,
      OPENAI_MAX_RETRIES: 4,
      OPENAI_MAX_INPUT_CHARS: 24_000,
      OPENAI_CACHE_TTL_SECONDS: 7 * 24 * 3600,
    });
    expect(config.OPENAI_API_KEY.reveal()).toBe('sk-x');
  });

  it('merges into a service whose provider is not openai: the key is optional in the shape', () => {
    const settings = loadConfig({ ...openAiEnv }, {});
    expect(settings.OPENAI_API_KEY).toBeUndefined();
    expect(() => requireOpenAiConfig(settings)).toThrow(
      /OPENAI_API_KEY: required when the openai provider is selected/,
    );
  });

  it('requires the key, and names bad values without echoing the key', () => {
    expect(() => loadOpenAiConfig({})).toThrow(
      /OPENAI_API_KEY: required when the openai provider is selected/,
    );
    const error = (() => {
      try {
        loadOpenAiConfig({
          OPENAI_API_KEY: 'sk-secret-value',
          OPENAI_TIMEOUT_MS: 'soon',
          OPENAI_BASE_URL: 'ftp://x',
        });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems).toHaveLength(2);
    expect(error?.message).not.toContain('sk-secret-value');
  });

  it('shows the key as [redacted] when the config is logged, printed or serialised', () => {
    const config = loadOpenAiConfig({ OPENAI_API_KEY: 'sk-secret-value' });
    for (const shown of [JSON.stringify(config), inspect(config), String(config.OPENAI_API_KEY)]) {
      expect(shown).not.toContain('sk-secret-value');
      expect(shown).toContain('[redacted]');
    }
  });
});
