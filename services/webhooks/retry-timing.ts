// When a failed webhook delivery is tried again, given the schedule's delay for the attempt. Two things
// move it:
//
// - Spread. With exact delays, every delivery that failed while a receiver was down comes back in the
//   same second once it is up again. Each due time is spread by up to ±10% of its delay (5 s becomes
//   4.5–5.5 s, 10 h becomes 9–11 h). The spread is drawn from a hash of the delivery id and the attempt
//   number, not from Math.random, so a replay or another dispatcher instance computes the same time.
//   Why ±10% and not more: jobs on one retry topic are no longer due in the order they were appended,
//   and a partition's committed offset cannot pass a job still waiting, so a finished job behind it is
//   attempted again after a restart; the spread bounds that window (2 h on the 10 h topic).
// - Retry-After. A receiver answering 429 or 503 may say when to come back (RFC 9110 §10.2.3, RFC 6585
//   §4), in seconds or as an HTTP date. It can only postpone: the next attempt is never earlier than the
//   spread delay of the schedule. It is capped at the schedule's longest delay (10 h by default), since
//   no retry topic is meant to hold a job longer, and a receiver asking for more is in effect down, which
//   the schedule already handles. The honoured wait is spread upwards only (by up to 10%), so receivers
//   that told a crowd of deliveries "120" do not get them all back at the same second. A Retry-After on
//   any other status is not read: on a 3xx it is about following the redirect (never done here), and
//   elsewhere it is undefined, so a proxy adding it to a 500 must not push retries out by hours. An
//   unreadable value is ignored.
//
// The number of attempts and which schedule step comes next do not change: a postponed attempt is still
// attempt k+1 and, if it fails, waits the schedule's delay k+1.
import { createHash } from 'node:crypto';
import { parseRetryAfter } from '../runtime/outbound/retry-after.ts';

/** Each due time moves by up to this fraction of its delay, either way. */
export const RETRY_SPREAD = 0.1;

/** A number in [0, 1) fixed by the delivery and the attempt: the same on every replay and every instance. */
export function spreadDraw(deliveryId: string, attempt: number): number {
  const digest = createHash('sha256').update(`${deliveryId}\u0000${attempt}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** The schedule's delay moved by up to ±RETRY_SPREAD of itself, as `draw` (in [0, 1)) says. */
export function spreadDelay(delayMs: number, draw: number): number {
  return Math.round(delayMs * (1 + RETRY_SPREAD * (2 * draw - 1)));
}

/** Statuses whose Retry-After means "come back later". */
const statusesWithRetryAfter: ReadonlySet<number> = new Set([429, 503]);

/**
 * How long the receiver asked us to wait, in ms; null when the response has no Retry-After, it cannot
 * be read, or the status is not one it is honoured for. A date in the past reads as 0.
 */
export function receiverWait(
  status: number | null,
  retryAfter: string | undefined,
  now: number,
): number | null {
  if (status === null || !statusesWithRetryAfter.has(status)) return null;
  return parseRetryAfter(retryAfter, now);
}

/** A retry topic of the schedule and its delay. */
export interface RetryStep {
  topic: string;
  delayMs: number;
}

/** What the receiver's Retry-After did to the next attempt. */
export type RetryAfterEffect =
  /** None was read (absent, unreadable, or not a 429/503). */
  | 'none'
  /** It asked for no longer than the schedule's delay: the schedule's time stands. */
  | 'within-plan'
  /** It asked for longer, and got it. */
  | 'postponed'
  /** It asked for longer than the cap, and got the cap. */
  | 'capped';

export interface RetryTime {
  /** Where the next job goes. */
  topic: string;
  /** From the failure to the next attempt. */
  delayMs: number;
  retryAfter: RetryAfterEffect;
}

export interface RetryTimeInput {
  /** The schedule's step for this attempt. */
  step: RetryStep;
  /** Every retry topic of the schedule, shortest delay first. */
  steps: readonly RetryStep[];
  /** spreadDraw(delivery id, attempt). */
  draw: number;
  /** receiverWait(...) of the failed attempt. */
  retryAfterMs: number | null;
}

export function retryTime({ step, steps, draw, retryAfterMs }: RetryTimeInput): RetryTime {
  const planned = spreadDelay(step.delayMs, draw);
  if (retryAfterMs === null) return { topic: step.topic, delayMs: planned, retryAfter: 'none' };
  const capMs = Math.max(step.delayMs, ...steps.map((s) => s.delayMs));
  const capped = Math.min(retryAfterMs, capMs);
  if (capped <= planned) return { topic: step.topic, delayMs: planned, retryAfter: 'within-plan' };
  const asked = Math.round(capped * (1 + RETRY_SPREAD * draw));
  return {
    topic: topicFor(asked, step, steps),
    delayMs: asked,
    retryAfter: retryAfterMs > capMs ? 'capped' : 'postponed',
  };
}

/**
 * A postponed job goes to the shortest retry topic, no shorter than the schedule's, whose spread delay
 * reaches its wait, not to the schedule's own topic. A consumer of `.retry-5m` then still only holds
 * jobs for about 5 minutes: its partition lane keeps every job it holds in memory, stops fetching once
 * it holds enough of them, and cannot commit past one still waiting, so a job waiting 10 h there would
 * hold back the commits (and, when the topic is busy, the fetching) of everything behind it for hours.
 * In a topic whose delay is at least the wait, it is due no later than its neighbours and holds nobody.
 * The longest topic always fits, since the wait is capped at the longest delay (spread).
 */
function topicFor(waitMs: number, step: RetryStep, steps: readonly RetryStep[]): string {
  const candidates = steps.filter((s) => s.delayMs >= step.delayMs).sort((a, b) => a.delayMs - b.delayMs);
  const fitting = candidates.find((s) => s.delayMs * (1 + RETRY_SPREAD) >= waitMs) ?? candidates.at(-1);
  return (fitting ?? step).topic;
}

/**
 * What the attempt's error gains when Retry-After moved the next attempt ('' when it did not): the
 * delivery log shows it, so a receiver's owner can see their header was read.
 */
export function retryAfterNote(time: RetryTime, retryAfterMs: number | null): string {
  const next = `next attempt in ${readableDuration(time.delayMs)}`;
  switch (time.retryAfter) {
    case 'postponed':
      return ` (Retry-After honoured: ${next})`;
    case 'capped':
      return ` (Retry-After of ${readableDuration(retryAfterMs ?? 0)} capped: ${next})`;
    default:
      return '';
  }
}

/** "2 h 5 min", "45 s": the largest unit and the next one, to the second. */
function readableDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const units = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const;
  const first = units.findIndex(([, size]) => total >= size);
  if (first === -1) return '0 s';
  const [unit, size] = units[first]!;
  const head = `${Math.floor(total / size)} ${unit}`;
  const next = units[first + 1];
  const rest = next === undefined ? 0 : Math.floor((total % size) / next[1]);
  return rest > 0 ? `${head} ${rest} ${next![0]}` : head;
}
