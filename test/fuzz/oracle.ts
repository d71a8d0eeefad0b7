// Judges one answer. The rules (docs/http-api.md, "Errors" and "Robustness"):
// - no 5xx, and an answer at all (no hang, no dropped connection);
// - every 4xx in the error shape its operation documents (the API's {"error": {"code", "message"}}, the
//   token endpoint's RFC 6749 one), with a code whose status is the answer's and a message that says
//   what was wrong;
// - a success in a media type its operation documents (JSON unless it says audio, a stream…), JSON
//   that parses when it says JSON;
// - nothing internal in any body or header: no stack frames or source paths, no SQL or ClickHouse
//   error text, no secret the fuzzer knows the API holds. Text the request itself carried is an echo,
//   not a leak.
import type { Answer, Operation, Schema } from './openapi-walker.ts';
import type { RawAnswer } from './raw-http.ts';
import type { FuzzRequest } from './requests.ts';

export interface OracleContext {
  /** Status of each error code, from the API's vocabulary. */
  errorStatus: Record<string, number>;
  /** The API's own error schema (components.schemas.Error). */
  errorSchema: Schema;
  /** Secrets the API holds or was given: none may appear in an answer. */
  secrets: readonly string[];
  /** Text only the server knows and would leak with internals: its source directory, database name. */
  internals: readonly string[];
}

const leakPatterns: [string, RegExp][] = [
  ['a stack frame', /\n\s+at [^\n]+:\d+:\d+\)?/],
  ['a stack frame', /\bat (?:async )?[\w$.<>[\]]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/],
  ['a source path', /(?:node_modules\/|node:internal|\/services\/[\w/-]+\.ts)/],
  ['a ClickHouse error', /DB::Exception|\bCode: \d{1,4}\.? /],
  ['SQL', /\bSELECT\b[\s\S]{0,300}?\bFROM\b/],
  ['SQL', /\b(?:INSERT INTO|ALTER TABLE|argMax\()/],
  ['an internal error name', /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|URIError): /],
];

export function judge(
  request: FuzzRequest,
  answer: RawAnswer,
  operation: Operation | undefined,
  ctx: OracleContext,
): string[] {
  const problems: string[] = [];
  const { status } = answer;
  const contentType = answer.headers['content-type'] ?? '';
  const text = answer.body.toString('utf8');
  if (status === 0) return [`not an HTTP answer: ${JSON.stringify(text.slice(0, 200))}`];
  if (status >= 500) problems.push(`answered ${status}`);
  const documented = operation ? documentedAnswer(operation, status) : undefined;
  // A HEAD answer has the headers of its GET and no body to judge.
  const head = request.method === 'HEAD';
  if (status >= 400 && head) {
    if (!contentType.startsWith('application/json')) problems.push(`a ${status} to HEAD not declared JSON`);
  } else if (status >= 400) {
    problems.push(
      ...errorShapeProblems(answer, text, contentType, documented ?? anyErrorAnswer(operation), ctx),
    );
  } else if (status >= 200 && status < 300 && operation && !head && request.method !== 'OPTIONS') {
    problems.push(...successProblems(operation, status, contentType, text, answer.body.length, documented));
  }
  const binary = /^audio\//.test(contentType);
  if (!binary) problems.push(...leaks(text, request, ctx));
  problems.push(
    ...leaks(Object.values(answer.headers).join('\n'), request, ctx).map((p) => `a header holds ${p}`),
  );
  return problems;
}

/** An operation that documents an error shape of its own (the token endpoint's) uses it for every 4xx. */
function anyErrorAnswer(operation: Operation | undefined): Answer | undefined {
  const own = Object.entries(operation?.answers ?? {}).find(
    ([status, answer]) => status.startsWith('4') && answer.schema,
  );
  return own?.[1];
}

function documentedAnswer(operation: Operation, status: number): Answer | undefined {
  return operation.answers[String(status)] ?? operation.answers[`${String(status)[0]}XX`];
}

function errorShapeProblems(
  answer: RawAnswer,
  text: string,
  contentType: string,
  documented: Answer | undefined,
  ctx: OracleContext,
): string[] {
  if (!contentType.startsWith('application/json'))
    return [
      `a ${answer.status} that is not JSON (Content-Type ${JSON.stringify(contentType)}): ${JSON.stringify(text.slice(0, 120))}`,
    ];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`a ${answer.status} whose body is not JSON: ${JSON.stringify(text.slice(0, 120))}`];
  }
  // What the server refuses before routing (./client-errors.ts in the API) cannot know the operation's
  // own shape: the API's error shape is right for it whatever the path.
  const connectionLevel = ['malformed_request', 'headers_too_large', 'request_timeout', 'expectation_failed'];
  const given = (body as { error?: { code?: unknown } })?.error?.code;
  const schema =
    typeof given === 'string' && connectionLevel.includes(given)
      ? ctx.errorSchema
      : (documented?.schema ?? ctx.errorSchema);
  const shape = schemaProblems(body, schema, 'body');
  if (shape.length) return shape.map((p) => `a ${answer.status} not in its documented error shape: ${p}`);
  const error = (body as { error: unknown }).error;
  if (typeof error === 'string') {
    // RFC 6749's shape (the token endpoint): the description says what was wrong.
    const description = (body as { error_description?: unknown }).error_description;
    return typeof description === 'string' && description.length >= 10
      ? []
      : [`a ${answer.status} without an error_description`];
  }
  const { code, message } = error as { code: string; message: string };
  const problems: string[] = [];
  if (ctx.errorStatus[code] !== answer.status)
    problems.push(`code ${code} answered with ${answer.status} (its status is ${ctx.errorStatus[code]})`);
  if (
    message.trim().length < 10 ||
    /^(bad request|not found|error|internal server error)\.?$/i.test(message.trim())
  )
    problems.push(`a message that does not say what was wrong: ${JSON.stringify(message)}`);
  return problems;
}

function successProblems(
  operation: Operation,
  status: number,
  contentType: string,
  text: string,
  length: number,
  documented: Answer | undefined,
): string[] {
  if (!documented) return [`${status} is not an answer ${operation.id} documents`];
  if (documented.contentTypes.length === 0)
    return length === 0 ? [] : [`a ${status} with a body where none is documented`];
  const mediaType = contentType.split(';')[0]!.trim();
  const accepted = documented.contentTypes.map((t) => t.split(';')[0]!.trim());
  if (!accepted.includes(mediaType))
    return [`a ${status} in ${JSON.stringify(contentType)}, documented: ${accepted.join(', ')}`];
  if (mediaType === 'application/json') {
    try {
      JSON.parse(text);
    } catch {
      return [`a ${status} whose JSON does not parse: ${JSON.stringify(text.slice(0, 120))}`];
    }
  }
  return [];
}

/** What the request carried, decoded every way the server might have decoded it. */
function requestText(request: FuzzRequest): string {
  const raw = `${request.url}\n${request.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n${request.body?.toString('utf8') ?? ''}`;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    decoded = raw.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return `${raw}\n${decoded}\n${JSON.stringify(raw)}`;
}

function leaks(text: string, request: FuzzRequest, ctx: OracleContext): string[] {
  const problems: string[] = [];
  let echo: string | undefined;
  const echoed = (found: string) => (echo ??= requestText(request)).includes(found);
  for (const [what, pattern] of leakPatterns) {
    const match = pattern.exec(text);
    if (match && !echoed(match[0])) problems.push(`${what}: ${JSON.stringify(around(text, match.index))}`);
  }
  for (const secret of ctx.secrets) {
    if (secret && text.includes(secret) && !echoed(secret))
      problems.push(`a secret the API holds (${secret.slice(0, 4)}…)`);
  }
  for (const internal of ctx.internals) {
    if (internal && text.includes(internal) && !echoed(internal))
      problems.push(`internal text: ${JSON.stringify(around(text, text.indexOf(internal)))}`);
  }
  return problems;
}

const around = (text: string, at: number) => text.slice(Math.max(0, at - 60), at + 100);

/** A JSON Schema check as far as the error shapes need it: type, required, properties, enum. */
export function schemaProblems(value: unknown, schema: Schema, at: string): string[] {
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (
    type.length &&
    !type.some(
      (t) =>
        t === actual ||
        (t === 'integer' && Number.isInteger(value)) ||
        (t === 'number' && actual === 'number'),
    )
  )
    return [`${at} is ${actual}, not ${type.join(' or ')}`];
  if (schema.enum && !schema.enum.includes(value))
    return [`${at} is ${JSON.stringify(value)}, not one of ${schema.enum.join(', ')}`];
  if (actual !== 'object' || !schema.properties) return [];
  const object = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const name of schema.required ?? []) if (!(name in object)) problems.push(`${at}.${name} is missing`);
  for (const [name, fieldValue] of Object.entries(object)) {
    const field = schema.properties[name];
    if (!field) {
      if (schema.additionalProperties === false) problems.push(`${at}.${name} is not part of the shape`);
      continue;
    }
    problems.push(...schemaProblems(fieldValue, field, `${at}.${name}`));
  }
  return problems;
}
