import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, isSecretSetting, loadConfig } from '../../runtime/config.ts';
import { googleSpeechEnv, loadServiceAccountKey } from './config.ts';

const key = {
  type: 'service_account',
  project_id: 'news-test',
  private_key_id: 'k1',
  private_key:
    '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC-not-a-real-key\n-----END PRIVATE KEY-----\n',
  client_email: 'speech@news-test.iam.gserviceaccount.com',
};
const secretPart = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-not-a-real-key';

const failureOf = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('the Google speech settings', () => {
  it('needs nothing (the embedded default merges it) and defaults to Google itself', () => {
    const config = loadConfig(googleSpeechEnv, {});
    expect(config).toMatchObject({
      GOOGLE_TTS_ENDPOINT: 'https://texttospeech.googleapis.com',
      GOOGLE_TTS_TIMEOUT_MS: 30_000,
      GOOGLE_TTS_MAX_RETRIES: 4,
      GOOGLE_TTS_VOICES_TTL_SECONDS: 3_600,
    });
    expect(loadServiceAccountKey(config)).toBeNull();
  });

  it('treats the inline key as a secret: never echoed, shown as [redacted]', () => {
    expect(isSecretSetting('GOOGLE_TTS_SERVICE_ACCOUNT_KEY')).toBe(true);
    const config = loadConfig(googleSpeechEnv, { GOOGLE_TTS_SERVICE_ACCOUNT_KEY: JSON.stringify(key) });
    for (const shown of [JSON.stringify(config), inspect(config)]) expect(shown).not.toContain(secretPart);
    expect(loadServiceAccountKey(config)).toMatchObject({ client_email: key.client_email });
  });

  it('reads the key from a file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gtts-')), 'key.json');
    writeFileSync(file, JSON.stringify(key));
    const config = loadConfig(googleSpeechEnv, { GOOGLE_TTS_KEY_FILE: file });
    expect(loadServiceAccountKey(config)).toEqual({
      client_email: key.client_email,
      private_key: key.private_key,
      private_key_id: 'k1',
      project_id: 'news-test',
    });
  });

  it('refuses a broken key naming the setting, without quoting any of it', () => {
    const broken = JSON.stringify(key).slice(0, -20);
    const failure = failureOf(() =>
      loadServiceAccountKey(loadConfig(googleSpeechEnv, { GOOGLE_TTS_SERVICE_ACCOUNT_KEY: broken })),
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect(failure.message).toMatch(/GOOGLE_TTS_SERVICE_ACCOUNT_KEY: not valid JSON/);
    expect(failure.message).not.toContain(secretPart);
  });

  it('accepts service-account keys only (other credential files can run commands)', () => {
    const external = JSON.stringify({ type: 'external_account', credential_source: { executable: {} } });
    const failure = failureOf(() =>
      loadServiceAccountKey(loadConfig(googleSpeechEnv, { GOOGLE_TTS_SERVICE_ACCOUNT_KEY: external })),
    );
    expect(failure.message).toMatch(/expected a service-account key/);
  });

  it('refuses both a file and an inline key, and a file it cannot read', () => {
    expect(() =>
      loadServiceAccountKey(
        loadConfig(googleSpeechEnv, {
          GOOGLE_TTS_KEY_FILE: '/nonexistent/key.json',
          GOOGLE_TTS_SERVICE_ACCOUNT_KEY: JSON.stringify(key),
        }),
      ),
    ).toThrow(/both set/);
    expect(() =>
      loadServiceAccountKey(loadConfig(googleSpeechEnv, { GOOGLE_TTS_KEY_FILE: '/nonexistent/key.json' })),
    ).toThrow(/GOOGLE_TTS_KEY_FILE: cannot read \/nonexistent\/key.json \(ENOENT\)/);
  });
});
