import { describe, expect, it } from 'vitest';
import { slowestModules, type TimedModule } from './summary-reporter.ts';

const module = (moduleId: string, project: string, duration: number): TimedModule => ({
  moduleId,
  project: { name: project },
  diagnostic: () => ({ duration }),
});

describe('slowestModules', () => {
  it('lists the slowest files first, at most `count`, with paths relative to the root', () => {
    const lines = slowestModules(
      [
        module('/repo/test/integration/a.test.ts', 'integration', 1_500),
        module('/repo/services/x.test.ts', 'unit', 20),
        module('/repo/test/integration/b.test.ts', 'integration', 61_234),
      ],
      2,
      '/repo',
    );
    expect(lines).toEqual([
      '   61.2 s  integration test/integration/b.test.ts',
      '    1.5 s  integration test/integration/a.test.ts',
    ]);
  });

  it('keeps a path outside the root whole, and lists nothing for no files', () => {
    expect(slowestModules([module('/elsewhere/c.test.ts', 'unit', 0)], 10, '/repo/')).toEqual([
      '    0.0 s  unit        /elsewhere/c.test.ts',
    ]);
    expect(slowestModules([], 10, '/repo')).toEqual([]);
  });
});
