// The connection's bookkeeping with a real replay buffer and a response that records what is written:
// which events a client gets, with which ids, when it resumes from the buffer, from Kafka, or from an
// instance that was ahead, and when it is cut off.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { PositionedRecord } from './position-reader.ts';
import { ReplayBuffer } from './replay-buffer.ts';
import {
  frame,
  StreamConnection,
  type CatchUp,
  type CloseReason,
  type TailView,
} from './stream-connection.ts';
import type { StreamEvent } from './stream-events.ts';
import { decodePosition, type Position } from './stream-position.ts';

class FakeResponse extends EventEmitter {
  text = '';
  writableLength = 0;
  /** Set while the socket's buffer is past its high-water mark (the client is not reading). */
  writableNeedDrain = false;
  /** Bytes the socket holds before it asks to drain; unbounded: a client that reads everything at once. */
  highWaterMark = Infinity;
  ended = false;
  write(chunk: string) {
    this.text += chunk;
    if (this.writableNeedDrain || Number.isFinite(this.highWaterMark)) {
      this.writableLength += Buffer.byteLength(chunk);
      if (this.writableLength >= this.highWaterMark) this.writableNeedDrain = true;
    }
    return !this.writableNeedDrain;
  }
  /** The client stops reading: the socket holds `bytes` it has not sent. */
  stall(bytes: number) {
    this.writableNeedDrain = true;
    this.writableLength = bytes;
  }
  /** The client read everything the socket held. */
  drain() {
    this.writableNeedDrain = false;
    this.writableLength = 0;
    this.emit('drain');
  }
  end() {
    this.ended = true;
  }
  destroy() {}
  /** The events written, as a client parses them. */
  events(): { id: string; event: string; data: string }[] {
    return this.text
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => {
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))
            ?.slice(name.length + 2) ?? '';
        return { id: field('id'), event: field('event'), data: field('data') };
      });
  }
}

const partitions = [2, 1, 1, 1];
const start: Position = [[0, 0], [0], [0], [0]];
const event = (name: string, topic = 'x'): StreamEvent => ({
  kind: 'article.published',
  data: JSON.stringify({ name, topic }),
  subject: null,
  tenantId: null,
});

/** A tail over a replay buffer; records appended here also sit "in Kafka" for catch-ups. */
function fakeTail(size: number) {
  const buffer = new ReplayBuffer(size, start);
  const kafka: PositionedRecord[] = [];
  const listeners: ((entry: ReturnType<ReplayBuffer['append']>) => void)[] = [];
  const tail: TailView = {
    get position() {
      return buffer.position;
    },
    get replayStart() {
      return buffer.replayStart;
    },
    get nextSequence() {
      return buffer.nextSequence;
    },
    get oldestSequence() {
      return buffer.oldestSequence;
    },
    entry: (seq) => buffer.entry(seq),
    eventsOf: async (records) => records.map((r) => (r.value as StreamEvent | null) ?? null),
  };
  const offsets = new Map<string, number>();
  const append = (partition: number, name: string | null) => {
    const key = `0/${partition}`;
    const offset = offsets.get(key) ?? 0;
    offsets.set(key, offset + 1);
    const value = name === null ? null : event(name);
    const record = { topic: 0, partition, offset, appendedAt: 0, value };
    kafka.push(record);
    const entry = buffer.append(record, value);
    for (const listener of listeners) listener(entry);
  };
  const catchUps: { from: Position; until: Position }[] = [];
  const catchUp: CatchUp = async (from, until, onRecords) => {
    catchUps.push({ from: structuredClone(from), until: structuredClone(until) });
    const wanted = kafka.filter(
      (r) => r.offset >= from[r.topic]![r.partition]! && r.offset < until[r.topic]![r.partition]!,
    );
    await onRecords(wanted);
  };
  return { tail, append, catchUp, catchUps, onEntry: (l: (typeof listeners)[number]) => listeners.push(l) };
}

function connect(
  t: ReturnType<typeof fakeTail>,
  resumeFrom: Position | null,
  matches: (e: StreamEvent) => boolean = () => true,
) {
  const res = new FakeResponse();
  const closed: CloseReason[] = [];
  const connection = new StreamConnection(
    'c1',
    res as unknown as ServerResponse,
    matches,
    t.tail,
    (entry) => frame(entry.id, entry.event!),
    { bufferBytes: 1_000, drainTimeoutMs: 50, lingerMs: 10 },
    (_, reason) => closed.push(reason),
  );
  t.onEntry((entry) => connection.offer(entry));
  connection.start(resumeFrom, t.catchUp);
  return { res, connection, closed };
}

const names = (res: FakeResponse) =>
  res
    .events()
    .filter((e) => e.event === 'article.published')
    .map((e) => (JSON.parse(e.data) as { name: string }).name);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a stream connection', () => {
  it('sends live entries that match, each with the position after it as its id', () => {
    const t = fakeTail(10);
    const { res } = connect(t, null, (e) => !e.data.includes('skip'));
    t.append(0, 'a');
    t.append(1, 'skip me');
    t.append(1, 'b');
    t.append(0, null); // a record with no event still moves the position
    expect(names(res)).toEqual(['a', 'b']);
    expect(res.events().map((e) => e.id)).toEqual(['1.0~0~0~0', '1.2~0~0~0']);
  });

  it('resumed from any event id, continues with exactly the events after it, then live', async () => {
    const t = fakeTail(100);
    const all: string[] = [];
    for (let i = 0; i < 12; i++) {
      const name = `e${i}`;
      all.push(name);
      t.append(i % 3 === 0 ? 1 : 0, name);
    }
    const first = connect(t, null);
    const ids: string[] = [];
    // What a client that saw everything from the start would have: ids of the replayed events.
    const full = connect(t, [[0, 0], [0], [0], [0]]);
    await settle();
    ids.push(...full.res.events().map((e) => e.id));
    expect(names(full.res)).toEqual(all);
    for (let cut = 0; cut < ids.length; cut++) {
      const resumed = connect(t, decodePosition(ids[cut]!, partitions));
      await settle();
      expect([...names(full.res).slice(0, cut + 1), ...names(resumed.res)]).toEqual(all);
    }
    t.append(0, 'live');
    expect(names(full.res).at(-1)).toBe('live');
    expect(names(first.res)).toEqual(['live']);
  });

  it('reads back from Kafka what the buffer let go of, then the buffer, with nothing twice', async () => {
    const t = fakeTail(4);
    for (let i = 0; i < 10; i++) t.append(i % 2, `e${i}`);
    const { res } = connect(t, [[1, 1], [0], [0], [0]]);
    await settle();
    expect(t.catchUps).toEqual([{ from: [[1, 1], [0], [0], [0]], until: [[3, 3], [0], [0], [0]] }]);
    expect(names(res).toSorted()).toEqual(['e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9']);
    t.append(0, 'e10');
    expect(names(res).at(-1)).toBe('e10');
  });

  it('resumed from an instance that was further on, skips what it had until this tail catches up', () => {
    const t = fakeTail(10);
    t.append(0, 'e0');
    const { res, connection } = connect(t, [[3, 0], [0], [0], [0]]);
    t.append(0, 'e1');
    t.append(0, 'e2');
    expect(names(res)).toEqual([]);
    t.append(1, 'e3'); // another partition: new to the client
    t.append(0, 'e4');
    expect(names(res)).toEqual(['e3', 'e4']);
    expect(connection.currentId()).toBe('4.1~0~0~0');
  });

  it('cuts off a client that leaves more than its buffer unread, with a final event saying why', async () => {
    const t = fakeTail(10);
    const { res, closed } = connect(t, null);
    t.append(0, 'a');
    res.stall(5_000); // a burst the socket has not flushed yet is not judged at once
    t.append(0, 'b');
    res.drain();
    await settle();
    expect(closed).toEqual([]);
    expect(names(res)).toEqual(['a', 'b']);
    res.stall(5_000);
    t.append(0, 'c');
    await settle();
    expect(closed).toEqual(['slow_consumer']);
    const last = res.events().at(-1)!;
    expect(last.event).toBe('stream.closed');
    expect(JSON.parse(last.data)).toMatchObject({ reason: 'slow_consumer', last_event_id: '2.0~0~0~0' });
    expect(res.ended).toBe(true);
    t.append(0, 'd');
    // 'c' never reached the socket: the final event comes right after 'b', and names it as the resume point.
    expect(names(res)).toEqual(['a', 'b']);
  });

  it('paces a replay to what the client reads, and cuts it off when it stops reading', async () => {
    const t = fakeTail(200);
    for (let i = 0; i < 60; i++) t.append(0, `old-${i}`);
    const res = new FakeResponse();
    res.highWaterMark = 300; // the socket takes three or four events; the client reads them at drain()
    const closed: CloseReason[] = [];
    const connection = new StreamConnection(
      'c2',
      res as unknown as ServerResponse,
      () => true,
      t.tail,
      (entry) => frame(entry.id, entry.event!),
      { bufferBytes: 1_000, drainTimeoutMs: 100, lingerMs: 10 },
      (_, reason) => closed.push(reason),
    );
    connection.start(start, t.catchUp);
    await settle();
    // The replay stopped at half the buffer, waiting for the client: what the socket took, no more.
    expect(closed).toEqual([]);
    const first = names(res).length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(10);
    // It goes on as the client reads; one that stops reading for drainTimeoutMs is cut off.
    for (let i = 0; i < 3; i++) {
      res.drain();
      await settle();
    }
    expect(closed).toEqual([]);
    expect(names(res).length).toBeGreaterThan(first);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toEqual(['slow_consumer']);
    const last = res.events().at(-1)!;
    expect(last.event).toBe('stream.closed');
    const resumeFrom = (JSON.parse(last.data) as { last_event_id: string }).last_event_id;
    const handed = names(res);
    expect(handed.length).toBeLessThan(60);
    // Resumed from the id it was given, the client gets the rest, none twice.
    const again = connect(t, decodePosition(resumeFrom, partitions));
    await settle();
    await settle();
    expect([...handed, ...names(again.res)]).toEqual(Array.from({ length: 60 }, (_, i) => `old-${i}`));
  });

  it('gives a client cut off its final event right after what the socket holds, not behind its backlog', async () => {
    const t = fakeTail(100);
    const { res, closed } = connect(t, null);
    t.append(0, 'a');
    res.stall(10); // the socket asks to drain: from here every event waits in the connection's queue
    for (let i = 0; i < 40; i++) t.append(0, `late-${i}`);
    await settle();
    expect(closed).toEqual(['slow_consumer']);
    // None of the 40 was handed to the socket: a client reading again gets 'a', then the final event.
    expect(res.events().map((e) => e.event)).toEqual(['article.published', 'stream.closed']);
    const resumeFrom = (JSON.parse(res.events().at(-1)!.data) as { last_event_id: string }).last_event_id;
    expect(resumeFrom).toBe(res.events()[0]!.id);
    // Resumed from it, the client gets exactly the 40 it missed.
    const again = connect(t, decodePosition(resumeFrom, partitions));
    await settle();
    expect(names(again.res)).toEqual(Array.from({ length: 40 }, (_, i) => `late-${i}`));
  });
});
