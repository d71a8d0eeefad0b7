// A local server speaking OpenAI's speech protocol (POST /v1/audio/speech), so the OpenAI speech
// provider is tested over its real wire protocol without the internet. Like the chat-completions server
// beside it: Bearer authentication first (a refused request consumes no plan), then the request checked
// as OpenAI checks it (model, input up to 4,096 characters, a known voice, speed 0.25–4.0, a format),
// then a planned reply (errors with OpenAI's error body, Retry-After, delays, dropped connections,
// malformed bodies) or by default the audio: `wav` (24 kHz 16-bit mono behind a header) or `pcm` (the
// same samples, headerless), a tone as long as the text would take to read at the asked speed.
// Every request is recorded. Self-contained (node:http only): any suite may use it without the stack.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pcmBytes, spokenDurationMs, toneSamples, wavFile } from './speech-audio.ts';

export interface SpeechRequestBody {
  model?: unknown;
  input?: unknown;
  voice?: unknown;
  response_format?: unknown;
  speed?: unknown;
  [parameter: string]: unknown;
}

export interface ReceivedSpeechRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body; null when it was not JSON. */
  body: SpeechRequestBody | null;
  receivedAt: number;
}

export interface PlannedSpeechReply {
  /** HTTP status; 200 by default. */
  status?: number;
  headers?: Record<string, string>;
  /** The body exactly: bytes or text as given, anything else as JSON. Wins over the default audio. */
  body?: Buffer | string | object;
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Drop the connection without answering (for connection errors). */
  disconnect?: boolean;
}

export interface OpenAiSpeechServer {
  /** The client's base URL, e.g. http://127.0.0.1:41234/v1 */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Every request received, in order, including those refused. */
  readonly requests: ReceivedSpeechRequest[];
  /** Queues replies for the next accepted requests, one each; then the default audio again. */
  plan(...replies: PlannedSpeechReply[]): void;
  close(): Promise<void>;
}

export interface OpenAiSpeechServerOptions {
  apiKey?: string;
  /** Write the WAV header as a streaming server does, data size unknown (0xffffffff). */
  streamedWav?: boolean;
}

export const openAiSpeechVoices = [
  'alloy', 'ash', 'ballad', 'cedar', 'coral', 'echo', 'fable', 'marin', 'nova', 'onyx', 'sage',
  'shimmer', 'verse',
]; // prettier-ignore

export const sampleRate = 24_000;

/** OpenAI's error body: { error: { message, type, param, code } }. */
export function openAiErrorBody(
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
) {
  return { error: { message, type, param, code } };
}

export async function startOpenAiSpeechServer(
  options: OpenAiSpeechServerOptions = {},
): Promise<OpenAiSpeechServer> {
  const apiKey = options.apiKey ?? 'sk-test-speech-0000';
  const requests: ReceivedSpeechRequest[] = [];
  const planned: PlannedSpeechReply[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedSpeechRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers: req.headers,
        rawBody,
        body: parseBody(rawBody),
        receivedAt: Date.now(),
      };
      requests.push(received);
      const reply = refusal(received) ?? planned.shift() ?? {};
      const send = () => {
        if (res.destroyed) return;
        if (reply.disconnect) {
          req.socket.destroy();
          return;
        }
        const status = reply.status ?? 200;
        if (reply.body !== undefined) {
          const isBytes = Buffer.isBuffer(reply.body);
          const isText = typeof reply.body === 'string';
          const body = isBytes || isText ? reply.body : JSON.stringify(reply.body);
          const type = isBytes ? 'application/octet-stream' : isText ? 'text/plain' : 'application/json';
          res.writeHead(status, { 'content-type': type, ...reply.headers });
          res.end(body);
          return;
        }
        if (status >= 400) {
          res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
          res.end(
            JSON.stringify(
              openAiErrorBody(`Error ${status}`, status >= 500 ? 'server_error' : 'invalid_request_error'),
            ),
          );
          return;
        }
        const { type, audio } = speak(received.body!, options.streamedWav ?? false);
        res.writeHead(status, { 'content-type': type, ...reply.headers });
        res.end(audio);
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      } else {
        send();
      }
    });
  });

  // Authentication, routing and the request's own faults come first, as at OpenAI.
  function refusal(request: ReceivedSpeechRequest): PlannedSpeechReply | undefined {
    const invalid = (message: string, param: string | null = null, code: string | null = null) => ({
      status: 400,
      body: openAiErrorBody(message, 'invalid_request_error', code, param),
    });
    const authorization = request.headers.authorization;
    if (!authorization?.startsWith('Bearer ')) {
      return {
        status: 401,
        body: openAiErrorBody("You didn't provide an API key.", 'invalid_request_error'),
      };
    }
    const presented = authorization.slice('Bearer '.length);
    if (presented !== apiKey) {
      return {
        status: 401,
        body: openAiErrorBody(
          `Incorrect API key provided: ${mask(presented)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          'invalid_api_key',
        ),
      };
    }
    if (request.method !== 'POST' || request.path !== '/v1/audio/speech') {
      return {
        status: 404,
        body: openAiErrorBody(`Invalid URL (${request.method} ${request.path})`, 'invalid_request_error'),
      };
    }
    const body = request.body;
    if (!body) return invalid('We could not parse the JSON body of your request.');
    if (typeof body.model !== 'string' || !body.model)
      return invalid('you must provide a model parameter', 'model');
    if (typeof body.input !== 'string' || !body.input)
      return invalid("Missing required parameter: 'input'.", 'input');
    if ([...body.input].length > 4_096) {
      return invalid(
        `Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length ${[...body.input].length} instead.`,
        'input',
        'string_above_max_length',
      );
    }
    if (typeof body.voice !== 'string' || !openAiSpeechVoices.includes(body.voice)) {
      return invalid(`Invalid value for 'voice': ${JSON.stringify(body.voice)}.`, 'voice');
    }
    const speed = body.speed ?? 1;
    if (typeof speed !== 'number' || speed < 0.25 || speed > 4) {
      return invalid(`Invalid 'speed': expected a number from 0.25 to 4.0.`, 'speed');
    }
    const format = body.response_format ?? 'mp3';
    if (format !== 'wav' && format !== 'pcm') {
      return invalid(
        `This test server answers wav and pcm, not ${JSON.stringify(format)}.`,
        'response_format',
      );
    }
    return undefined;
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    plan(...replies) {
      planned.push(...replies);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function speak(body: SpeechRequestBody, streamedWav: boolean): { type: string; audio: Buffer } {
  const samples = toneSamples(sampleRate, spokenDurationMs(String(body.input), Number(body.speed ?? 1)));
  const data = pcmBytes(samples);
  if (body.response_format === 'pcm') return { type: 'audio/pcm', audio: data };
  return {
    type: 'audio/wav',
    audio: wavFile(data, { sampleRate, ...(streamedWav ? { declaredDataSize: 0xffffffff } : {}) }),
  };
}

function parseBody(raw: string): SpeechRequestBody | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as SpeechRequestBody) : null;
  } catch {
    return null;
  }
}

/** As OpenAI shows a wrong key: its first and last four characters. */
const mask = (key: string) =>
  key.length > 8 ? `${key.slice(0, 4)}${'*'.repeat(key.length - 8)}${key.slice(-4)}` : '****';
