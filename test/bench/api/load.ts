// Puts one URL under load with autocannon and reports throughput and latency.
//
// Runs are counted in requests, not seconds: autocannon ends a timed run by
// dropping the connections, and ClickHouse 18.16 keeps running a query whose
// HTTP client went away, so a timed run would leave up to `connections`
// orphan queries eating the next run's CPU. A counted run waits for every
// answer. Its size comes from the warm-up's rate (about `seconds` of load),
// but never fewer than `minResponses`: at a million articles a list query can
// take seconds, and a ten-second window would then hold almost no answers.
// Only the answers that came while every connection was busy are counted: the
// last `connections` requests finish with the load winding down.
//
// Latencies are collected per response (autocannon's histogram rounds to whole
// milliseconds, too coarse for a query that takes two) and only for 2xx
// answers: an error page that comes back fast must not flatter the figures.
import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** About how long the measured run should last. */
  seconds: number;
  /** Warm-up: whole rounds of one request per connection until this long has passed (at least one round). */
  warmupSeconds: number;
  /** Answers the measured run counts at least, however slow they are. */
  minResponses: number;
  /** Sent with every request (credentials). */
  headers?: Record<string, string>;
  /** Called between the warm-up and the measured run (to start meters). */
  beforeMeasuring?: () => void;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** 2xx answers counted. */
  ok: number;
  /** Non-2xx answers and socket errors (timeouts included). */
  failed: number;
}

/** The q-quantile (0..1) of values sorted ascending, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Sends `amount` requests over `connections` and waits for every answer. */
async function fire(
  url: string,
  options: LoadOptions,
  amount: number,
  onOk: (ms: number) => void,
): Promise<{ seconds: number; failed: number }> {
  const started = performance.now();
  const { connections, headers = {} } = options;
  const instance = autocannon({ url, connections, amount, headers, timeout: 600 });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) onOk(ms);
  });
  const result = await instance;
  return { seconds: (performance.now() - started) / 1000, failed: result.non2xx + result.errors };
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const { connections } = options;
  let warm = { answers: 0, seconds: 0 };
  do {
    const round = await fire(url, options, connections, () => undefined);
    warm = { answers: warm.answers + connections, seconds: warm.seconds + round.seconds };
  } while (warm.seconds < options.warmupSeconds);
  let counted = Math.max(options.minResponses, Math.ceil((warm.answers / warm.seconds) * options.seconds));

  // The warm-up's rounds each open their connections afresh, which underrates a fast URL: a measured run
  // that ends in under half the time asked for is run again, sized by its own rate (at most twice).
  for (let attempt = 1; ; attempt++) {
    options.beforeMeasuring?.();
    const latencies: number[] = [];
    const started = performance.now();
    let lastCounted = started;
    const { failed } = await fire(url, options, counted + connections, (ms) => {
      if (latencies.length >= counted) return;
      latencies.push(ms);
      lastCounted = performance.now();
    });
    latencies.sort((a, b) => a - b);
    const elapsed = Math.max(0.001, (lastCounted - started) / 1000);
    const result = {
      requestsPerSecond: latencies.length / elapsed,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      ok: latencies.length,
      failed,
    };
    if (elapsed >= options.seconds / 2 || attempt === 3) return result;
    counted = Math.max(options.minResponses, Math.ceil(result.requestsPerSecond * options.seconds));
  }
}
