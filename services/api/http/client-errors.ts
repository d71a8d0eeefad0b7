// Requests Node's HTTP parser refuses before any route sees them: a malformed request line or header,
// headers past the size limit, a request that took too long to arrive, an Expect it cannot meet. Node answers those itself
// ('clientError' unhandled) with a bare status line and no body; this answers them in the API's error
// shape instead ({"error": {"code", "message", "request_id"}}), with the headers every answer of the API
// carries (X-Request-Id, and CORS's, so that a page on another origin reads the refusal rather than a
// CORS failure), so a client reads every refusal the same way. The request's own X-Request-Id cannot be
// read from a request the parser refused: the id is a new one.
//
// The answer is written only when it cannot corrupt the connection: the socket is still writable and
// no response of a request in flight on it has started (Node's own rule). It is a complete HTTP/1.1
// message with Connection: close. The socket is then half-closed and whatever the client still sends
// is read and dropped for a moment (a lingering close): closing at once with unread bytes in the
// kernel's buffer would reset the connection, and the client could lose the answer before reading it.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../runtime/api-error.ts';

/** How long a refused connection is drained before it is destroyed. */
const lingerMs = 2_000;

interface ParserError extends Error {
  code?: string;
}

/** The error code and message for a parser error; the message says what was wrong, never the bytes. */
export function describeClientError(error: ParserError): { code: ErrorCode; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'headers_too_large',
        message:
          'the request line and headers are larger than the server accepts; send fewer or shorter headers',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { code: 'request_timeout', message: 'the request did not arrive in time; send it again' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'malformed_request', message: 'the chunk extensions of the body are too large' };
    case 'HPE_INVALID_METHOD':
      return { code: 'malformed_request', message: 'the request method is not a valid HTTP method' };
    case 'HPE_INVALID_URL':
      return { code: 'malformed_request', message: 'the request target is not a valid URL path' };
    case 'HPE_INVALID_VERSION':
      return { code: 'malformed_request', message: 'the HTTP version is not one this server speaks' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return {
        code: 'malformed_request',
        message: 'a header name or value holds characters HTTP does not allow',
      };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return {
        code: 'malformed_request',
        message: 'Content-Length is invalid, repeated with different values, or sent with Transfer-Encoding',
      };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { code: 'malformed_request', message: 'the chunked body or its Transfer-Encoding is malformed' };
    default:
      return { code: 'malformed_request', message: 'the request is not well-formed HTTP/1.1' };
  }
}

/** The bytes of a complete answer to a refused request. */
export function clientErrorResponse(error: ParserError, requestId: string = randomUUID()): Buffer {
  const { code, message } = describeClientError(error);
  const status = errorStatus[code];
  const body: ErrorBody = { error: { code, message, request_id: requestId } };
  const json = Buffer.from(JSON.stringify(body));
  const head =
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${json.length}\r\n` +
    'Cache-Control: no-store\r\n' +
    `X-Request-Id: ${requestId}\r\n` +
    'Access-Control-Allow-Origin: *\r\n' +
    'Access-Control-Expose-Headers: X-Request-Id\r\n' +
    'Connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), json]);
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Answers every request the server's parser refuses in the API's error shape. */
export function answerClientErrors(server: Server): void {
  // An Expect other than 100-continue: Node would answer a bare 417 itself.
  server.on('checkExpectation', (_: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const body: ErrorBody = {
      error: {
        code: 'expectation_failed',
        message: 'Expect: only 100-continue is supported; send the request without it',
        request_id: requestId,
      },
    };
    const json = JSON.stringify(body);
    res.writeHead(errorStatus.expectation_failed, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
      'Cache-Control': 'no-store',
      'X-Request-Id': requestId,
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'X-Request-Id',
      Connection: 'close',
    });
    res.end(json);
  });
  // Node's own answer to a request without Host is a bare 400 as well: the app answers it (host-header.ts).
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  const answered = new WeakSet<Socket>();
  server.on('clientError', (error: ParserError, socket: Socket) => {
    // The parser may report again for bytes that follow; one answer per connection.
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.on('error', () => socket.destroy());
    socket.end(clientErrorResponse(error));
    socket.resume();
  });
}
