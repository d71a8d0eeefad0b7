import { describe, expect, it } from 'vitest';
import { effectiveLimits, isKnownScope, knownScopes } from './plans.ts';

const noOverrides = { limits: null };

describe('effectiveLimits', () => {
  it('applies the published plan limits', () => {
    expect(effectiveLimits({ plan: 'essentials', ...noOverrides })).toEqual({
      callsPerHour: 1_000,
      liveConnections: 5,
      alertEndpoints: 3,
      addedSources: 10,
    });
    expect(effectiveLimits({ plan: 'professional', ...noOverrides })).toEqual({
      callsPerHour: 10_000,
      liveConnections: 25,
      alertEndpoints: 10,
      addedSources: 50,
    });
  });

  it('gives enterprise its custom allowance and unlimited connections and endpoints by default', () => {
    const limits = {
      calls_per_hour: 250_000,
      live_connections: null,
      alert_endpoints: null,
      added_sources: null,
    };
    expect(effectiveLimits({ plan: 'enterprise', limits })).toEqual({
      callsPerHour: 250_000,
      liveConnections: null,
      alertEndpoints: null,
      addedSources: null,
    });
    expect(
      effectiveLimits({
        plan: 'enterprise',
        limits: { ...limits, live_connections: 500, alert_endpoints: 40, added_sources: 300 },
      }),
    ).toEqual({ callsPerHour: 250_000, liveConnections: 500, alertEndpoints: 40, addedSources: 300 });
  });

  it('never treats an enterprise client without an allowance as unlimited', () => {
    expect(effectiveLimits({ plan: 'enterprise', ...noOverrides }).callsPerHour).toBe(10_000);
  });

  it('lets overrides replace single plan defaults, a null keeping the default', () => {
    expect(
      effectiveLimits({
        plan: 'essentials',
        limits: { calls_per_hour: 2_000, live_connections: null, alert_endpoints: null, added_sources: 25 },
      }),
    ).toEqual({ callsPerHour: 2_000, liveConnections: 5, alertEndpoints: 3, addedSources: 25 });
  });

  it('applies the most restrictive plan to a plan this reader does not know', () => {
    expect(
      effectiveLimits({
        plan: 'unknown',
        limits: {
          calls_per_hour: 1_000_000,
          live_connections: null,
          alert_endpoints: null,
          added_sources: null,
        },
      }),
    ).toEqual(effectiveLimits({ plan: 'essentials', ...noOverrides }));
  });
});

describe('scopes', () => {
  it('are the six of the design', () => {
    expect(knownScopes).toEqual([
      'read:feeds',
      'write:sources',
      'write:monitors',
      'write:webhooks',
      'use:ai',
      'use:audio',
    ]);
    expect(isKnownScope('use:ai')).toBe(true);
    expect(isKnownScope('admin')).toBe(false);
  });
});
