import { describe, expect, it } from 'vitest';
import { ConfigError } from '../runtime/config.ts';
import { intervalSettings, loadPollerConfig } from './config.ts';
import { defaultIntervalSettings } from './poll-interval.ts';

describe('the poller configuration of adaptive polling', () => {
  it('defaults to adaptive polling between 2 minutes and 3 hours, an hour while WebSub pushes', () => {
    expect(intervalSettings(loadPollerConfig({}))).toEqual(defaultIntervalSettings);
    expect(defaultIntervalSettings).toEqual({
      adaptive: true,
      minSeconds: 120,
      maxSeconds: 10_800,
      websubSafetySeconds: 3600,
    });
  });

  it('reads the switch and the bounds', () => {
    const config = loadPollerConfig({
      POLLER_ADAPTIVE: 'false',
      POLLER_MIN_INTERVAL_SECONDS: '10',
      POLLER_MAX_INTERVAL_SECONDS: '600',
      POLLER_WEBSUB_SAFETY_INTERVAL_SECONDS: '7200',
    });
    expect(intervalSettings(config)).toEqual({
      adaptive: false,
      minSeconds: 10,
      maxSeconds: 600,
      websubSafetySeconds: 7200,
    });
  });

  it('refuses a minimum above the maximum, naming both settings', () => {
    expect(() =>
      loadPollerConfig({ POLLER_MIN_INTERVAL_SECONDS: '7200', POLLER_MAX_INTERVAL_SECONDS: '3600' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadPollerConfig({ POLLER_MIN_INTERVAL_SECONDS: '7200', POLLER_MAX_INTERVAL_SECONDS: '3600' }),
    ).toThrow(/POLLER_MIN_INTERVAL_SECONDS \(7200\) must not exceed POLLER_MAX_INTERVAL_SECONDS \(3600\)/);
    expect(() => loadPollerConfig({ POLLER_ADAPTIVE: 'sometimes' })).toThrow(
      /POLLER_ADAPTIVE: expected true or false/,
    );
  });
});
