import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mallocTunables,
  mallocTunedServices,
  nodeFlags,
  nodeFlagsOf,
  serviceEnv,
  withMallocTunables,
} from './node-flags.ts';

const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('node flags', () => {
  it("are in every package.json script that starts the service's process", () => {
    for (const [service, flags] of Object.entries(nodeFlags)) {
      const starts = Object.entries(scripts).filter(([, script]) =>
        script.includes(`services/${service}/main.ts`),
      );
      expect(starts.length).toBeGreaterThan(0);
      for (const [name, script] of starts)
        expect(script, `npm run ${name}`).toContain(`tsx ${flags.join(' ')} services/${service}/main.ts`);
    }
  });

  it("put glibc's malloc settings in every package.json script that starts a service that takes them", () => {
    for (const service of mallocTunedServices) {
      const starts = Object.entries(scripts).filter(([, script]) =>
        script.includes(`services/${service}/main.ts`),
      );
      expect(starts.length).toBeGreaterThan(0);
      for (const [name, script] of starts)
        expect(script, `npm run ${name}`).toMatch(
          new RegExp(`GLIBC_TUNABLES=${mallocTunables} tsx [^&]*services/${service}/main\\.ts`),
        );
    }
  });
});

describe('nodeFlagsOf', () => {
  it("gives a service's flags, and none to a service without", () => {
    expect(nodeFlagsOf('dispatcher')).toEqual(nodeFlags.dispatcher);
    expect(nodeFlagsOf('poller')).toEqual(nodeFlags.poller);
    expect(nodeFlagsOf('enricher')).toEqual([]);
    expect(nodeFlagsOf('toString')).toEqual([]);
  });
});

describe('malloc tunables', () => {
  it("are the image's (docker/Dockerfile)", () => {
    const dockerfile = readFileSync(new URL('../../docker/Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toContain(`ENV GLIBC_TUNABLES=${mallocTunables}\n`);
  });

  it('are added to an environment without any', () => {
    expect(withMallocTunables({ PATH: '/bin' })).toEqual({ PATH: '/bin', GLIBC_TUNABLES: mallocTunables });
  });

  it("come before an operator's own, which glibc applies after them (so the operator's win)", () => {
    const env = withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' });
    expect(env.GLIBC_TUNABLES).toBe(`${mallocTunables}:glibc.malloc.hugetlb=0`);
    expect(withMallocTunables(env)).toEqual(env);
  });

  it('go to the projector only', () => {
    expect(serviceEnv('projector', {}).GLIBC_TUNABLES).toBe(mallocTunables);
    expect(serviceEnv('dispatcher', { A: '1' })).toEqual({ A: '1' });
    expect(serviceEnv('poller', { A: '1' })).toEqual({ A: '1' });
  });
});
