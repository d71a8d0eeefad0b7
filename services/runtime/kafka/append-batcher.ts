// Gathers the records many concurrent tasks append into few produce requests. An idempotent producer
// keeps one request in flight per connection, so a request per record caps a busy process at one
// broker round trip per record; here every record that arrives while a request is in flight goes out
// with the next one. Each caller's records stay together and in order, and callers are answered in
// the order they appended, so a caller that awaits its append knows its records are durable.
import type { IHeaders } from 'kafkajs';

export interface RawRecord {
  topic: string;
  key: string | null;
  value: Buffer | null;
  headers?: IHeaders;
}

interface Waiting {
  records: RawRecord[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class AppendBatcher {
  private readonly waiting: Waiting[] = [];
  private flushing = false;

  /** `send` appends one batch (several topics at once), resolving once the broker acknowledged it. */
  constructor(
    private readonly send: (records: RawRecord[]) => Promise<void>,
    private readonly maxRecords = 1_000,
  ) {}

  append(records: RawRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ records, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      // One turn of the event loop first, so the appends of tasks finishing together share a request.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) {
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
}
