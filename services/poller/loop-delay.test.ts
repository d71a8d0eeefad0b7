import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { watchLoopDelay } from './loop-delay.ts';

function collectingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('test', 'info', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('watchLoopDelay', () => {
  it('reports a loop held up by synchronous work, in a final line when stopped', async () => {
    const { logger, lines } = collectingLogger();
    const watch = watchLoopDelay(logger);
    await sleep(30);
    const until = performance.now() + 200;
    while (performance.now() < until) {
      // the loop is blocked, as by a large parse on the main thread
    }
    await sleep(30); // the delayed sample is recorded once the loop turns again
    const report = watch.stop();
    expect(report.maxMs).toBeGreaterThanOrEqual(150);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'event loop delay', final: true, maxMs: report.maxMs }),
    ]);
  });

  it('reports every interval, each over its own interval', async () => {
    const { logger, lines } = collectingLogger();
    const watch = watchLoopDelay(logger, 50);
    while (lines.length < 2) await sleep(20);
    watch.stop();
    expect(lines.slice(0, 2).map((l) => l.final)).toEqual([false, false]);
    expect(lines.at(-1)).toMatchObject({ final: true });
  });
});
