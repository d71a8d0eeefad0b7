// A local server speaking OpenAI's chat-completions protocol (POST /v1/chat/completions), so
// the OpenAI provider is tested over its real wire protocol without the internet. Scriptable:
// tests queue planned replies (errors, delays, malformed answers, dropped connections); with
// nothing planned, a valid answer is built from the JSON schema the request asked for. Every
// request is recorded, so tests can assert on prompts, retries and cache hits.
// Self-contained on purpose (node:http only): any suite may use it without the stack.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  [keyword: string]: unknown;
}

export interface ChatCompletionRequest {
  model?: string;
  messages?: { role: string; content: unknown }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: JsonSchema } };
  [parameter: string]: unknown;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body; null when it was not JSON. */
  body: ChatCompletionRequest | null;
  /** Date.now() when the request arrived. */
  receivedAt: number;
  /**
   * Date.now() when the client closed the connection before the answer was sent (it gave up: a deadline,
   * an abort); undefined while it waits or once it has its answer.
   */
  abandonedAt?: number;
}

export interface PlannedReply {
  /** HTTP status; 200 by default. */
  status?: number;
  headers?: Record<string, string>;
  /** A body sent as JSON exactly as given (an error body, an odd shape). Wins over content. */
  body?: unknown;
  /** The assistant message content of an OpenAI-shaped chat.completion. */
  content?: string | null;
  refusal?: string;
  finishReason?: 'stop' | 'length' | 'content_filter';
  /** Wait this long before answering (for timeouts). */
  delayMs?: number;
  /** Drop the connection without answering (for connection errors). */
  disconnect?: boolean;
}

export type Responder = (request: ReceivedRequest) => PlannedReply;

export interface ChatCompletionsServer {
  /** The client's base URL, e.g. http://127.0.0.1:41234/v1 */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Every request received, in order, including those refused. */
  readonly requests: ReceivedRequest[];
  /** Queues replies for the next requests, one each; then the default responder answers again. */
  plan(...replies: PlannedReply[]): void;
  close(): Promise<void>;
}

export interface ChatCompletionsServerOptions {
  apiKey?: string;
  /** Answers requests when nothing is planned; by default a sample built from the requested schema. */
  respond?: Responder;
}

/** OpenAI's error body: { error: { message, type, param, code } }. */
export function openAiErrorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

export async function startChatCompletionsServer(
  options: ChatCompletionsServerOptions = {},
): Promise<ChatCompletionsServer> {
  const apiKey = options.apiKey ?? 'sk-test-local-0000';
  const respond = options.respond ?? answerFromRequestedSchema;
  const requests: ReceivedRequest[] = [];
  const planned: PlannedReply[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers: req.headers,
        rawBody,
        body: parseBody(rawBody),
        receivedAt: Date.now(),
      };
      requests.push(received);
      let dropped = false; // by this server, as planned: not the client's doing
      res.once('close', () => {
        if (!res.writableFinished && !dropped) received.abandonedAt = Date.now();
      });
      const reply = decide(received);
      const send = () => {
        if (res.destroyed) return;
        if (reply.disconnect) {
          dropped = true;
          req.socket.destroy();
          return;
        }
        const status = reply.status ?? 200;
        const body =
          reply.body !== undefined
            ? reply.body
            : status >= 400
              ? defaultErrorBody(status)
              : completion(received, reply, ++sequence);
        res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(body));
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

  // Authentication and routing come first, as at OpenAI: a refused request consumes no plan.
  function decide(request: ReceivedRequest): PlannedReply {
    const authorization = request.headers.authorization;
    if (!authorization?.startsWith('Bearer ')) {
      return {
        status: 401,
        body: openAiErrorBody(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          'invalid_request_error',
        ),
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
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return {
        status: 404,
        body: openAiErrorBody(`Invalid URL (${request.method} ${request.path})`, 'invalid_request_error'),
      };
    }
    if (!request.body) {
      return {
        status: 400,
        body: openAiErrorBody('We could not parse the JSON body of your request.', 'invalid_request_error'),
      };
    }
    if (typeof request.body.model !== 'string' || !Array.isArray(request.body.messages)) {
      return {
        status: 400,
        body: openAiErrorBody('You must provide a model parameter and messages.', 'invalid_request_error'),
      };
    }
    return planned.shift() ?? respond(request);
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

/** The default responder: content that satisfies the JSON schema of response_format, if any. */
export function answerFromRequestedSchema(request: ReceivedRequest): PlannedReply {
  const schema = request.body?.response_format?.json_schema?.schema;
  return { content: schema ? JSON.stringify(sampleFromSchema(schema)) : 'OK' };
}

/**
 * A value valid under a JSON schema of the strict-mode subset: first enum value, mid-range
 * numbers, one item per array, the non-null branch of a nullable, null for a nullable string
 * with a pattern (a pattern cannot be satisfied in general).
 */
export function sampleFromSchema(schema: JsonSchema, root: JsonSchema = schema, name = 'value'): unknown {
  if (schema.$ref) return sampleFromSchema(resolveRef(root, schema.$ref), root, name);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) {
    const usable = schema.anyOf.filter((branch) => branch.type !== 'null' && !branch.pattern);
    const nullable = schema.anyOf.some((branch) => branch.type === 'null');
    const branch = usable[0];
    return branch ? sampleFromSchema(branch, root, name) : nullable ? null : '';
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null');
  const nullable = types.includes('null');
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [
          key,
          sampleFromSchema(property, root, key),
        ]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () =>
        sampleFromSchema(schema.items ?? {}, root, name),
      );
    case 'string': {
      if (schema.pattern) return nullable ? null : '';
      const text = `sample ${name.replace(/_/g, ' ')}`;
      return text.padEnd(schema.minLength ?? 0, '.');
    }
    case 'integer':
      return Math.min(schema.maximum ?? Infinity, Math.max(1, Math.ceil(schema.minimum ?? 1)));
    case 'number':
      if (schema.minimum !== undefined && schema.maximum !== undefined) {
        return (schema.minimum + schema.maximum) / 2;
      }
      return schema.minimum ?? schema.maximum ?? 0;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  const target = ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .reduce<unknown>(
      (node, part) => (node as Record<string, unknown> | undefined)?.[decodeURIComponent(part)],
      root,
    );
  if (!target || typeof target !== 'object') throw new Error(`unresolvable $ref ${ref}`);
  return target as JsonSchema;
}

function completion(request: ReceivedRequest, reply: PlannedReply, sequence: number) {
  const content = reply.refusal ? null : (reply.content ?? null);
  const promptTokens = Math.ceil(request.rawBody.length / 4);
  const completionTokens = Math.ceil((content ?? reply.refusal ?? '').length / 4);
  return {
    id: `chatcmpl-local-${sequence}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.body?.model ?? 'unknown',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: reply.refusal ?? null },
        logprobs: null,
        finish_reason: reply.finishReason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

function defaultErrorBody(status: number) {
  if (status === 429) {
    return openAiErrorBody(
      'Rate limit reached for requests. Please try again later.',
      'requests',
      'rate_limit_exceeded',
    );
  }
  if (status >= 500) {
    return openAiErrorBody(
      'The server had an error while processing your request. Sorry about that!',
      'server_error',
    );
  }
  return openAiErrorBody(`Request failed with status ${status}.`, 'invalid_request_error');
}

function parseBody(raw: string): ChatCompletionRequest | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as ChatCompletionRequest)
      : null;
  } catch {
    return null;
  }
}

/** As OpenAI does in its 401 message: the first and last characters only. */
function mask(key: string): string {
  return key.length <= 8
    ? '*'.repeat(key.length)
    : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}
