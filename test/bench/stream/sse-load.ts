// Many SSE clients in one process, as light as a client can be so the servers are what is measured:
// each counts the frames that carry a bench event and records the delay from the time stamped in the
// event's summary ("t=<ms>") to its arrival.
import { Agent, request } from 'node:http';

export interface LoadResult {
  /** Delays in ms, of every event at every client. */
  delays: Float64Array;
  received: number;
  /** Clients whose stream ended before the end of the run. */
  dropped: number;
}

export interface Load {
  /** Events received so far, over all clients. */
  received(): number;
  finish(): LoadResult;
}

const marker = '"summary":"t=';

export async function openClients(
  url: string,
  count: number,
  headers: Record<string, string>,
  expected: number,
): Promise<Load> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const delays = new Float64Array(count * expected);
  let received = 0;
  let dropped = 0;
  let finished = false;
  const requests: ReturnType<typeof request>[] = [];
  const openOne = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent, headers: { accept: 'text/event-stream', ...headers } });
      requests.push(req);
      req.once('error', (error) => (finished ? undefined : reject(error)));
      req.once('response', (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url} answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let carry = '';
        res.on('data', (chunk: string) => {
          const now = Date.now();
          const text = carry + chunk;
          let at = text.indexOf(marker);
          let consumed = 0;
          while (at >= 0) {
            const end = text.indexOf('"', at + marker.length);
            if (end < 0) break;
            const sent = Number(text.slice(at + marker.length, end));
            if (received < delays.length) delays[received] = now - sent;
            received++;
            consumed = end;
            at = text.indexOf(marker, end);
          }
          // Keep what may be the start of a marker cut by the chunk boundary.
          carry = text.slice(Math.max(consumed, text.length - marker.length - 20));
        });
        res.once('close', () => {
          if (!finished) dropped++;
        });
        resolve();
      });
      req.end();
    });
  // Opened 100 at a time: a thousand at once is a SYN flood on loopback's default backlog.
  for (let i = 0; i < count; i += 100)
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, openOne));
  return {
    received: () => received,
    finish: () => {
      finished = true;
      for (const req of requests) req.destroy();
      agent.destroy();
      return { delays: delays.slice(0, Math.min(received, delays.length)), received, dropped };
    },
  };
}
