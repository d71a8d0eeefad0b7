// One fuzz request: what it aims at, what was done to it, and its bytes as they go on the wire. The
// fuzzer writes requests itself (./raw-http.ts) so that it can send what an HTTP library refuses to:
// bad percent-escapes, raw bytes, duplicated and absurd headers, wrong framing.

export interface FuzzRequest {
  index: number;
  operation: string;
  /** The field or request part the mutation aimed at (`query:limit`, `auth`, `body:url`…). */
  target: string;
  /** What was done to it (`boundary`, `wrong-type`, `huge Content-Type`…). */
  mutation: string;
  method: string;
  /** The request-target as sent: path and query, already encoded (or deliberately mis-encoded). */
  url: string;
  /** Header lines in order, duplicates allowed; values may hold any bytes. */
  headers: [string, string][];
  body?: Buffer;
  /** Send the body as chunks (Transfer-Encoding: chunked) instead of with a Content-Length. */
  chunked?: boolean;
  /** The caller wrote Content-Length / Transfer-Encoding itself: add neither. */
  ownFraming?: boolean;
  /** Expected to be a Server-Sent Events stream when it succeeds: read its start, then hang up. */
  stream?: boolean;
}

/** The bytes of a request. */
export function encodeRequest(request: FuzzRequest): Buffer {
  const headers = [...request.headers];
  const body = request.body ?? Buffer.alloc(0);
  let payload = body;
  if (!request.ownFraming) {
    if (request.chunked) {
      headers.push(['Transfer-Encoding', 'chunked']);
      const chunks: Buffer[] = [];
      for (let at = 0; at < body.length; at += 64 * 1024) {
        const piece = body.subarray(at, at + 64 * 1024);
        chunks.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      }
      chunks.push(Buffer.from('0\r\n\r\n'));
      payload = Buffer.concat(chunks);
    } else if (request.body !== undefined) {
      headers.push(['Content-Length', String(body.length)]);
    }
  }
  const head = [
    Buffer.from(`${request.method} `, 'latin1'),
    Buffer.from(request.url, 'latin1'),
    Buffer.from(' HTTP/1.1\r\n', 'latin1'),
    ...headers.map(([name, value]) => Buffer.from(`${name}: ${value}\r\n`, 'utf8')),
    Buffer.from('\r\n'),
  ];
  return Buffer.concat([...head, payload]);
}

/** The request as a reader needs it to replay it: method, target, headers and the start of the body. */
export function describeRequest(request: FuzzRequest, excerpt = 300): string {
  const cut = (text: string) =>
    text.length > excerpt ? `${text.slice(0, excerpt)}… (${text.length} characters)` : text;
  const lines = [
    `#${request.index} ${request.operation} [${request.target}: ${request.mutation}]`,
    `${request.method} ${cut(JSON.stringify(request.url).slice(1, -1))}`,
    ...request.headers.map(
      ([n, v]) => `${cut(JSON.stringify(n).slice(1, -1))}: ${cut(JSON.stringify(v).slice(1, -1))}`,
    ),
  ];
  if (request.chunked) lines.push('(body sent chunked)');
  if (request.body !== undefined)
    lines.push(
      `body (${request.body.length} bytes): ${cut(JSON.stringify(request.body.toString('utf8')).slice(1, -1))}`,
    );
  return lines.join('\n');
}

/** Percent-encodes a value for a URL; a lone surrogate becomes the (invalid) UTF-8 of its code unit. */
export function encodeComponent(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}
