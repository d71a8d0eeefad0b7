// Sends one request's bytes on a fresh connection and reads one answer: status, headers and body
// (by Content-Length, chunked, or up to the close). A Server-Sent Events answer is read until its first
// event, then the connection is closed. No answer within the time limit is an answer too: a timeout.
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { encodeRequest, type FuzzRequest } from './requests.ts';

export interface RawAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

export type Exchange = { ok: true; answer: RawAnswer } | { ok: false; problem: string; ms: number };

const maxKeptBody = 4 * 1024 * 1024;

/** The seconds a 503 asks the client to wait (at most 5, so a run stays short), if it asks. */
export function retryAfter(answer: Pick<RawAnswer, 'status' | 'headers'>): number | undefined {
  const header = answer.headers['retry-after'];
  const value = Number(header);
  return answer.status === 503 && header !== undefined && /^\d+$/.test(header.trim())
    ? Math.min(value, 5)
    : undefined;
}

export function send(port: number, request: FuzzRequest, timeoutMs: number): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (exchange: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(exchange);
    };
    const timer = setTimeout(
      () => finish({ ok: false, problem: `no answer within ${timeoutMs} ms`, ms: elapsed() }),
      timeoutMs,
    );
    const tryParse = (closed: boolean) => {
      const parsed = parseAnswer(buffer, request.method === 'HEAD', request.stream === true, closed);
      if (parsed) finish(decoded({ ...parsed, ms: elapsed() }));
      else if (closed)
        finish({
          ok: false,
          problem: buffer.length
            ? 'an incomplete answer, then the connection closed'
            : 'the connection closed without an answer',
          ms: elapsed(),
        });
    };
    socket.on('data', (chunk: Buffer) => {
      if (buffer.length < maxKeptBody + 64 * 1024) buffer = Buffer.concat([buffer, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may answer and close before it read everything sent (a body over the limit): the
      // answer counts if it arrived whole; otherwise the error is the problem.
      const parsed = parseAnswer(buffer, request.method === 'HEAD', request.stream === true, true);
      if (parsed) finish(decoded({ ...parsed, ms: elapsed() }));
      else finish({ ok: false, problem: `connection error ${error.code ?? error.message}`, ms: elapsed() });
    });
    socket.setNoDelay(true);
    socket.write(encodeRequest(request));
  });
}

const decoders: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The answer as a client reads it: its Content-Encoding undone, so that the oracle judges the JSON and
 * not its compressed bytes. An encoding this client cannot undo (it only ever asks for gzip, deflate and
 * br among those it knows), or a body that does not decode, is a problem of the answer.
 */
export function decoded(answer: RawAnswer): Exchange {
  const encoding = (answer.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || answer.body.length === 0) return { ok: true, answer };
  const decode = decoders[encoding];
  if (!decode)
    return { ok: false, problem: `a body in Content-Encoding ${JSON.stringify(encoding)}`, ms: answer.ms };
  try {
    return { ok: true, answer: { ...answer, body: decode(answer.body) } };
  } catch (error) {
    return {
      ok: false,
      problem: `a body in Content-Encoding ${encoding} that does not decode: ${(error as Error).message}`,
      ms: answer.ms,
    };
  }
}

/** The first complete answer in the bytes (interim 1xx answers skipped), or undefined if not yet. */
export function parseAnswer(
  bytes: Buffer,
  head: boolean,
  stream: boolean,
  closed: boolean,
): Omit<RawAnswer, 'ms'> | undefined {
  let at = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) return undefined;
    const lines = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (!Number.isFinite(status)) return { status: 0, headers: {}, body: bytes.subarray(at) };
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      at = bodyStart;
      continue;
    }
    const rest = bytes.subarray(bodyStart);
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (stream && (headers['content-type'] ?? '').startsWith('text/event-stream')) {
      // The start of the stream (its first event) is enough.
      return rest.includes('\n\n') || closed ? { status, headers, body: rest } : undefined;
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      if (body) return { status, headers, body };
      return closed ? { status, headers, body: rest } : undefined;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      if (rest.length >= n || rest.length >= maxKeptBody)
        return { status, headers, body: rest.subarray(0, n) };
      return closed ? { status, headers, body: rest } : undefined;
    }
    return closed ? { status, headers, body: rest } : undefined;
  }
}

function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
