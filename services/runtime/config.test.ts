import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  infrastructureEnv,
  integer,
  isSecretSetting,
  loadConfig,
  optionalInteger,
} from './config.ts';

describe('loadConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = loadConfig(infrastructureEnv, {});
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(config.CLICKHOUSE_DATABASE).toBe('news');
  });

  it('parses and converts values', () => {
    const config = loadConfig(
      { ...infrastructureEnv, PARTITIONS: integer(6, 1, 1000) },
      { KAFKA_BROKERS: 'a:1, b:2', PARTITIONS: '12' },
    );
    expect(config.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(config.PARTITIONS).toBe(12);
  });

  it('leaves an optional integer unset when the variable is unset or empty, and checks it when set', () => {
    const shape = { REPLICAS: optionalInteger(1, 10) };
    expect(loadConfig(shape, {}).REPLICAS).toBeUndefined();
    expect(loadConfig(shape, { REPLICAS: '' }).REPLICAS).toBeUndefined();
    expect(loadConfig(shape, { REPLICAS: '3' }).REPLICAS).toBe(3);
    expect(() => loadConfig(shape, { REPLICAS: '0' })).toThrow(/REPLICAS: expected an integer from 1 to 10/);
  });

  it('names every invalid variable and what is wrong with it', () => {
    const error = (() => {
      try {
        loadConfig(
          { ...infrastructureEnv, PARTITIONS: integer(6, 1, 1000) },
          { KAFKA_BROKERS: 'not a broker', PARTITIONS: '0', CLICKHOUSE_URL: 'ftp://x' },
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^KAFKA_BROKERS: expected a comma-separated list of host:port \(got "not a broker"\)/,
    );
    expect(problems.join('\n')).toMatch(/PARTITIONS: expected an integer from 1 to 1000/);
    expect(problems.join('\n')).toMatch(/CLICKHOUSE_URL: expected an http\(s\) URL/);
  });

  it('never echoes the value of a secret variable', () => {
    const shape = { CLICKHOUSE_PASSWORD: integer(1, 1, 2) };
    expect(() => loadConfig(shape, { CLICKHOUSE_PASSWORD: 's3cr3t-value' })).toThrow(/value hidden/);
    expect(() => loadConfig(shape, { CLICKHOUSE_PASSWORD: 's3cr3t-value' })).not.toThrow(/s3cr3t/);
  });

  it('knows secrets by their names: passwords, secrets, keys and tokens, not a token issuer', () => {
    const secret = [
      'CLICKHOUSE_PASSWORD',
      'WEBHOOK_SECRET_KEYS',
      'API_TOKEN_KEYS',
      'OPENAI_API_KEY',
      'SOME_TOKEN',
    ];
    expect(secret.filter((name) => !isSecretSetting(name))).toEqual([]);
    expect(['API_TOKEN_ISSUER', 'KAFKA_BROKERS', 'DEMO_KEEP_STACK'].filter(isSecretSetting)).toEqual([]);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig(infrastructureEnv, { LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
  });

  it('rejects unknown enumeration values', () => {
    expect(() => loadConfig(infrastructureEnv, { LOG_LEVEL: 'loud' })).toThrow(
      /LOG_LEVEL: expected one of fatal/,
    );
  });
});
