// A Server-Sent Events client for tests and the stream benchmark, on node:http so a test can also stop
// reading (pause the socket) to play a client that cannot keep up. It parses frames as a browser's
// EventSource does (id, event, data; comments ignored) and records when each event arrived.
import { request, type IncomingMessage } from 'node:http';

export interface SseEvent {
  /** The `id` in force for this event (the last id line seen). */
  id: string | null;
  event: string;
  data: string;
  receivedAt: number;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage['headers'];
  /** Events so far (also those parsed after a pause ends). */
  events: SseEvent[];
  /** The last id received (an id-only message counts, as in EventSource). */
  lastId(): string | null;
  /** The body when the answer was not a stream (an error). */
  body(): Promise<string>;
  /** Stops reading: what the server writes piles up in its buffers. */
  pause(): void;
  resume(): void;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
  onEvent(listener: (event: SseEvent) => void): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } });
    req.once('error', reject);
    req.once('response', (res) => {
      const events: SseEvent[] = [];
      const listeners: ((event: SseEvent) => void)[] = [];
      let lastId: string | null = null;
      let buffer = '';
      let pending: { id?: string; event?: string; data: string[] } = { data: [] };
      let markEnded!: () => void;
      const ended = new Promise<void>((done) => (markEnded = done));
      res.once('end', markEnded);
      res.once('close', markEnded);
      res.once('error', markEnded);
      // A paused response says nothing until read; its socket closing is the server hanging up.
      res.socket.once('close', markEnded);
      const isStream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!isStream) {
          text += chunk;
          return;
        }
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (pending.id !== undefined) lastId = pending.id;
            if (pending.data.length > 0) {
              const event: SseEvent = {
                id: lastId,
                event: pending.event ?? 'message',
                data: pending.data.join('\n'),
                receivedAt: Date.now(),
              };
              events.push(event);
              for (const listener of listeners) listener(event);
            }
            pending = { data: [] };
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') pending.id = value;
          else if (field === 'event') pending.event = value;
          else if (field === 'data') pending.data.push(value);
        }
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        lastId: () => lastId,
        body: async () => {
          await ended;
          return text;
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        ended,
        close: () => {
          req.destroy();
          res.destroy();
        },
        onEvent: (listener) => listeners.push(listener),
      });
    });
    req.end();
  });
}
