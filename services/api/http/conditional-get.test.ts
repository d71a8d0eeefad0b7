import type { Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, serveTestApp, type RawAnswer } from './app-under-test.test-support.ts';
import { ifNoneMatchMatches, weakETag } from './conditional-get.ts';

let server: Server;
let port = 0;
beforeAll(async () => ({ server, port } = await serveTestApp()));
afterAll(() => new Promise((resolve) => server.close(resolve)));

const auth = { authorization: 'Bearer x' };
const get = (path: string, headers: Record<string, string> = {}) =>
  send(port, 'GET', path, { ...auth, ...headers });
const etagOf = (answer: RawAnswer) => answer.headers.etag;

describe('a 200 JSON answer to GET', () => {
  it('carries a weak ETag, the hash of its JSON', async () => {
    const answer = await get('/v1/things');
    expect(answer.status).toBe(200);
    expect(etagOf(answer)).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(etagOf(answer)).toBe(weakETag(answer.body));
  });

  it('carries the same ETag for the same body, and another for another body', async () => {
    const [first, second, other] = await Promise.all([
      get('/v1/things'),
      get('/v1/things'),
      get('/v1/things?word=other'),
    ]);
    expect(etagOf(first)).toBe(etagOf(second));
    expect(etagOf(other)).not.toBe(etagOf(first));
  });

  it('carries it on HEAD too, the same as on GET, with no body', async () => {
    const head = await send(port, 'HEAD', '/v1/things', auth);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(etagOf(head)).toBe(etagOf(await get('/v1/things')));
  });

  it('carries it on a public JSON route too (/healthz)', async () => {
    expect(etagOf(await send(port, 'GET', '/healthz'))).toMatch(/^W\//);
  });

  it('carries the same ETag whether it is compressed or not, and says it varies by Accept-Encoding', async () => {
    const zipped = await get('/v1/things?n=200', { 'accept-encoding': 'gzip' });
    const plain = await get('/v1/things?n=200', { 'accept-encoding': 'identity' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(etagOf(zipped)).toBe(weakETag(plain.body));
    expect(etagOf(plain)).toBe(etagOf(zipped));
    for (const answer of [zipped, plain]) expect(answer.headers.vary).toMatch(/accept-encoding/i);
  });
});

describe('If-None-Match on a JSON GET', () => {
  it('naming the current ETag answers 304 with no body, keeping ETag, Cache-Control and Vary', async () => {
    const first = await get('/v1/things');
    const again = await get('/v1/things', { 'if-none-match': etagOf(first)! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(etagOf(again)).toBe(etagOf(first));
    expect(again.headers['cache-control']).toBe('private, max-age=60');
    expect(first.headers['cache-control']).toBe('private, max-age=60');
    expect(again.headers.vary).toBe(first.headers.vary);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    expect(again.headers['x-request-id']).toBeDefined();
    expect(again.headers['content-type']).toBeUndefined();
  });

  it('answers 304 to a client that accepts gzip, for an answer that would be gzipped, without Content-Encoding', async () => {
    const first = await get('/v1/things?n=200', { 'accept-encoding': 'gzip' });
    const again = await get('/v1/things?n=200', {
      'accept-encoding': 'gzip',
      'if-none-match': etagOf(first)!,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    expect(etagOf(again)).toBe(etagOf(first));
  });

  it('answers 304 on HEAD too', async () => {
    const tag = etagOf(await get('/v1/things'))!;
    const head = await send(port, 'HEAD', '/v1/things', { ...auth, 'if-none-match': tag });
    expect([head.status, etagOf(head)]).toEqual([304, tag]);
  });

  it('answers 304 when one of a list of ETags matches, compared weakly (W/ or not)', async () => {
    const tag = etagOf(await get('/v1/things'))!;
    const strong = tag.replace(/^W\//, '');
    for (const header of [`"a", ${tag}, "b"`, `W/"a",${tag}`, `"a", ${strong}`, strong, `"x,y", ${tag}`]) {
      expect((await get('/v1/things', { 'if-none-match': header })).status, header).toBe(304);
    }
  });

  it('answers 304 to `*` (there is a current representation)', async () => {
    const answer = await get('/v1/things', { 'if-none-match': '*' });
    expect(answer.status).toBe(304);
    expect(etagOf(answer)).toMatch(/^W\//);
  });

  it('answers 200 with the new ETag when none of the tags matches, or the header holds none', async () => {
    const current = etagOf(await get('/v1/things'))!;
    for (const header of ['"stale"', 'W/"stale", "older"', 'garbage', '', current.slice(3, -1)]) {
      const answer = await get('/v1/things', { 'if-none-match': header });
      expect(answer.status, header).toBe(200);
      expect(etagOf(answer), header).toBe(current);
    }
    const changed = await get('/v1/things?word=other', { 'if-none-match': current });
    expect(changed.status).toBe(200);
  });

  it('answers 304 whatever the request Cache-Control says (a proxy revalidating sends no-cache)', async () => {
    const tag = etagOf(await get('/v1/things'))!;
    const answer = await get('/v1/things', { 'if-none-match': tag, 'cache-control': 'no-cache' });
    expect(answer.status).toBe(304);
  });
});

describe('no ETag, and If-None-Match ignored', () => {
  it('on an error', async () => {
    for (const path of ['/v1/things/missing', '/v1/nothing', '/v1/things?n=x']) {
      const answer = await get(path, { 'if-none-match': '*' });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(etagOf(answer), path).toBeUndefined();
      expect(JSON.parse(answer.body.toString())).toHaveProperty('error.code');
    }
    const unauthenticated = await send(port, 'GET', '/v1/things', { 'if-none-match': '*' });
    expect([unauthenticated.status, etagOf(unauthenticated)]).toEqual([401, undefined]);
  });

  it('on an answer marked Cache-Control: no-store (it holds a secret)', async () => {
    const answer = await get('/v1/secret', { 'if-none-match': '*' });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(etagOf(answer)).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ secret: 'whsec_test' });
  });

  it('on an event stream', async () => {
    const answer = await get('/v1/events', { 'if-none-match': '*' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(etagOf(answer)).toBeUndefined();
    expect(answer.body.toString()).toBe('data: {"id":"event"}\n\n');
  });

  it('on a body that is a stream, even of JSON (never buffered)', async () => {
    const answer = await get('/v1/json-stream', { 'if-none-match': '*' });
    expect(answer.status).toBe(200);
    expect(etagOf(answer)).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ id: 'streamed' });
  });

  it('on what is not JSON (/docs, /metrics)', async () => {
    for (const path of ['/docs', '/metrics']) {
      const answer = await send(port, 'GET', path, { 'if-none-match': '*' });
      expect([answer.status, etagOf(answer)], path).toEqual([200, undefined]);
    }
  });

  it('on a POST', async () => {
    const answer = await send(port, 'POST', '/v1/things', { ...auth, 'if-none-match': '*' });
    expect([answer.status, etagOf(answer)]).toEqual([200, undefined]);
  });
});

describe('an If-None-Match field value', () => {
  const tag = 'W/"abc"';
  it.each([
    ['*', true],
    [' * ', true],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc"', true],
    ['"a,b","abc"', true],
    ['"ABC"', false],
    ['abc', false],
    ['"x", "y"', false],
    ['', false],
    ['W/', false],
  ])('%j matches W/"abc": %s', (header, matches) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(matches);
  });
});
