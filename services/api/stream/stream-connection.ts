// One client's Server-Sent Events connection. It is in one of three states:
// - replaying: it reconnected with a Last-Event-ID older than the tail; it reads, at its own pace, first
//   from Kafka what the replay buffer no longer holds, then from the buffer, and joins the tail at its end;
// - ahead: its id came from an instance whose tail was further on; it skips what it already had until this
//   tail reaches it;
// - live: in step with the tail; each entry is written as the tail takes it, with the tail's id.
// Writes never wait on a live client: what it has not read waits here, and past `bufferBytes` it is cut
// off, so one slow reader neither holds up the others nor grows the instance's memory without bound.
// Only what the socket's buffer takes before it asks to drain (its high-water mark, 16 KiB) is handed
// over ahead of the client; the rest waits in this connection's own queue, so that a client cut off can still be given its final event: the queue is
// dropped and the event goes right after what the socket holds, naming the last event handed over as
// where to resume. (Behind a megabyte in the socket's buffer, a slow reader never reached it.)
import type { ServerResponse } from 'node:http';
import type { EventMatcher, StreamEvent } from './stream-events.ts';
import { copyPosition, encodePosition, reaches, samePosition, type Position } from './stream-position.ts';
import type { PositionedRecord } from './position-reader.ts';
import type { ReplayBuffer, StreamEntry } from './replay-buffer.ts';

/** What a connection needs of the tail: its replay buffer, and events made of records read back from Kafka. */
export type TailView = Pick<
  ReplayBuffer,
  'position' | 'replayStart' | 'nextSequence' | 'oldestSequence' | 'entry'
> & {
  eventsOf(records: readonly PositionedRecord[]): Promise<(StreamEvent | null)[]>;
};

export type CloseReason = 'slow_consumer' | 'shutting_down' | 'client_closed' | 'resume_failed' | 'revoked';

/** Reads what the replay buffer no longer holds: [from, until) of every partition, in order. */
export type CatchUp = (
  from: Position,
  until: Position,
  onRecords: (records: PositionedRecord[]) => Promise<void>,
  signal: AbortSignal,
) => Promise<void>;

export interface ConnectionOptions {
  /** Bytes a client may leave unread before it is cut off. */
  bufferBytes: number;
  /** How long a replaying client may take to read half its buffer before it is cut off. */
  drainTimeoutMs: number;
  /**
   * How long the final event of a client cut off for reading too slowly gets to leave before the socket
   * is destroyed (other closes allow at most `closeLingerMs`, so a stopping instance is not held up).
   */
  lingerMs: number;
}

/** The most a connection closed for another reason than a slow client waits for its final event. */
const closeLingerMs = 2_000;

/** The id a frame gives the client (every frame written carries one). */
const idLine = /(?:^|\n)id: ([^\n]*)\n/;

const closeMessages: Record<CloseReason, string> = {
  slow_consumer:
    'the client did not read its events fast enough; reconnect with Last-Event-ID to resume where it stopped',
  shutting_down: 'this API instance is shutting down; reconnect with Last-Event-ID to resume',
  client_closed: 'closed',
  resume_failed: 'the stream could not resume from Last-Event-ID; reconnect to retry',
  revoked: "the credentials of this stream's client were revoked; nothing more is sent to it",
};

export const frame = (id: string, event: StreamEvent) =>
  `id: ${id}\nevent: ${event.kind}\ndata: ${event.data}\n\n`;

export class StreamConnection {
  private mode: 'replaying' | 'ahead' | 'live';
  private position: Position | undefined;
  private closed = false;
  private checkScheduled = false;
  private readonly aborted = new AbortController();
  /** Frames not yet handed to the socket, and their bytes. */
  private queued: string[] = [];
  private queuedBytes = 0;
  /** The last frame handed to the socket: its id is where a client cut off resumes from. */
  private lastHanded = '';
  /** A replay waiting for the client to read (paced). */
  private onFlushed: (() => void) | null = null;

  constructor(
    readonly id: string,
    private readonly res: ServerResponse,
    private readonly matches: EventMatcher,
    private readonly tail: TailView,
    private readonly shared: (entry: StreamEntry) => string,
    private readonly options: ConnectionOptions,
    private readonly onClose: (connection: StreamConnection, reason: CloseReason) => void,
  ) {
    this.mode = 'live';
    res.on('close', () => this.finish('client_closed'));
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** The id a client holding everything sent so far would resume from. */
  currentId(): string {
    return encodePosition(this.mode === 'live' ? this.tail.position : this.position!);
  }

  /** Starts the connection: live from the tail's end, or replaying from a Last-Event-ID's position. */
  start(resumeFrom: Position | null, catchUp: CatchUp): void {
    if (resumeFrom === null || samePosition(resumeFrom, this.tail.position)) {
      this.mode = 'live';
      return;
    }
    this.position = copyPosition(resumeFrom);
    if (reaches(resumeFrom, this.tail.position)) {
      this.mode = 'ahead';
      return;
    }
    this.mode = 'replaying';
    this.replay(catchUp).catch(() => this.close('resume_failed'));
  }

  /** A client starting live is told its position at once, so it resumes from here even if no event came. */
  announce(): void {
    if (this.mode === 'live' && !this.closed) this.res.write(`id: ${this.currentId()}\n\n`);
  }

  /** The tail took an entry; true if it was written to this client. */
  offer(entry: StreamEntry): boolean {
    if (this.closed || this.mode === 'replaying') return false;
    if (this.mode === 'live') {
      if (!entry.event || !this.matches(entry.event)) return false;
      this.write(this.shared(entry));
      return true;
    }
    const sent = this.offerOwn(entry.topic, entry.partition, entry.offset, entry.event);
    if (reaches(this.tail.position, this.position!)) this.mode = 'live';
    return sent;
  }

  /** A comment to keep proxies from closing an idle connection, with the id to resume from. */
  heartbeat(): void {
    if (!this.closed) this.write(`: heartbeat\nid: ${this.currentId()}\n\n`);
  }

  /** Ends the stream with a final event saying why. */
  close(reason: CloseReason): void {
    if (this.closed) return;
    // What the socket has not been handed is dropped: the client resumes from the last event it was.
    const resumeId =
      this.queued.length > 0 ? (idLine.exec(this.lastHanded)?.[1] ?? this.currentId()) : this.currentId();
    this.queued = [];
    this.queuedBytes = 0;
    if (reason !== 'client_closed') {
      const data = JSON.stringify({ reason, message: closeMessages[reason], last_event_id: resumeId });
      this.res.write(`event: stream.closed\ndata: ${data}\n\n`);
    }
    this.res.end();
    // A client that reads nothing never takes the final event: its socket goes after a linger.
    const linger =
      reason === 'slow_consumer' ? this.options.lingerMs : Math.min(this.options.lingerMs, closeLingerMs);
    setTimeout(() => {
      if (!this.res.writableFinished) this.res.destroy();
    }, linger).unref();
    this.finish(reason);
  }

  private finish(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.aborted.abort();
    this.onFlushed?.();
    this.onClose(this, reason);
  }

  /** Bytes written for the client and not yet sent: in the socket's buffer and in the queue. */
  private backlog(): number {
    return this.res.writableLength + this.queuedBytes;
  }

  private write(text: string): void {
    if (this.queued.length === 0 && !this.res.writableNeedDrain) {
      this.res.write(text);
      this.lastHanded = text;
      return;
    }
    if (this.queued.length === 0) this.res.once('drain', () => this.flush());
    this.queued.push(text);
    this.queuedBytes += Buffer.byteLength(text);
    if (this.backlog() > this.options.bufferBytes && !this.checkScheduled) {
      // Judged once the loop has turned: a burst written in one go (a Kafka batch) is still counted until
      // the socket flushes it, even to a client that reads at once.
      this.checkScheduled = true;
      setImmediate(() => {
        this.checkScheduled = false;
        if (!this.closed && this.backlog() > this.options.bufferBytes) this.close('slow_consumer');
      });
    }
  }

  /** The socket took what it held: hands it the queue's next frames, up to its share. */
  private flush(): void {
    if (this.closed) return;
    let handed = 0;
    while (handed < this.queued.length && !this.res.writableNeedDrain) {
      const text = this.queued[handed++]!;
      this.queuedBytes -= Buffer.byteLength(text);
      this.res.write(text);
      this.lastHanded = text;
    }
    this.queued = handed === this.queued.length ? [] : this.queued.slice(handed);
    if (this.queued.length > 0) this.res.once('drain', () => this.flush());
    if (this.onFlushed && this.backlog() <= this.options.bufferBytes / 2) this.onFlushed();
  }

  /** An entry judged against this connection's own position (replaying or ahead). */
  private offerOwn(topic: number, partition: number, offset: number, event: StreamEvent | null): boolean {
    const offsets = this.position![topic]!;
    if (offset < (offsets[partition] ?? 0)) return false; // had it already
    offsets[partition] = offset + 1;
    if (!event || !this.matches(event)) return false;
    this.write(frame(encodePosition(this.position!), event));
    return true;
  }

  /** Waits while the client has half its buffer unread; cut off if that lasts. */
  private async paced(): Promise<void> {
    if (this.closed || this.backlog() <= this.options.bufferBytes / 2) return;
    // With nothing queued, the socket's own buffer is what the client has to read (a large frame).
    if (this.queued.length === 0) {
      if (!this.res.writableNeedDrain) return;
      this.res.once('drain', () => this.flush());
    }
    let timer: NodeJS.Timeout | undefined;
    const drained = await new Promise<boolean>((resolve) => {
      this.onFlushed = () => resolve(!this.closed);
      timer = setTimeout(() => resolve(false), this.options.drainTimeoutMs);
      timer.unref();
    });
    clearTimeout(timer);
    this.onFlushed = null;
    if (!drained) this.close('slow_consumer');
  }

  private async replay(catchUp: CatchUp): Promise<void> {
    for (;;) {
      // Kafka first, for whatever the replay buffer has already let go of.
      while (!this.closed && !reaches(this.position!, this.tail.replayStart)) {
        const until = this.position!.map((offsets, t) =>
          offsets.map((offset, p) => Math.max(offset, this.tail.replayStart[t]?.[p] ?? 0)),
        );
        await catchUp(
          copyPosition(this.position!),
          until,
          async (records) => {
            const events = await this.tail.eventsOf(records);
            records.forEach((r, i) => this.offerOwn(r.topic, r.partition, r.offset, events[i]!));
            await this.paced();
          },
          this.aborted.signal,
        );
        if (!this.closed) this.position = until;
      }
      // Then the buffer, up to its end, where the connection joins the tail without a gap: nothing awaits
      // between reading the last entry and switching to live.
      let seq = this.tail.oldestSequence;
      let complete = true;
      while (!this.closed && seq < this.tail.nextSequence) {
        const entry = this.tail.entry(seq);
        if (!entry) {
          complete = false; // overtaken by the buffer while pacing: back to Kafka
          break;
        }
        this.offerOwn(entry.topic, entry.partition, entry.offset, entry.event);
        seq++;
        if (this.backlog() > this.options.bufferBytes / 2) await this.paced();
      }
      if (this.closed) return;
      if (!complete || !reaches(this.position!, this.tail.replayStart)) continue;
      // Every record between the position and the tail's was in the buffer and judged: take the tail's.
      const head = this.tail.position;
      this.position = this.position!.map((offsets, t) =>
        offsets.map((o, p) => Math.max(o, head[t]?.[p] ?? 0)),
      );
      this.mode = samePosition(this.position, head) ? 'live' : 'ahead';
      return;
    }
  }
}
