// The connections of one API instance: each one leases a live-connection slot of its client's plan
// (shared by every instance through Redis), takes the tail's entries, gets a heartbeat, and gives its
// slot back the moment it closes. A closing instance ends every stream with a final event, so clients
// reconnect to another one and resume from their Last-Event-ID.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Logger } from '../../runtime/logger.ts';
import type { Lease, LiveConnections } from '../limits/live-connections.ts';
import {
  frame,
  StreamConnection,
  type CatchUp,
  type CloseReason,
  type ConnectionOptions,
} from './stream-connection.ts';
import type { EventMatcher } from './stream-events.ts';
import type { Position } from './stream-position.ts';
import type { StreamEntry, StreamTail } from './stream-tail.ts';

export interface HubOptions extends ConnectionOptions {
  tail: StreamTail;
  leases: LiveConnections;
  catchUp: CatchUp;
  logger: Logger;
  metrics?: Registry;
  heartbeatMs: number;
  /** How long a lease lives without renewal: a dead instance's slots are free again after this. */
  leaseMs: number;
  /** The `retry:` field: how long a browser waits before reconnecting. */
  retryMs: number;
}

export interface OpenRequest {
  res: ServerResponse;
  /** Who holds the slot (the client id) and the plan's limit (null: unlimited). */
  holder: string;
  limit: number | null;
  matches: EventMatcher;
  resumeFrom: Position | null;
}

export class LiveConnectionLimitError extends Error {}

interface Held {
  /** The client whose slot it holds (OpenRequest.holder). */
  holder: string;
  lease: Lease | null;
}

export class StreamHub {
  private readonly connections = new Map<StreamConnection, Held>();
  private readonly frames = new WeakMap<StreamEntry, string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;
  private readonly stats;

  constructor(private readonly options: HubOptions) {
    this.unsubscribe = options.tail.onEntry((entry) => this.fanOut(entry));
    this.timers.push(setInterval(() => this.beat(), options.heartbeatMs));
    this.timers.push(setInterval(() => void this.renew(), Math.max(250, Math.floor(options.leaseMs / 3))));
    for (const timer of this.timers) timer.unref();
    this.stats = metricsFor(options.metrics, () => this.connections.size);
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Leases a slot and opens the stream; LiveConnectionLimitError when the holder has none left. Redis
   * being away admits the connection unleased (the same fail-open as the hourly limit), logged.
   */
  async open(request: OpenRequest): Promise<StreamConnection> {
    const id = randomUUID();
    let lease: Lease | null = null;
    try {
      lease = await this.options.leases.acquire(request.holder, id, request.limit);
      if (!lease) throw new LiveConnectionLimitError();
    } catch (error) {
      if (error instanceof LiveConnectionLimitError) throw error;
      this.options.logger.warn({ err: error }, 'live-connection leases unavailable; admitting unleased');
      lease = null;
    }
    const res = request.res;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Proxies such as nginx would otherwise hold events back to fill a buffer.
      'X-Accel-Buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    const connection = new StreamConnection(
      id,
      res,
      request.matches,
      this.options.tail,
      (entry) => this.sharedFrame(entry),
      this.options,
      (closed, reason) => this.closed(closed, reason),
    );
    this.connections.set(connection, { holder: request.holder, lease });
    this.stats?.opened.inc();
    res.write(`retry: ${this.options.retryMs}\n\n`);
    connection.start(request.resumeFrom, this.options.catchUp);
    connection.announce();
    return connection;
  }

  /**
   * Ends the streams a client holds, with a final event saying why: its credentials were revoked, and a
   * stream opened before must not outlive them (authentication is checked when a stream opens only).
   */
  closeHolder(holder: string, reason: CloseReason): number {
    let closed = 0;
    for (const [connection, held] of [...this.connections])
      if (held.holder === holder) {
        connection.close(reason);
        closed++;
      }
    return closed;
  }

  /** Ends every stream (the instance is stopping) and stops following the tail. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe();
    for (const connection of [...this.connections.keys()]) connection.close('shutting_down');
    await Promise.resolve();
  }

  private sharedFrame(entry: StreamEntry): string {
    let text = this.frames.get(entry);
    if (text === undefined) {
      text = frame(entry.id, entry.event!);
      this.frames.set(entry, text);
    }
    return text;
  }

  private fanOut(entry: StreamEntry): void {
    let sent = 0;
    for (const connection of this.connections.keys()) if (connection.offer(entry)) sent++;
    if (sent > 0 && this.stats) {
      this.stats.events.inc(sent);
      this.stats.delay.observe(Math.max(0, Date.now() - entry.appendedAt) / 1000);
    }
  }

  private beat(): void {
    for (const connection of this.connections.keys()) connection.heartbeat();
  }

  private async renew(): Promise<void> {
    const leases = [...this.connections.values()]
      .map((held) => held.lease)
      .filter((lease): lease is Lease => lease !== null);
    try {
      await Promise.all(leases.map((lease) => lease.renew()));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'live-connection leases not renewed');
    }
  }

  private closed(connection: StreamConnection, reason: CloseReason): void {
    const lease = this.connections.get(connection)?.lease;
    this.connections.delete(connection);
    this.stats?.closed.inc({ reason });
    if (reason === 'slow_consumer')
      this.options.logger.info({ connection: connection.id }, 'stream client cut off: too slow');
    lease
      ?.release()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'lease not released'));
  }
}

function metricsFor(registry: Registry | undefined, open: () => number) {
  if (!registry) return undefined;
  return {
    opened: new Counter({
      name: 'stream_connections_opened_total',
      help: 'SSE streams opened',
      registers: [registry],
    }),
    closed: new Counter({
      name: 'stream_connections_closed_total',
      help: 'SSE streams closed, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    open: new Gauge({
      name: 'stream_connections',
      help: 'SSE streams open on this instance',
      registers: [registry],
      collect() {
        this.set(open());
      },
    }),
    events: new Counter({
      name: 'stream_events_sent_total',
      help: 'Events written to SSE clients',
      registers: [registry],
    }),
    delay: new Histogram({
      name: 'stream_delivery_delay_seconds',
      help: 'From the Kafka append to the write to the clients, per fanned-out entry',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}
