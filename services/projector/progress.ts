// Progress of a long replay as a person watching it wants it: how far, how fast,
// how long still. The meter and the formatting are pure (a clock is passed in)
// so the ETA arithmetic is pinned by unit tests; the reporter only decides
// where the line goes: one self-updating line on a terminal, a structured log
// line every few seconds anywhere else (a CI log or a file must not fill up
// with carriage returns).
import type { Logger } from '../runtime/logger.ts';

export interface ProgressSnapshot {
  done: number;
  total: number;
  elapsedMs: number;
  /** Events per second over the recent window; null until there is a window to measure. */
  ratePerSecond: number | null;
  /** Time left at the recent rate; null while the rate is unknown or zero. */
  etaMs: number | null;
}

/**
 * Counts events done against a known total. The rate is measured over a
 * sliding window rather than since the start, so the ETA follows the replay
 * when it speeds up (the registry's schemas cached, small topics done) or
 * slows down (ClickHouse merging) instead of averaging over stale history.
 */
export class ProgressMeter {
  private done = 0;
  private readonly started: number;
  private readonly samples: { at: number; done: number }[] = [];

  constructor(
    private readonly total: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 10_000,
  ) {
    this.started = now();
    this.samples.push({ at: this.started, done: 0 });
  }

  advance(events: number): void {
    this.done = Math.min(this.total, this.done + events);
    const at = this.now();
    this.samples.push({ at, done: this.done });
    // Keep one sample at or before the window's start so the window stays full.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  snapshot(): ProgressSnapshot {
    const at = this.now();
    const oldest = this.samples[0]!;
    const span = at - oldest.at;
    const ratePerSecond = span >= 1_000 ? ((this.done - oldest.done) * 1_000) / span : null;
    const left = this.total - this.done;
    const etaMs = left === 0 ? 0 : ratePerSecond ? (left / ratePerSecond) * 1_000 : null;
    return { done: this.done, total: this.total, elapsedMs: at - this.started, ratePerSecond, etaMs };
  }
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** 75 s -> "1:15", 3_725 s -> "1:02:05". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1_000));
  const h = Math.floor(seconds / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "replay  12,345 / 200,000 events  6.2%  8,100 events/s  ETA 0:23" */
export function formatProgress(label: string, p: ProgressSnapshot): string {
  const percent = p.total === 0 ? 100 : (p.done / p.total) * 100;
  const rate = p.ratePerSecond === null ? '- events/s' : `${count(p.ratePerSecond)} events/s`;
  const eta = p.etaMs === null ? 'ETA -:--' : `ETA ${formatDuration(p.etaMs)}`;
  return `${label}  ${count(p.done)} / ${count(p.total)} events  ${percent.toFixed(1)}%  ${rate}  ${eta}`;
}

/** Where progress goes: process.stderr, or a fake in tests. */
export interface ProgressOutput {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export class ProgressReporter {
  private timer: NodeJS.Timeout | undefined;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly meter: ProgressMeter,
    private readonly output: ProgressOutput,
    private readonly logger: Logger,
    private readonly logEveryMs = 5_000,
  ) {
    this.tty = output.isTTY === true;
  }

  /** Starts repainting (terminal) or logging (elsewhere) on a timer, so a stall shows as a stalled line. */
  start(): this {
    this.timer = setInterval(() => this.render(), this.tty ? 250 : this.logEveryMs);
    this.timer.unref();
    return this;
  }

  render(): void {
    const snapshot = this.meter.snapshot();
    if (this.tty) {
      // \r and "erase to end of line": the line rewrites itself; cut to the width so it never wraps.
      // (A pseudo-terminal without a size reports 0 columns.)
      const width = this.output.columns ? this.output.columns - 1 : Infinity;
      const line = formatProgress(this.label, snapshot).slice(0, width);
      this.output.write(`\r${line}\x1b[K`);
    } else {
      this.logger.info(
        {
          phase: this.label,
          done: snapshot.done,
          total: snapshot.total,
          percent: snapshot.total === 0 ? 100 : Math.floor((snapshot.done / snapshot.total) * 1000) / 10,
          eventsPerSecond: snapshot.ratePerSecond === null ? null : Math.round(snapshot.ratePerSecond),
          etaSeconds: snapshot.etaMs === null ? null : Math.round(snapshot.etaMs / 1_000),
        },
        'rebuild progress',
      );
    }
  }

  /** Paints the final state and leaves the terminal's cursor on a fresh line. */
  finish(): void {
    clearInterval(this.timer);
    this.render();
    if (this.tty) this.output.write('\n');
  }
}
