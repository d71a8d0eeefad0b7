import { describe, expect, it } from 'vitest';
import { capturedLogs } from '../../../test/support/captured-logs.ts';
import { DependencyWaitLog } from './dependency-wait-log.ts';

const capture = () => capturedLogs('debug');

describe('a consumer waiting for a dependency', () => {
  it('logs a short wait (the pipeline’s ordinary race) at debug only', () => {
    const { lines, logger } = capture();
    let now = 0;
    const waits = new DependencyWaitLog(logger, { group: 'g' }, 30_000, () => now);
    for (; now < 20_000; now += 1_000) waits.waiting('the read model does not show it yet');
    waits.ended();
    expect(new Set(lines.map((l) => l.level))).toEqual(new Set([20]));
  });

  it('warns once a wait has lasted the quiet time, then every quiet time, and says when it ended', () => {
    const { lines, logger } = capture();
    let now = 0;
    const waits = new DependencyWaitLog(logger, { group: 'g' }, 30_000, () => now);
    for (; now <= 95_000; now += 1_000) waits.waiting('ClickHouse unavailable');
    waits.ended();
    expect(lines.filter((l) => l.level !== 20).map((l) => [l.level, l.msg, l.waitedMs, l.group])).toEqual([
      [40, 'dependency unavailable; still waiting', 30_000, 'g'],
      [40, 'dependency unavailable; still waiting', 60_000, 'g'],
      [40, 'dependency unavailable; still waiting', 90_000, 'g'],
      [30, 'dependency back; going on', 96_000, 'g'],
    ]);
    // The next wait starts afresh.
    lines.length = 0;
    waits.waiting('again');
    waits.ended();
    expect(lines.map((l) => l.level)).toEqual([20]);
  });
});
