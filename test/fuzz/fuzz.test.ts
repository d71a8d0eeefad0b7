// The fuzzer's own logic, without an API: the same seed builds the same requests, and the oracle
// catches what it is there to catch (and lets an echo of the request through).
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { errorStatus } from '../../services/runtime/api-error.ts';
import { describeApi } from '../../services/api/routes.ts';
import { buildRequest, operationOrder, targetOf, type RequestPlan } from './mutators.ts';
import { judge, type OracleContext } from './oracle.ts';
import { walkOpenApi, type OpenApiDocument } from './openapi-walker.ts';
import { Pools } from './pools.ts';
import { decoded, retryAfter, type RawAnswer } from './raw-http.ts';
import { encodeRequest, type FuzzRequest } from './requests.ts';

const document = describeApi() as unknown as OpenApiDocument;
const operations = walkOpenApi(document);
const plan = (seed: number): RequestPlan => ({
  seed,
  operations,
  host: '127.0.0.1:1',
  pools: new Pools('http://127.0.0.1:2', { clientId: 'cli_x', clientSecret: 'nis_secret' }),
  credentials: { apiKey: 'nik_full', limitedKey: 'nik_limited' },
});
const requests = (seed: number, count: number) => {
  const order = operationOrder(seed, operations.length);
  return Array.from({ length: count }, (_, i) =>
    encodeRequest(buildRequest(plan(seed), order, i)).toString('latin1'),
  );
};

describe('fuzz requests', () => {
  it('are the same for the same seed, request by request, and differ for another seed', () => {
    const first = requests(42, 80);
    expect(requests(42, 80)).toEqual(first);
    expect(requests(43, 80)).not.toEqual(first);
    // Request 70 alone (as FUZZ_REPLAY builds it) is request 70 of the whole run.
    const order = operationOrder(42, operations.length);
    expect(encodeRequest(buildRequest(plan(42), order, 70)).toString('latin1')).toBe(first[70]);
  }, 60_000);

  it('reach every operation and every parameter and body field within a few thousand requests', () => {
    const seed = 7;
    const order = operationOrder(seed, operations.length);
    const reached = new Set<string>();
    for (let i = 0; i < 2_500; i++) {
      const operation = operations[order[i % order.length]!]!;
      reached.add(`${operation.id} ${targetOf(seed, operation, Math.floor(i / order.length))}`);
    }
    const targets = operations.flatMap((o) => o.targets.map((t) => `${o.id} ${t}`));
    expect(targets.filter((t) => !reached.has(t))).toEqual([]);
  });
});

describe('the oracle', () => {
  const ctx: OracleContext = {
    errorStatus,
    errorSchema: document.components!.schemas!.Error!,
    secrets: ['nik_the_api_key_of_the_fuzz_client'],
    internals: ['bench_fuzz_1234abcd'],
  };
  const listArticles = operations.find((o) => o.id === 'listArticles')!;
  const request: FuzzRequest = {
    index: 0,
    operation: 'listArticles',
    target: 'query:q',
    mutation: 'injection',
    method: 'GET',
    url: "/v1/articles?q=x')%20union%20select%201%20--",
    headers: [['Host', 'x']],
  };
  const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
    status,
    headers: { 'content-type': contentType },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    ms: 1,
  });
  const problems = (status: number, body: unknown, contentType?: string) =>
    judge(request, answer(status, body, contentType), listArticles, ctx);

  it('passes a 400 in the error shape that says what was wrong', () => {
    expect(
      problems(400, {
        error: { code: 'invalid_parameter', message: 'q: the parenthesis at position 1 is not closed' },
      }),
    ).toEqual([]);
  });

  it('flags a 5xx, an error out of shape, a bare status, a code of another status', () => {
    expect(
      problems(500, {
        error: { code: 'internal_error', message: 'internal error; request id x', request_id: 'x' },
      }),
    ).toEqual(['answered 500']);
    expect(problems(400, { message: 'bad' })[0]).toMatch(/documented error shape/);
    expect(problems(400, '', '')[0]).toMatch(/not JSON/);
    expect(
      problems(404, { error: { code: 'invalid_parameter', message: 'q: the value is not right' } })[0],
    ).toMatch(/its status is 400/);
    expect(problems(400, { error: { code: 'invalid_parameter', message: 'Bad Request' } })[0]).toMatch(
      /does not say/,
    );
  });

  it('flags stack traces, SQL, ClickHouse errors, secrets and internal names in any body', () => {
    const leaks = [
      'Error: boom\n    at ArticleStore.list (/srv/app/services/api/articles/article-store.ts:10:5)',
      'Code: 62. DB::Exception: Syntax error',
      'SELECT article_id FROM articles WHERE 1',
      'your key nik_the_api_key_of_the_fuzz_client',
      'table bench_fuzz_1234abcd.articles',
    ];
    for (const leak of leaks) {
      expect(problems(400, { error: { code: 'invalid_parameter', message: leak } }), leak).not.toEqual([]);
    }
  });

  it('lets through text the request itself sent (an echo is not a leak)', () => {
    expect(
      problems(400, {
        error: { code: 'invalid_parameter', message: `q: "x') union select 1 --" has no words` },
      }),
    ).toEqual([]);
  });
});

describe('a 503 the fuzzer sends again', () => {
  it('is one with Retry-After in whole seconds, waited for at most 5 s', () => {
    expect(retryAfter({ status: 503, headers: { 'retry-after': '2' } })).toBe(2);
    expect(retryAfter({ status: 503, headers: { 'retry-after': '120' } })).toBe(5);
    expect(retryAfter({ status: 503, headers: {} })).toBeUndefined();
    expect(retryAfter({ status: 503, headers: { 'retry-after': 'soon' } })).toBeUndefined();
    // Only a 503 asks to come back: a 500 or a 429 with the header is judged as it is.
    expect(retryAfter({ status: 500, headers: { 'retry-after': '2' } })).toBeUndefined();
    expect(retryAfter({ status: 429, headers: { 'retry-after': '2' } })).toBeUndefined();
  });
});

describe('a compressed answer', () => {
  const json = Buffer.from(JSON.stringify({ webhooks: Array.from({ length: 50 }, (_, i) => ({ id: i })) }));
  const answer = (encoding: string | undefined, body: Buffer): RawAnswer => ({
    status: 200,
    headers: encoding === undefined ? {} : { 'content-encoding': encoding },
    body,
    ms: 1,
  });

  it('is judged on its JSON: gzip, deflate and br undone, none left alone', () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
      [undefined, json],
    ] as const) {
      const read = decoded(answer(encoding, body));
      expect(read.ok && read.answer.body.toString(), String(encoding)).toBe(json.toString());
    }
  });

  it('is a problem in an encoding the client cannot undo, or when it does not decode', () => {
    const problem = (read: ReturnType<typeof decoded>) => (read.ok ? 'decoded' : read.problem);
    expect(problem(decoded(answer('zstd', json)))).toBe('a body in Content-Encoding "zstd"');
    expect(problem(decoded(answer('br', json)))).toMatch(
      /^a body in Content-Encoding br that does not decode: /,
    );
  });
});
