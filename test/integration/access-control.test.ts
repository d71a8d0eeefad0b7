// Access control on real components: two API processes, the client directory
// fed by news.clients.v1, Redis for rate limits (a private redis-server, so it
// can be stopped without disturbing anything else), the admin command.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Kafka } from 'kafkajs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProducer } from '../../services/runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../../services/runtime/kafka/registry.ts';
import { freePort, startApiProcess, type ApiProcess } from './support/api-process.ts';
import { testKafka } from './support/kafka.ts';
import { stack } from './support/stack.ts';
import { createTestClient, type TestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const signingSecret = Buffer.from('an access-token signing key for tests only!').toString('base64url');
const tokenKeys = `k1:${signingSecret}`;

function startRedis(port: number): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
}

interface ErrorBody {
  error: { code: string; message: string };
}

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  error: string;
  error_description: string;
}

describe('access control', () => {
  let kafka: Kafka;
  let codec: EventCodec;
  let producer: EventProducer;
  let redisPort: number;
  let redis: ChildProcess;
  const apis: ApiProcess[] = [];
  const secrets: string[] = [];
  let full: TestClient;

  const call = async (api: ApiProcess, path: string, credential: string | null, init: RequestInit = {}) => {
    const response = await fetch(`${api.url}${path}`, {
      ...init,
      headers: { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...(init.headers ?? {}) },
    });
    const text = await response.text();
    let body: ErrorBody = { error: { code: '', message: '' } };
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      // metrics and other text answers
    }
    return { status: response.status, headers: response.headers, text, body };
  };
  /** A GET with exactly these raw headers (name, value, name, value...): fetch would join repeated ones. */
  const sentWith = (api: ApiProcess, path: string, rawHeaders: string[], method = 'GET') =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const url = new URL(`${api.url}${path}`);
      // Given as an array, the headers are sent as they are: Host is not added.
      const headers = ['Host', url.host, ...rawHeaders];
      const req = httpRequest(url, { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end();
    });
  const token = async (
    api: ApiProcess,
    body: unknown,
    headers: Record<string, string> = {},
    path = '/oauth/token',
  ) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as TokenBody;
    if (parsed.access_token) secrets.push(parsed.access_token);
    return { status: response.status, headers: response.headers, body: parsed };
  };
  /** A new client, once both API processes know it (asked through the token endpoint, which is not rate limited). */
  const client = async (options: Parameters<typeof createTestClient>[1]) => {
    const created = await createTestClient({ kafka, codec, producer }, options);
    secrets.push(created.apiKey, created.clientSecret);
    const credentials = {
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
    };
    for (const api of apis)
      await waitFor(async () => (await token(api, credentials)).status === 200, 'the new client');
    return created;
  };

  beforeAll(async () => {
    kafka = testKafka();
    codec = new EventCodec(createSchemaRegistry(stack.SCHEMA_REGISTRY_URL));
    producer = await EventProducer.connect(kafka, codec);
    redisPort = await freePort();
    redis = startRedis(redisPort);
    full = await client({ name: 'access full', plan: 'professional' });
    const env = {
      API_TOKEN_KEYS: tokenKeys,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_KEY_PREFIX: `test:${Date.now()}:`,
      // These tests send dozens of failing credentials a minute on purpose; the limit on guessing has
      // its own test and process below.
      API_AUTH_FAILURES_PER_MINUTE: '0',
    };
    apis.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apis.map((a) => a.stop()));
    redis?.kill('SIGKILL');
    await producer?.disconnect();
  });

  it('answers 401 unauthorized for missing, malformed and unknown credentials, 403 naming a missing scope', async () => {
    const [a] = apis as [ApiProcess];
    const none = await call(a, '/v1/articles', null);
    expect([none.status, none.body.error.code]).toEqual([401, 'unauthorized']);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // A key put in the URL is not read, and the answer says so (without repeating it).
    const inUrl = await call(a, `/v1/articles?api_key=${full.apiKey}`, null);
    expect([inUrl.status, inUrl.body.error.message]).toEqual([
      401,
      'credentials are not read from the URL (api_key was given): send Authorization: Bearer <API key or access token> (or X-API-Key: <API key>), and rotate a key that went into a URL, which logs keep',
    ]);
    const basic = await fetch(`${a.url}/v1/articles`, { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    const unknown = await call(a, '/v1/articles', 'nik_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.body.error).toEqual({ code: 'unauthorized', message: 'unknown or revoked API key' });
    expect((await call(a, '/v1/articles?limit=1', full.apiKey)).status).toBe(200);
    // X-API-Key, read when Authorization is absent; a wrong key there is the same 401.
    const byHeader = (key: string) =>
      fetch(`${a.url}/v1/articles?limit=1`, { headers: { 'x-api-key': key } });
    expect((await byHeader(full.apiKey)).status).toBe(200);
    const wrong = await byHeader('nik_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect([wrong.status, ((await wrong.json()) as { error: unknown }).error]).toEqual([
      401,
      { code: 'unauthorized', message: 'unknown or revoked API key' },
    ]);
    expect((await byHeader('two words')).status).toBe(401);
    // Two Authorization headers (Node keeps the first and drops the other unseen): refused, whichever
    // comes first, so a proxy that read the other cannot disagree with the API on who is calling.
    for (const pair of [
      [full.apiKey, 'nik_bogus'],
      ['nik_bogus', full.apiKey],
    ]) {
      const twice = await sentWith(
        a,
        '/v1/articles?limit=1',
        pair.flatMap((key) => ['Authorization', `Bearer ${key}`]),
      );
      expect([twice.status, JSON.parse(twice.text)]).toEqual([
        401,
        { error: { code: 'unauthorized', message: 'two Authorization headers: send one credential' } },
      ]);
    }

    const reader = await client({ name: 'access reader', scopes: ['read:feeds'] });
    const write = await call(a, '/v1/sources', reader.apiKey, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:1/feed', category: 'world', country: 'gb' }),
    });
    expect([write.status, write.body.error.code]).toEqual([403, 'insufficient_scope']);
    expect(write.body.error.message).toMatch(/write:sources/);
    // Health, metrics, the document and the token endpoint need no credentials.
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
      expect((await call(a, path, null)).status).toBe(200);
  });

  it('issues access tokens for client credentials (JSON, form, Basic) and refuses bad ones as RFC 6749 says', async () => {
    const [a, b] = apis as [ApiProcess, ApiProcess];
    const json = await token(a, {
      grant_type: 'client_credentials',
      client_id: full.clientId,
      client_secret: full.clientSecret,
      scope: 'read:feeds',
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:feeds' });
    expect(json.headers.get('cache-control')).toBe('no-store');
    // Tokens work on every instance (shared signing keys).
    expect((await call(b, '/v1/articles?limit=1', json.body.access_token)).status).toBe(200);
    const readOnly = await call(b, '/v1/sources', json.body.access_token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([readOnly.status, readOnly.body.error.code]).toEqual([403, 'insufficient_scope']);

    // A secret in the URL is refused unread (it is in the logs now), and two Authorization headers are.
    const inUrl = await fetch(`${a.url}/oauth/token?client_secret=${full.clientSecret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${full.clientId}`,
    });
    expect([inUrl.status, ((await inUrl.json()) as TokenBody).error_description]).toEqual([
      400,
      'client_secret is not read from the URL (logs keep URLs): send it in the body or with HTTP Basic, and rotate a secret that went into a URL',
    ]);
    const basicTwice = await sentWith(
      a,
      '/oauth/token',
      [
        'Authorization',
        `Basic ${Buffer.from(`${full.clientId}:${full.clientSecret}`).toString('base64')}`,
        'Authorization',
        'Basic eDp5',
      ],
      'POST',
    );
    expect([basicTwice.status, (JSON.parse(basicTwice.text) as TokenBody).error]).toEqual([
      400,
      'invalid_request',
    ]);

    const form = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${full.clientId}:${full.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const formBody = (await form.json()) as { access_token: string; scope: string };
    secrets.push(formBody.access_token);
    expect(form.status).toBe(200);
    expect(formBody.scope.split(' ').sort()).toEqual([
      'read:feeds',
      'use:ai',
      'use:audio',
      'write:monitors',
      'write:sources',
      'write:webhooks',
    ]);

    // As some OAuth libraries send it: HTTP Basic, and client_id in the body too, naming the same client.
    const basic = `Basic ${Buffer.from(`${full.clientId}:${full.clientSecret}`).toString('base64')}`;
    const basicWith = (body: string) =>
      fetch(`${a.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body,
      });
    const withId = await basicWith(`grant_type=client_credentials&client_id=${full.clientId}`);
    const withIdBody = (await withId.json()) as { access_token: string };
    secrets.push(withIdBody.access_token);
    expect(withId.status).toBe(200);
    const otherId = await basicWith('grant_type=client_credentials&client_id=cli_someone_else');
    expect([otherId.status, ((await otherId.json()) as { error: string }).error]).toEqual([
      400,
      'invalid_request',
    ]);
    // A parameter twice (RFC 6749 3.2: must not be): which one is meant is unknown, so neither is taken.
    for (const body of [
      'grant_type=client_credentials&grant_type=password',
      `grant_type=client_credentials&client_id=${full.clientId}&client_id=${full.clientId}`,
    ]) {
      const twice = await basicWith(body);
      const twiceBody = (await twice.json()) as { error: string; error_description: string };
      expect([twice.status, twiceBody.error], body).toEqual([400, 'invalid_request']);
      expect(twiceBody.error_description).toMatch(/^(grant_type|client_id) is given more than once$/);
    }
    // The same in a JSON body, where JSON.parse alone would keep the last grant_type.
    const twiceJson = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic },
      body: '{"grant_type":"password","grant_type":"client_credentials"}',
    });
    expect([twiceJson.status, await twiceJson.json()]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'grant_type is given more than once' },
    ]);
    // A grant_type that is no string is not a missing one.
    const typed = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic },
      body: '{"grant_type":1}',
    });
    expect([typed.status, await typed.json()]).toEqual([
      400,
      {
        error: 'invalid_request',
        error_description: 'grant_type must be a string, not number',
      },
    ]);
    // So is a client_secret of another type: a malformed request, not a failed authentication.
    const typedSecret = await token(a, {
      grant_type: 'client_credentials',
      client_id: full.clientId,
      client_secret: 123,
    });
    expect([typedSecret.status, typedSecret.body]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'client_secret must be a string, not number' },
    ]);
    // RFC 6749 3.1: a parameter sent empty is as if it were not sent, so `scope=` (what libraries send
    // when none is configured) asks for every scope of the client, in a form as in JSON.
    const emptyScope = await basicWith('grant_type=client_credentials&scope=');
    const emptyScopeBody = (await emptyScope.json()) as { access_token: string; scope: string };
    secrets.push(emptyScopeBody.access_token);
    expect([emptyScope.status, emptyScopeBody.scope]).toEqual([200, formBody.scope]);
    const emptyJsonScope = await token(a, {
      grant_type: 'client_credentials',
      client_id: full.clientId,
      client_secret: full.clientSecret,
      scope: '',
    });
    expect([emptyJsonScope.status, emptyJsonScope.body.scope]).toEqual([200, formBody.scope]);
    // Parameters are UTF-8: another charset, or bytes that are not UTF-8, would change the secret read.
    const latin1 = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=iso-8859-1', authorization: basic },
      body: '{"grant_type":"client_credentials"}',
    });
    expect([latin1.status, ((await latin1.json()) as { error: string }).error]).toEqual([
      415,
      'invalid_request',
    ]);
    const notUtf8 = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: Buffer.concat([Buffer.from('grant_type=client_credentials&scope=caf'), Buffer.from([0xe9])]),
    });
    expect([notUtf8.status, await notUtf8.json()]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'the body is not valid UTF-8' },
    ]);
    // A compressed body is named as such, as on every other endpoint.
    const gzipped = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-encoding': 'gzip',
        authorization: basic,
      },
      body: gzipSync('grant_type=client_credentials'),
    });
    expect([gzipped.status, await gzipped.json()]).toEqual([
      415,
      {
        error: 'invalid_request',
        error_description: 'the body must be sent uncompressed, not with Content-Encoding: gzip',
      },
    ]);
    // No body at all: what is missing is grant_type.
    const bare = await fetch(`${a.url}/oauth/token`, { method: 'POST', headers: { authorization: basic } });
    const bareBody = (await bare.json()) as { error: string; error_description: string };
    expect([bare.status, bareBody.error, bareBody.error_description]).toEqual([
      400,
      'invalid_request',
      'grant_type is required',
    ]);

    const reader = await client({ name: 'access scoped', scopes: ['read:feeds'] });
    const tooMuch = await token(a, {
      grant_type: 'client_credentials',
      client_id: reader.clientId,
      client_secret: reader.clientSecret,
      scope: 'read:feeds use:ai',
    });
    expect([tooMuch.status, tooMuch.body.error]).toEqual([400, 'invalid_scope']);
    expect(tooMuch.body.error_description).toBe('the client may not have: use:ai');
    // RFC 6749 5.2: an error_description is printable ASCII without quotes or backslashes, whatever the
    // request held; a scope that is no scope-token is not echoed, and nothing echoed is long.
    const described = async (body: Record<string, unknown>) => {
      const answer = await token(a, { grant_type: 'client_credentials', ...body });
      expect(answer.body.error_description, JSON.stringify(body).slice(0, 80)).toMatch(
        /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,200}$/,
      );
      return answer.body;
    };
    const reading = { client_id: reader.clientId, client_secret: reader.clientSecret };
    expect(await described({ ...reading, scope: 'read:feeds "écrire"\\x' })).toMatchObject({
      error: 'invalid_scope',
      error_description: expect.stringContaining('RFC 6749 3.3') as unknown,
    });
    expect((await described({ ...reading, scope: 'read:feeds\tuse:ai' })).error).toBe('invalid_scope');
    expect((await described({ ...reading, scope: 'x'.repeat(20_000) })).error).toBe('invalid_scope');
    expect((await described({ ...reading, scope: 'a: b: c: d: e: f: g:' })).error_description).toBe(
      'the client may not have: a: b: c: d: e: and 2 more',
    );
    const twice = await fetch(`${a.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&%22%C3%A9%5C=1&%22%C3%A9%5C=2',
    });
    expect(await twice.json()).toEqual({
      error: 'invalid_request',
      error_description: "'?/ is given more than once",
    });
    const wrong = await token(a, {
      grant_type: 'client_credentials',
      client_id: full.clientId,
      client_secret: 'nis_wrong',
    });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
    // The challenge names the scheme the endpoint takes client credentials in, whatever was tried.
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="news-intelligence"');
    const grant = await token(a, {
      grant_type: 'password',
      client_id: full.clientId,
      client_secret: full.clientSecret,
    });
    expect([grant.status, grant.body.error]).toEqual([400, 'unsupported_grant_type']);
    // The interface has every request carry `Authorization: Bearer <API key>`: beside credentials in the
    // body it is left aside (it is not client authentication), and alone it gets no token.
    const withKey = await token(
      a,
      { grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret },
      { authorization: `Bearer ${full.apiKey}` },
    );
    expect([withKey.status, withKey.body.token_type]).toEqual([200, 'Bearer']);
    const keyAlone = await token(
      a,
      { grant_type: 'client_credentials' },
      { authorization: `Bearer ${full.apiKey}` },
    );
    expect([keyAlone.status, keyAlone.body.error]).toEqual([401, 'invalid_client']);
    expect(keyAlone.headers.get('www-authenticate')).toBe('Basic realm="news-intelligence"');
    expect(keyAlone.body.error_description).toMatch(/API key or token in Authorization does not get a token/);
    const badBasic = await token(
      a,
      { grant_type: 'client_credentials', client_id: full.clientId, client_secret: full.clientSecret },
      { authorization: 'Basic !!!' },
    );
    expect([badBasic.status, badBasic.body.error]).toEqual([401, 'invalid_client']);
    const missing = await token(a, { client_id: full.clientId, client_secret: full.clientSecret });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
  });

  it('answers 401 for expired, wrongly signed, alg none, unknown-key and tampered tokens', async () => {
    const [a] = apis as [ApiProcess];
    const issued = await token(a, {
      grant_type: 'client_credentials',
      client_id: full.clientId,
      client_secret: full.clientSecret,
      scope: 'read:feeds',
    });
    const good: string = issued.body.access_token;
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const sign = (body: Record<string, unknown>, kid: string, secret: string) =>
      new SignJWT(body)
        .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
        .sign(Buffer.from(secret, 'base64url'));
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string][] = [
      [
        'expired',
        await sign({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 3600 }, 'k1', signingSecret),
      ],
      [
        'wrong signature',
        await sign(claims, 'k1', Buffer.from('some other key of thirty-two bytes+').toString('base64url')),
      ],
      ['alg none', `${b64({ alg: 'none', typ: 'at+jwt', kid: 'k1' })}.${payload}.`],
      ['unknown key id', await sign(claims, 'k9', signingSecret)],
      ['tampered scope', `${header}.${b64({ ...claims, scope: 'read:feeds write:sources' })}.${signature}`],
    ];
    secrets.push(...cases.map(([, t]) => t));
    for (const [name, bad] of cases) {
      const answer = await call(a, '/v1/articles?limit=1', bad);
      expect([answer.status, answer.body.error.code], name).toEqual([401, 'unauthorized']);
      expect(answer.text, name).not.toContain(bad);
    }
    expect((await call(a, '/v1/articles?limit=1', good)).status).toBe(200);
  });

  it('Essentials: 1,000 calls in the hour succeed and call 1,001 gets 429, with 50 concurrent clients over two processes', async () => {
    // Start well inside a clock hour: across its turn the last hour's calls would weigh less from one call
    // to the next, and the remaining counts would not be 999 down to 0.
    const intoHour = (Date.now() / 1000) % 3600;
    if (intoHour > 3540) await new Promise((r) => setTimeout(r, (3600 - intoHour + 2) * 1000));
    const essentials = await client({ name: 'access essentials', plan: 'essentials' });
    await waitFor(async () => (await call(apis[0]!, '/healthz', null)).status === 200, 'api');
    const remaining: number[] = [];
    let next = 0;
    const worker = async (w: number) => {
      while (next < 1000) {
        next++;
        const answer = await fetch(`${apis[w % 2]!.url}/v1/sources?limit=1`, {
          headers: { authorization: `Bearer ${essentials.apiKey}` },
        });
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit-limit')).toBe('1000');
        remaining.push(Number(answer.headers.get('ratelimit-remaining')));
        expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
    };
    await Promise.all(Array.from({ length: 50 }, (_, w) => worker(w)));
    // Every count from 999 down to 0 was handed out exactly once: the counter is atomic across processes.
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const over = await call(apis[1]!, '/v1/sources?limit=1', essentials.apiKey);
    expect([over.status, over.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
  }, 120_000);

  it('stops a key revoked through the admin command on both processes within 5 seconds', async () => {
    const doomed = await client({ name: 'access revoked', plan: 'professional' });
    for (const api of apis) expect((await call(api, '/v1/articles?limit=1', doomed.apiKey)).status).toBe(200);
    const started = Date.now();
    const command = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'services/clients/main.ts', 'revoke', doomed.clientId],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(command.status, command.stderr).toBe(0);
    const commandMs = Date.now() - started;
    const revokedAt = await Promise.all(
      apis.map((api) =>
        waitFor(
          async () => (await call(api, '/v1/articles?limit=1', doomed.apiKey)).status === 401 && Date.now(),
          'the revocation to reach the API',
          5_000,
          20,
        ),
      ),
    );
    const elapsed = Math.max(...revokedAt) - started;
    console.log(
      `revocation: the admin command took ${commandMs} ms; both API processes refused the key ${elapsed} ms after it started`,
    );
    expect(elapsed).toBeLessThan(5_000);
  }, 30_000);

  it('keeps serving without Redis (fail-open, counted), and limits resume when it is back', async () => {
    const [a] = apis as [ApiProcess];
    const failOpens = async () => {
      const metrics = (await call(a, '/metrics', null)).text;
      return Number(/^api_rate_limit_fail_open_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    };
    const before = await failOpens();
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    for (let i = 0; i < 5; i++) expect((await call(a, '/v1/articles?limit=1', full.apiKey)).status).toBe(200);
    expect(await failOpens()).toBeGreaterThanOrEqual(before + 5);
    expect(a.output()).toMatch(/rate limits cannot be checked \(Redis unreachable\)/);

    redis = startRedis(redisPort);
    const counted = await waitFor(
      async () => {
        const answer = await call(a, '/v1/articles?limit=1', full.apiKey);
        const remaining = Number(answer.headers.get('ratelimit-remaining'));
        return answer.status === 200 && remaining < 10_000 && remaining;
      },
      'rate limiting to resume',
      15_000,
      200,
    );
    const after = await call(a, '/v1/articles?limit=1', full.apiKey);
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(counted - 1);
  }, 60_000);

  it('refuses every credential of an address that tried too many failing ones, and only of that address', async () => {
    // Behind a proxy we trust (this test, on loopback), so that X-Forwarded-For names each client.
    const guarded = await startApiProcess({
      API_TOKEN_KEYS: tokenKeys,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_KEY_PREFIX: `test:guessing:${Date.now()}:`,
      API_AUTH_FAILURES_PER_MINUTE: '4',
      API_TRUSTED_PROXIES: '127.0.0.1, ::1',
    });
    try {
      // The count is a sliding minute estimated from clock minutes' sets, where failures on both sides of a
      // minute's turn weigh a little less than four: start with enough of the minute left for the test.
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 25_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
      const from = (address: string, credential: string | null) =>
        call(guarded, '/v1/articles?limit=1', credential, { headers: { 'x-forwarded-for': address } });
      const guess = (i: number) => `nik_${String(i).repeat(43).slice(0, 43)}`;

      // One bad key retried is one credential, however often: a misconfigured client is not a guesser.
      for (let i = 0; i < 6; i++) expect((await from('198.51.100.1', guess(1))).status).toBe(401);
      for (const i of [2, 3, 4]) expect((await from('198.51.100.1', guess(i))).status).toBe(401);
      // Four distinct credentials failed from there: the next is refused unchecked, a valid one too.
      const refused = await from('198.51.100.1', full.apiKey);
      expect([refused.status, refused.body.error.code]).toEqual([429, 'too_many_failed_credentials']);
      expect(refused.body.error.message).toContain('198.51.100.1');
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      // A request without a credential guesses nothing: it still learns what is missing.
      expect((await from('198.51.100.1', null)).body.error.code).toBe('unauthorized');
      // Its neighbours are served, and so is the proxy's own address.
      expect((await from('198.51.100.2', full.apiKey)).status).toBe(200);
      expect((await call(guarded, '/v1/articles?limit=1', full.apiKey)).status).toBe(200);

      // Client secrets at the token endpoint count the same way, and are refused in OAuth's shape: at
      // every spelling of its path the router answers (any case, a trailing slash), not only its own.
      const tokenFrom = (secret: string, path?: string) =>
        token(
          guarded,
          { grant_type: 'client_credentials', client_id: full.clientId, client_secret: secret },
          { 'x-forwarded-for': '203.0.113.7' },
          path,
        );
      const spellings = ['/oauth/token/', '/OAuth/Token', '/OAUTH/TOKEN/', '/oauth/token'];
      for (const [i, path] of spellings.entries())
        expect((await tokenFrom(`wrong secret ${i}`, path)).status, path).toBe(401);
      for (const path of spellings) {
        const refusedToken = await tokenFrom(full.clientSecret, path);
        expect([path, refusedToken.status, refusedToken.body.error]).toEqual([
          path,
          429,
          'too_many_failed_credentials',
        ]);
        expect(Number(refusedToken.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(refusedToken.headers.get('cache-control')).toBe('no-store');
      }

      // The log says which address, and holds none of what it tried.
      await waitFor(
        () => guarded.output().includes('"address":"198.51.100.1"'),
        'the refusal in the log',
        5_000,
        100,
      );
      for (const tried of [guess(1), guess(4), 'wrong secret 1', full.apiKey, full.clientSecret])
        expect(guarded.output().includes(tried)).toBe(false);
    } finally {
      await guarded.stop();
    }
  }, 120_000);

  it('never writes a key, secret or token to the logs or to an error body', async () => {
    // Provoke errors with every kind of credential, then search both processes' whole output.
    for (const secret of secrets) await call(apis[0]!, '/v1/articles?limit=0', secret);
    expect(secrets.length).toBeGreaterThan(10);
    for (const api of apis) {
      const output = api.output();
      expect(output.length).toBeGreaterThan(1000);
      for (const secret of secrets) {
        expect(output.includes(secret), `a credential (${secret.slice(0, 6)}…) in the log`).toBe(false);
        expect(output.includes(secret.slice(-24)), 'part of a credential in the log').toBe(false);
      }
    }
  });
});
