// Gathers the records many concurrent tasks append into few produce requests. An idempotent producer
// keeps one request in flight per connection, so a request per record caps a busy process at one
// broker round trip per record; here every record that arrives while a request is in flight goes out
// with the next one. Each caller's records stay together and in order, and callers are answered in
// the order they appended, so a caller that awaits its append knows its records are durable.
//
// A linger (optional) holds a request back until enough records wait or the oldest has waited long
// enough: a produce request costs KafkaJS about as much per request as for a hundred records of 400 B
// (CPU per record through EventProducer.sendRawBatch, 6 partitions: 63 µs in requests of 21 records,
// 32 µs of 84, 23 µs of 210, 19 µs of 420), so a busy process that can wait a few tens of
// milliseconds for its acknowledgements spends much less on each record.
import type { IHeaders } from 'kafkajs';

export interface RawRecord {
  topic: string;
  key: string | null;
  value: Buffer | null;
  headers?: IHeaders;
}

interface Waiting {
  records: RawRecord[];
  /** When it was appended (for the linger). */
  at: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface Linger {
  /** Longest a record waits for others before its request is sent. */
  ms: number;
  /** A request is sent without waiting once this many records wait. */
  records: number;
}

export class AppendBatcher {
  private readonly waiting: Waiting[] = [];
  private waitingRecords = 0;
  private flushing = false;
  /** Ends the linger early (set while lingering). */
  private wake: (() => void) | null = null;

  /**
   * `send` appends one batch (several topics at once), resolving once the broker acknowledged it.
   * Without a linger a request leaves as soon as the one before it is answered.
   */
  constructor(
    private readonly send: (records: RawRecord[]) => Promise<void>,
    private readonly maxRecords = 1_000,
    private readonly linger: Linger = { ms: 0, records: 0 },
    private readonly clock: () => number = Date.now,
  ) {}

  append(records: RawRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ records, at: this.linger.ms > 0 ? this.clock() : 0, resolve, reject });
      this.waitingRecords += records.length;
      if (this.wake && this.waitingRecords >= this.linger.records) this.wake();
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      // One turn of the event loop first, so the appends of tasks finishing together share a request.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) {
        await this.lingering();
        const batch: Waiting[] = [];
        let size = 0;
        while (
          this.waiting.length > 0 &&
          (batch.length === 0 || size + this.waiting[0]!.records.length <= this.maxRecords)
        ) {
          const next = this.waiting.shift()!;
          batch.push(next);
          size += next.records.length;
        }
        this.waitingRecords -= size;
        try {
          await this.send(batch.flatMap((w) => w.records));
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Waits, if there is a linger, until enough records wait or the oldest has waited long enough. */
  private async lingering(): Promise<void> {
    const { ms, records } = this.linger;
    if (ms <= 0) return;
    for (;;) {
      const left = this.waiting[0]!.at + ms - this.clock();
      if (left <= 0 || this.waitingRecords >= records) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
      this.wake = null;
    }
  }
}
