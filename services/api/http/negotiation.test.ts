import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../routes.ts';
import { openApiDocument } from '../openapi/document.ts';
import { send, serveTestApp, testRoutes } from './app-under-test.test-support.ts';
import { answerTypes, negotiatesAccept, registeredAudioTypes } from './negotiation.ts';

let server: Server;
let port = 0;
beforeAll(async () => ({ server, port } = await serveTestApp()));
afterAll(() => new Promise((resolve) => server.close(resolve)));

const auth = { authorization: 'Bearer x' };
const withAccept = (accept: string | undefined, method = 'GET', path = '/v1/things') =>
  send(port, method, path, accept === undefined ? auth : { ...auth, accept });

describe('a JSON endpoint', () => {
  it.each([
    ['text/html'],
    ['application/xml'],
    ['text/html, application/xhtml+xml'],
    ['application/json;q=0'],
    ['application/json;q=0, */*'],
    ['application/*;q=0, */*;q=1'],
    ['*/*;q=0'],
    ['audio/*'],
    ['text/event-stream'],
    ['application/json; charset=iso-8859-1'],
    ['garbage'],
    [';;;'],
  ])('answers 406 not_acceptable in the JSON error body to Accept: %s', async (accept) => {
    const answer = await withAccept(accept);
    expect(answer.status).toBe(406);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.etag).toBeUndefined();
    const body = JSON.parse(answer.body.toString()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_acceptable');
    expect(body.error.message).toContain('application/json');
    expect(body.error.message).toContain(JSON.stringify(accept));
  });

  it.each([
    ['*/*'],
    ['application/*'],
    ['application/json'],
    ['APPLICATION/JSON'],
    ['application/json; charset=utf-8'],
    ['application/json;q=0.001'],
    ['text/html;q=0.9, application/json;q=0.1'],
    ['text/html, application/json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'], // a browser's
    ['application/xml, application/*;q=0.5'],
    [''],
  ])('answers 200 JSON to Accept: %j', async (accept) => {
    const answer = await withAccept(accept);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers 200 JSON to a request without Accept', async () => {
    const answer = await withAccept(undefined);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toHaveProperty('things');
  });

  it('answers 406 to HEAD and POST too, and decides it after authentication', async () => {
    expect((await withAccept('text/html', 'HEAD')).status).toBe(406);
    expect((await withAccept('text/html', 'POST')).status).toBe(406);
    const anonymous = await send(port, 'GET', '/v1/things', { accept: 'text/html' });
    expect(anonymous.status).toBe(401);
  });
});

describe('an endpoint that answers audio or JSON', () => {
  it.each([
    ['audio/*'],
    ['audio/mpeg'],
    ['application/json'],
    ['*/*'],
    ['audio/mp3'],
    ['AUDIO/X-MPEG;q=0.5'],
  ])('accepts Accept: %s', async (accept) => {
    expect((await withAccept(accept, 'POST', '/v1/speak')).status).toBe(200);
  });

  it('reads the legacy spellings of the audio types as the registered ones', () => {
    expect(registeredAudioTypes('audio/mp3, audio/x-wav;q=0.5, audio/wave;q=0.2')).toBe(
      'audio/mpeg, audio/wav;q=0.5, audio/wav;q=0.2',
    );
    expect(registeredAudioTypes('audio/mpegurl, audio/ogg')).toBe('audio/mpegurl, audio/ogg');
    // Opus in Ogg as browsers write it; Vorbis keeps its parameter (none is made, so nothing matches it).
    expect(
      registeredAudioTypes('audio/ogg; codecs=opus, audio/ogg;codecs="opus";q=0.5, audio/opus;q=0.2'),
    ).toBe('audio/ogg, audio/ogg;q=0.5, audio/ogg;q=0.2');
    expect(registeredAudioTypes('audio/ogg; codecs=vorbis')).toBe('audio/ogg; codecs=vorbis');
    expect(registeredAudioTypes('audio/ogg; codecs=opusx')).toBe('audio/ogg; codecs=opusx');
  });

  it('answers 406 when Accept takes neither', async () => {
    const answer = await withAccept('text/html', 'POST', '/v1/speak');
    expect(answer.status).toBe(406);
    expect(JSON.parse(answer.body.toString())).toMatchObject({
      error: { code: 'not_acceptable', message: expect.stringContaining('audio/mpeg') as unknown },
    });
  });
});

describe('what answers no JSON keeps its own types', () => {
  it('an event stream answers whatever Accept says', async () => {
    for (const accept of ['text/event-stream', 'application/json', 'text/html']) {
      const answer = await withAccept(accept, 'GET', '/v1/events');
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-type'], accept).toMatch(/^text\/event-stream/);
    }
  });

  it('an answer without a body (204) is not negotiated', async () => {
    expect((await withAccept('text/html', 'DELETE', '/v1/things/1')).status).toBe(204);
  });

  it('the public routes (/docs serves HTML, /metrics text, /healthz JSON) are not negotiated', async () => {
    for (const [path, accept] of [
      ['/docs', 'text/html'],
      ['/metrics', 'text/plain'],
      ['/healthz', 'text/html'],
    ] as const) {
      expect((await send(port, 'GET', path, { accept })).status, path).toBe(200);
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents 406 not_acceptable on the routes that negotiate, and only on those', () => {
    const paths = openApiDocument(testRoutes, { version: 'test' }).paths as Record<
      string,
      Record<string, { responses: Record<string, { description: string }> }>
    >;
    expect(paths['/v1/things']!.get!.responses['406']!.description).toBe('Error: not_acceptable');
    expect(paths['/v1/speak']!.post!.responses['406']).toBeDefined();
    expect(paths['/v1/events']!.get!.responses['406']).toBeUndefined();
    expect(paths['/v1/things/{id}']!.delete!.responses['406']).toBeUndefined();
  });

  it('says which routes of the API negotiate: the JSON ones, not the event stream', () => {
    const paths = describeApi().paths as Record<string, Record<string, { responses: object }>>;
    expect(paths['/v1/articles']!.get!.responses).toHaveProperty('406');
    expect(paths['/v1/synthesize']!.post!.responses).toHaveProperty('406');
    expect(paths['/v1/stream']!.get!.responses).not.toHaveProperty('406');
  });

  it('reads the answer types of a route from its responses, JSON first', () => {
    const speak = testRoutes.find((route) => route.operationId === 'speak')!;
    expect(answerTypes(speak)).toEqual(['application/json', 'audio/mpeg']);
    expect(negotiatesAccept(speak)).toBe(true);
    const events = testRoutes.find((route) => route.operationId === 'events')!;
    expect([answerTypes(events), negotiatesAccept(events)]).toEqual([['text/event-stream'], false]);
  });
});
