// A webhook receiver for the demo, on the feed server: POST /inbox/<name> keeps the event (its
// Standard Webhooks headers and body) and answers 204; GET /inbox/<name> shows the latest, newest
// first. So a webhook or monitor registered against the demo's own URL can be watched with curl.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ReceivedEvent {
  received_at: string;
  webhook_id: string | null;
  webhook_timestamp: string | null;
  webhook_signature: string | null;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
}

const kept = 50;
const maxBodyBytes = 1_048_576;

export class WebhookInbox {
  private readonly boxes = new Map<string, ReceivedEvent[]>();

  /** Serves /inbox/<name>; false when the request is not for the inbox. */
  handle(req: IncomingMessage, res: ServerResponse, name: string): void {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('an inbox name is 1-64 of A-Z a-z 0-9 _ -');
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ inbox: name, events: this.boxes.get(name) ?? [] }, null, 2)}\n`);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const header = (h: string) => {
        const value = req.headers[h];
        return typeof value === 'string' ? value : null;
      };
      const events = this.boxes.get(name) ?? [];
      events.unshift({
        received_at: new Date().toISOString(),
        webhook_id: header('webhook-id'),
        webhook_timestamp: header('webhook-timestamp'),
        webhook_signature: header('webhook-signature'),
        body,
      });
      this.boxes.set(name, events.slice(0, kept));
      res.writeHead(204);
      res.end();
    });
  }
}
