// The integration files run three at a time (vitest.config.ts): the suite mostly waits (on consumer
// groups, polls, retries, audio tools), 26% of the two cores on average when it ran one file at a time.
// The 56 files on one machine, 2026-12-02: 942 s two at a time (the cores 44% busy), 765 s three at a
// time (75%), 685 s four at a time (busy 85-98%, load average up to 8); three keeps most of the gain
// with room left for the tests that wait on a deadline. Several files at once must not see each other's events, though: a dispatcher started by one file would
// deliver the other's alerts, a matcher would match the other's articles, a poller would poll the other's
// sources. So each worker slot lives in a Kafka namespace of its own, as a benchmark does (TOPIC_PREFIX:
// its topics, schema subjects and consumer groups): slot N in `it<N>.` under the stack's own. Slot 1 too:
// in the stack's own namespace, a file's poller (with a memory of its own) polled the sources of a demo or
// a deployment on the same stack and emitted their undated articles again, as new ones with a new date,
// into their read models. The files of one slot run one after another, as the whole suite did before.
//
// ClickHouse and Redis need no namespace: every file already uses a database and key prefix of its own
// run. The files that watch the whole stack (its every topic and group) or measure it run apart from
// the others: bench-isolation beside the unit files (the `integration-early` project), the rest alone
// after them (`integration-alone`).
//
// This module must not import topics.ts (or anything that does): it sets the prefix that module reads.

/**
 * Files run at once in the `integration` project: INTEGRATION_SLOTS, 3 unless set (1 runs them one at a
 * time, as before; more suit a machine with more cores).
 */
export const integrationSlots = slotCount(process.env.INTEGRATION_SLOTS);

export function slotCount(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === '') return 3;
  const count = Number(setting);
  if (!Number.isInteger(count) || count < 1 || count > 16)
    throw new Error(`INTEGRATION_SLOTS must be a whole number from 1 to 16, not "${setting}"`);
  return count;
}

/** The topic namespace of worker slot `slot` (1-based), under `base` (the stack's own TOPIC_PREFIX). */
export function slotTopicPrefix(slot: number, base = ''): string {
  if (!Number.isInteger(slot) || slot < 1) throw new Error(`worker slot must be 1 or more, not ${slot}`);
  return `${base}it${slot}.`;
}
