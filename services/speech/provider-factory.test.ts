import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../runtime/config.ts';
import { createSpeechProviders, speechEnv } from './provider-factory.ts';

describe('speech settings', () => {
  it('default to the embedded provider with one Festival process', () => {
    expect(loadConfig(speechEnv, {})).toMatchObject({
      SPEECH_PROVIDER: 'embedded',
      SPEECH_FESTIVAL_PROCESSES: 1,
      SPEECH_CONCURRENCY: 2,
    });
  });

  it('refuses what cannot run, naming the setting', () => {
    expect(() => loadConfig(speechEnv, { SPEECH_FESTIVAL_PROCESSES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig(speechEnv, { SPEECH_PROVIDER: 'festival' })).toThrow(/SPEECH_PROVIDER/);
  });

  it('describe every setting', () => {
    for (const schema of Object.values(speechEnv)) expect(schema.description).toBeTruthy();
  });

  it('build the embedded provider', async () => {
    const providers = createSpeechProviders(loadConfig(speechEnv, { SPEECH_FESTIVAL_PROCESSES: '2' }));
    expect(providers.map((p) => p.name)).toEqual(['embedded']);
    await Promise.all(providers.map((p) => p.close?.() ?? Promise.resolve()));
  });

  it('put a remote provider first, with the embedded one behind it as the offline fallback', async () => {
    const providers = createSpeechProviders(
      loadConfig(speechEnv, { SPEECH_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test-key' }),
    );
    expect(providers.map((p) => p.name)).toEqual(['openai', 'embedded']);
    await Promise.all(providers.map((p) => p.close?.() ?? Promise.resolve()));
  });

  it('refuse a remote provider without its credentials, at start, naming the setting', () => {
    expect(() => createSpeechProviders(loadConfig(speechEnv, { SPEECH_PROVIDER: 'openai' }))).toThrow(
      ConfigError,
    );
    expect(() => createSpeechProviders(loadConfig(speechEnv, { SPEECH_PROVIDER: 'openai' }))).toThrow(
      /OPENAI_SPEECH_API_KEY or OPENAI_API_KEY/,
    );
  });
});
