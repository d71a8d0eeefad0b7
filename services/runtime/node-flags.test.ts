import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFlags } from './node-flags.ts';

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
});
