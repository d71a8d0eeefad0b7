// The ledger of a chaos run: what the feed server released against what the system holds and sent.
// Pure: the run gathers the facts (the projection's rows, the API's pages, the receiver's deliveries,
// the dead-letter topics) and this counts them, so the counting is tested apart from the run.
import type { Delivery } from './flaky-receiver.ts';
import type { MonitorKey, ReleasedArticle } from './release-schedule.ts';

export interface FaultOutcome {
  name: string;
  startedAt: number;
  endedAt: number;
  /** From the end of the fault until article freshness was back under its normal p99; null: never. */
  articlesMs: number | null;
  /** The same for alerts (release to the first accepted delivery). */
  alertsMs: number | null;
  /** The later of the two: when the whole pipeline had caught up; null: never. */
  recoveryMs: number | null;
}

export interface DeadLetter {
  /** The consumer group that gave up on it (header dlq.consumer.group). */
  group: string;
  sourceTopic: string;
  key: string | null;
}

export interface LedgerFacts {
  released: readonly ReleasedArticle[];
  /** guid → rows of it in `articles FINAL` (the run's sources only). */
  projectedRows: ReadonlyMap<string, number>;
  /** Article URLs as the API listed them, every page, in order (one entry per listing). */
  apiUrls: readonly string[];
  /** The monitors' receiver paths. */
  monitorPaths: Readonly<Record<MonitorKey, string>>;
  deliveries: readonly Delivery[];
  /** The alert's sequence number from its article URL (null: not one of the run's). */
  seqOfUrl: (url: string) => number | null;
  deadLetters: readonly DeadLetter[];
  /** Keys of the messages poisoned on purpose. */
  poisonedKeys: readonly string[];
  faults: readonly FaultOutcome[];
}

export interface Ledger {
  articles: {
    released: number;
    projectedOnce: number;
    projectedMissing: number;
    projectedMoreThanOnce: number;
    apiOnce: number;
    apiMissing: number;
    apiMoreThanOnce: number;
  };
  alerts: {
    expected: number;
    deliveredAtLeastOnce: number;
    missing: number;
    /** Alerts whose successful deliveries carried more than one webhook-id (a retry must reuse it). */
    deliveredWithDifferentIds: number;
    /** 2xx deliveries of the same id beyond the first: allowed by at-least-once, reported. */
    redelivered: number;
    /** Requests (any answer) for an article that names no monitored company, or at a wrong path. */
    unexpected: number;
    /** Requests whose signature did not verify with the monitor's secret. */
    badSignatures: number;
    attempts: number;
  };
  deadLetters: {
    total: number;
    /** Dead letters of poisoned messages. */
    poisoned: number;
    /** Poisoned messages no group dead-lettered. */
    poisonedNotDeadLettered: number;
    /** Dead letters of anything else: must be 0. */
    unexpected: number;
  };
  faults: readonly FaultOutcome[];
  /** What is wrong, one line each; empty when the run lost, doubled and misdelivered nothing. */
  problems: string[];
}

export function countLedger(facts: LedgerFacts): Ledger {
  const { released } = facts;
  const problems: string[] = [];

  let projectedOnce = 0;
  let projectedMissing = 0;
  let projectedMoreThanOnce = 0;
  for (const a of released) {
    const rows = facts.projectedRows.get(a.guid) ?? 0;
    if (rows === 1) projectedOnce++;
    else if (rows === 0) projectedMissing++;
    else projectedMoreThanOnce++;
  }
  const apiCounts = new Map<string, number>();
  for (const url of facts.apiUrls) apiCounts.set(url, (apiCounts.get(url) ?? 0) + 1);
  let apiOnce = 0;
  let apiMissing = 0;
  let apiMoreThanOnce = 0;
  for (const a of released) {
    const n = apiCounts.get(a.url) ?? 0;
    if (n === 1) apiOnce++;
    else if (n === 0) apiMissing++;
    else apiMoreThanOnce++;
  }
  if (projectedMissing) problems.push(`${projectedMissing} article(s) released but not projected`);
  if (projectedMoreThanOnce) problems.push(`${projectedMoreThanOnce} article(s) projected more than once`);
  if (apiMissing) problems.push(`${apiMissing} article(s) not listed by the API`);
  if (apiMoreThanOnce) problems.push(`${apiMoreThanOnce} article(s) listed more than once by the API`);

  // Alerts: one per (monitor, article that names its company).
  const pathOf = new Map(Object.entries(facts.monitorPaths).map(([key, path]) => [path, key as MonitorKey]));
  const expected = new Set(released.filter((a) => a.mentions).map((a) => `${a.mentions}:${a.seq}`));
  const okIds = new Map<string, Map<string, number>>(); // alert → webhook-id → 2xx deliveries
  let unexpected = 0;
  let badSignatures = 0;
  for (const d of facts.deliveries) {
    if (!d.verified) badSignatures++;
    const monitor = pathOf.get(d.path);
    const seq = d.articleUrl === null ? null : facts.seqOfUrl(d.articleUrl);
    const alert = monitor === undefined || seq === null ? null : `${monitor}:${seq}`;
    if (alert === null || !expected.has(alert)) {
      unexpected++;
      continue;
    }
    if (d.answer !== 204 || !d.verified) continue;
    const ids = okIds.get(alert) ?? new Map<string, number>();
    ids.set(d.webhookId, (ids.get(d.webhookId) ?? 0) + 1);
    okIds.set(alert, ids);
  }
  let delivered = 0;
  let differentIds = 0;
  let redelivered = 0;
  for (const alert of expected) {
    const ids = okIds.get(alert);
    if (!ids) continue;
    delivered++;
    if (ids.size > 1) differentIds++;
    for (const n of ids.values()) redelivered += n - 1;
  }
  const missingAlerts = expected.size - delivered;
  if (missingAlerts) problems.push(`${missingAlerts} alert(s) never delivered`);
  if (differentIds) problems.push(`${differentIds} alert(s) delivered under different webhook ids`);
  if (unexpected) problems.push(`${unexpected} request(s) for no expected alert`);
  if (badSignatures) problems.push(`${badSignatures} request(s) with a signature that does not verify`);

  const poisoned = new Set(facts.poisonedKeys);
  const poisonedLetters = facts.deadLetters.filter((d) => d.key !== null && poisoned.has(d.key));
  const seenPoison = new Set(poisonedLetters.map((d) => d.key));
  const poisonedNotDeadLettered = [...poisoned].filter((k) => !seenPoison.has(k)).length;
  const unexpectedLetters = facts.deadLetters.length - poisonedLetters.length;
  if (unexpectedLetters)
    problems.push(`${unexpectedLetters} message(s) dead-lettered that were not poisoned`);
  if (poisonedNotDeadLettered)
    problems.push(`${poisonedNotDeadLettered} poisoned message(s) not dead-lettered`);

  for (const f of facts.faults) if (f.recoveryMs === null) problems.push(`no recovery after "${f.name}"`);

  return {
    articles: {
      released: released.length,
      projectedOnce,
      projectedMissing,
      projectedMoreThanOnce,
      apiOnce,
      apiMissing,
      apiMoreThanOnce,
    },
    alerts: {
      expected: expected.size,
      deliveredAtLeastOnce: delivered,
      missing: missingAlerts,
      deliveredWithDifferentIds: differentIds,
      redelivered,
      unexpected,
      badSignatures,
      attempts: facts.deliveries.length,
    },
    deadLetters: {
      total: facts.deadLetters.length,
      poisoned: poisonedLetters.length,
      poisonedNotDeadLettered,
      unexpected: unexpectedLetters,
    },
    faults: facts.faults,
    problems,
  };
}
