// Where a stream stands in Kafka: the next offset to read of every partition of every topic the stream
// is fed from. An SSE event's `id` is the position right after that event, so a client reconnecting
// with `Last-Event-ID` resumes exactly there on any API instance: the offsets are Kafka's, not the
// instance's. The text is opaque to clients; here it is the topics in a fixed order, separated by `~`,
// each a `.`-separated list of base-36 offsets by partition.
import { topicNames } from '../../runtime/kafka/topics.ts';

/** The topics a stream reads, in the order their offsets appear in an event id. */
export const streamTopics = [
  topicNames.articlesDiscovered,
  topicNames.articlesEnriched,
  topicNames.alerts,
  topicNames.stories,
] as const;
export type StreamTopic = (typeof streamTopics)[number];

/** Next offset to read, by topic index (streamTopics) then partition. */
export type Position = number[][];

export class InvalidPositionError extends Error {}

const maxIdLength = 2_000;

export function encodePosition(position: Position): string {
  return position.map((offsets) => offsets.map((o) => o.toString(36)).join('.')).join('~');
}

/**
 * The position an event id stands for. A topic with more partitions than the id knows (partitions were
 * added since) starts those at 0, so nothing on them is missed. An id from before the stream read its
 * later topics (news.stories.v1 joined as the fourth) takes those topics from `now`, the stream's
 * position at the reconnect: a client that was connected across an upgrade resumes without error and
 * without the new topic's history.
 */
export function decodePosition(id: string, partitions: readonly number[], now?: Position): Position {
  if (id.length > maxIdLength || !/^[0-9a-z.~]+$/.test(id))
    throw new InvalidPositionError('is not an event id sent by this stream');
  const topics = id.split('~');
  const legacy = now !== undefined && topics.length === legacyTopicCount;
  if (topics.length !== streamTopics.length && !legacy)
    throw new InvalidPositionError('is not an event id sent by this stream');
  const known = topics.map((text, t) => {
    const offsets = text.split('.').map((part) => {
      if (!/^[0-9a-z]{1,12}$/.test(part))
        throw new InvalidPositionError('is not an event id sent by this stream');
      return parseInt(part, 36);
    });
    const wanted = partitions[t]!;
    if (offsets.length > wanted) throw new InvalidPositionError('names partitions this stream does not have');
    while (offsets.length < wanted) offsets.push(0);
    return offsets;
  });
  return [...known, ...(now ?? []).slice(known.length).map((offsets) => [...offsets])];
}

/** Topics in the ids the stream sent before it read news.stories.v1. */
const legacyTopicCount = 3;

export const copyPosition = (position: Position): Position => position.map((offsets) => [...offsets]);

/** Whether `a` is at or past `b` on every partition. */
export function reaches(a: Position, b: Position): boolean {
  return b.every((offsets, t) => offsets.every((offset, p) => (a[t]?.[p] ?? 0) >= offset));
}

export function samePosition(a: Position, b: Position): boolean {
  return reaches(a, b) && reaches(b, a);
}
