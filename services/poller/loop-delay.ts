// How long the poller's event loop was held up, in the logs: every timer and socket of every poll in
// flight runs on it, so a long delay is a poll (a large feed's parse, say) delaying the others'
// deadlines. One line per interval (a minute by default) with the delay's maximum, 99th percentile and
// mean over it, and one for the rest when the process stops (the ingestion benchmark reads them).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from '../runtime/logger.ts';

export interface LoopDelayReport {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}

const ms = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? Math.round(nanoseconds / 1e4) / 100 : 0);

export function watchLoopDelay(logger: Logger, everyMs = 60_000): { stop: () => LoopDelayReport } {
  // 10 ms resolution: finer sampling costs a timer wake-up per resolution, and what matters here is
  // delays of tens to hundreds of milliseconds.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const report = (final: boolean): LoopDelayReport => {
    const figures = {
      maxMs: ms(histogram.max),
      p99Ms: ms(histogram.percentile(99)),
      meanMs: ms(histogram.mean),
    };
    histogram.reset();
    logger.info({ ...figures, final }, 'event loop delay');
    return figures;
  };
  const timer = setInterval(() => report(false), everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      histogram.disable();
      return report(true);
    },
  };
}
