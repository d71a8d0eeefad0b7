// The latest stream entries of an instance, in the order its tail took them, for clients that reconnect
// with a Last-Event-ID: a ring of fixed size, so memory stays bounded, that knows the position before
// its oldest entry (a resume from before that is read back from Kafka instead).
import type { PositionedRecord } from './position-reader.ts';
import type { StreamEvent } from './stream-events.ts';
import { copyPosition, encodePosition, type Position } from './stream-position.ts';

export interface StreamEntry {
  /** Order of the entry on this instance. */
  seq: number;
  topic: number;
  partition: number;
  offset: number;
  appendedAt: number;
  /** Null: the record concerns no stream event (a failed enrichment, a tombstone); it still moves the position. */
  event: StreamEvent | null;
  /** Event id for a connection in step with the tail: the position right after this entry. */
  id: string;
}

export class ReplayBuffer {
  private readonly ring: (StreamEntry | undefined)[];
  private next = 0;
  private readonly head: Position;
  private readonly start: Position;

  /** `from`: where the tail starts reading. */
  constructor(size: number, from: Position) {
    this.ring = new Array<StreamEntry | undefined>(Math.max(1, size));
    this.head = copyPosition(from);
    this.start = copyPosition(from);
  }

  /** The next offset to read of every partition: the position after the newest entry. */
  get position(): Position {
    return this.head;
  }

  /** The position before the oldest entry still held. */
  get replayStart(): Position {
    return this.start;
  }

  get nextSequence(): number {
    return this.next;
  }

  get oldestSequence(): number {
    return Math.max(0, this.next - this.ring.length);
  }

  /** The entry with this sequence number, if still held. */
  entry(seq: number): StreamEntry | undefined {
    if (seq < this.oldestSequence || seq >= this.next) return undefined;
    return this.ring[seq % this.ring.length];
  }

  append(record: Omit<PositionedRecord, 'value'>, event: StreamEvent | null): StreamEntry {
    const seq = this.next;
    const slot = seq % this.ring.length;
    const evicted = this.ring[slot];
    if (evicted) this.start[evicted.topic]![evicted.partition] = evicted.offset + 1;
    this.head[record.topic]![record.partition] = record.offset + 1;
    const entry: StreamEntry = {
      seq,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      appendedAt: record.appendedAt,
      event,
      id: encodePosition(this.head),
    };
    this.ring[slot] = entry;
    this.next = seq + 1;
    return entry;
  }
}
