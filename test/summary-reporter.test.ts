import { describe, expect, it } from 'vitest';
import {
  slowestModules,
  spanLines,
  widenSpan,
  type ProjectSpan,
  type TimedModule,
} from './summary-reporter.ts';

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

describe('project spans', () => {
  it("widens a project's span to each file's start and end, and lists the projects as they started", () => {
    const spans = new Map<string, ProjectSpan>();
    widenSpan(spans, 'integration', 300_000);
    widenSpan(spans, 'unit', 1_200);
    widenSpan(spans, 'integration', 1_100_400);
    widenSpan(spans, 'unit', 250_000);
    widenSpan(spans, 'integration', 290_000);
    expect(spans.get('integration')).toEqual({ start: 290_000, end: 1_100_400 });
    expect(spanLines(spans)).toEqual([
      'unit                   1 s to   250 s  (249 s)',
      'integration          290 s to  1100 s  (810 s)',
    ]);
  });
});
