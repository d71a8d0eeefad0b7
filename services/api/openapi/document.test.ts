import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { knownScopes } from '../../clients/plans.ts';
import { describeApi, describedRoutes } from '../routes.ts';
import { clientTypesFile, generatedClientTypes } from './generate-client.ts';
import { openApiDocument } from './document.ts';

describe('OpenAPI document', () => {
  const document = describeApi();

  it('is valid OpenAPI 3.1 for a standard validator', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents every parameter of Sets A and B, q and cursor, and the error body', () => {
    const paths = document.paths as Record<string, Record<string, { parameters: { name: string }[] }>>;
    const names = paths['/v1/articles']!.get!.parameters.map((p) => p.name);
    expect(names).toEqual([
      'category',
      'source',
      'language',
      'date_range',
      'q',
      'search_in',
      'entity',
      'sentiment',
      'story',
      'collapse',
      'sort_by',
      'limit',
      'offset',
      'cursor',
      'If-None-Match',
    ]);
    const sources = paths['/v1/sources']!.get!.parameters.map((p) => p.name);
    expect(sources).toEqual(expect.arrayContaining(['category', 'country', 'active_only', 'subscribed']));
    const personalized = paths['/api/v1/feeds/personalized']!.get!.parameters.map((p) => p.name);
    expect(personalized).toEqual(['topics', 'limit', 'offset', 'cursor', 'format', 'If-None-Match']);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['Error', 'ArticleList', 'ArticleDetail', 'Source']),
    );
  });

  it('lists 503 service_unavailable on every route: any answers it when ClickHouse or Redis is away', () => {
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const without = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => !op.responses['503'])
        .map(([method]) => `${method} ${path}`),
    );
    // Described by hand, and answered from what the process holds (its clients, the audio files).
    expect(without).toEqual(['post /oauth/token', 'get /v1/audio/{key}', 'head /v1/audio/{key}']);
    const unavailable = paths['/v1/articles']!.get!.responses['503'] as { description: string };
    expect(unavailable.description).toContain('service_unavailable');
  });

  it('says of every JSON request body that unknown fields are refused, as the API answers them', () => {
    type Operation = { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } };
    const schemas = (document.components as { schemas: Record<string, { additionalProperties?: unknown }> })
      .schemas;
    const bodies = Object.values(document.paths as Record<string, Record<string, Operation>>)
      .flatMap((path) => Object.values(path))
      .flatMap((op) => Object.values(op.requestBody?.content ?? {}))
      .flatMap(({ schema }) => (schema.$ref ? [schema.$ref.replace('#/components/schemas/', '')] : []));
    expect(bodies).toEqual(expect.arrayContaining(['NewWebhook', 'NewMonitor', 'SummarizeRequest']));
    for (const id of bodies) expect([id, schemas[id]!.additionalProperties]).toEqual([id, false]);
  });

  it("documents an article's signed audio URL: no credentials, a redirect, the not-ready answer", () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    const get = paths['/v1/articles/{id}/audio']!.get!;
    expect(get.security).toEqual([{}]);
    expect(Object.keys(get.responses as object)).toEqual(['302', '403', '404', '503']);
    expect(JSON.stringify((get.responses as Record<string, unknown>)['404'])).toMatch(
      /narration_not_ready[\s\S]*Retry-After/,
    );
    expect(Object.keys(paths['/v1/articles/{id}/audio']!)).toEqual(['get', 'head']);
  });

  it("documents the stream's Last-Event-ID header, which generated clients then expose", () => {
    type Parameter = { name: string; in: string; required: boolean };
    const stream = (document.paths as Record<string, Record<string, { parameters: Parameter[] }>>)[
      '/v1/stream'
    ]!.get!;
    expect(stream.parameters).toContainEqual(
      expect.objectContaining({ name: 'Last-Event-ID', in: 'header', required: false }),
    );
    expect(stream.parameters).toContainEqual(expect.objectContaining({ name: 'last_event_id', in: 'query' }));
  });

  it('documents the ETag and 304 of JSON GETs, and of nothing else', () => {
    type Operation = { parameters: { name: string }[]; responses: Record<string, { headers?: object }> };
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const conditional = (op: Operation) => ({
      etag: Object.keys(op.responses['200']?.headers ?? {}).includes('ETag'),
      notModified: '304' in op.responses,
      ifNoneMatch: op.parameters.some((p) => p.name === 'If-None-Match'),
    });
    const all = { etag: true, notModified: true, ifNoneMatch: true };
    const none = { etag: false, notModified: false, ifNoneMatch: false };
    expect(conditional(paths['/v1/articles']!.get!)).toEqual(all);
    expect(conditional(paths['/api/v1/webhooks']!.get!)).toEqual(all);
    // A POST, the event stream and the audio redirect are never tagged (http/conditional-get.ts).
    expect(conditional(paths['/api/v1/webhooks']!.post!)).toEqual(none);
    expect(conditional(paths['/v1/stream']!.get!)).toEqual(none);
    expect(conditional(paths['/v1/articles/{id}/audio']!.get!)).toEqual(none);
  });

  it("documents the token endpoint's refusal of a guessing address: 429 too_many_failed_credentials, Retry-After", () => {
    type Answer = { headers?: object; content: { 'application/json': { schema: Record<string, unknown> } } };
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, Answer> }>>;
    const refused = paths['/oauth/token']!.post!.responses['429']!;
    expect(Object.keys(refused.headers ?? {})).toEqual(['Retry-After']);
    // The body the guard sends (auth/credential-guessing.ts) must pass the documented schema's enum.
    const error = (
      refused.content['application/json'].schema.properties as Record<string, { enum: string[] }>
    ).error!;
    expect(error.enum).toContain('too_many_failed_credentials');
  });

  it('declares OAuth 2.0 client credentials at the token endpoint, with every scope the API knows', () => {
    type OAuth2 = { type: string; flows: { clientCredentials: { tokenUrl: string; scopes: object } } };
    const schemes = (document.components as { securitySchemes: Record<string, OAuth2> }).securitySchemes;
    const { type, flows } = schemes.oauth2!;
    expect(type).toBe('oauth2');
    expect(Object.keys(flows)).toEqual(['clientCredentials']);
    expect(flows.clientCredentials.tokenUrl).toBe('/oauth/token');
    expect((document.paths as Record<string, unknown>)['/oauth/token']).toHaveProperty('post');
    expect(Object.keys(flows.clientCredentials.scopes)).toEqual([...knownScopes]);
    for (const description of Object.values(flows.clientCredentials.scopes))
      expect(description).toMatch(/^\S.{10,150}$/);
    // Under a public URL, as the operations' paths are: a relative URL would lose a path it has.
    const served = openApiDocument([], { version: 'test', serverUrl: 'https://example.com/news/' });
    const servedSchemes = (served.components as { securitySchemes: Record<string, OAuth2> }).securitySchemes;
    expect(servedSchemes.oauth2!.flows.clientCredentials.tokenUrl).toBe(
      'https://example.com/news/oauth/token',
    );
  });

  it('offers every operation that needs a scope to OAuth 2.0 tokens with that scope, beside the API key', () => {
    type Operation = { security?: Record<string, string[]>[]; 'x-required-scope'?: string };
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const schemes = (document.components as { securitySchemes: Record<string, Record<string, unknown>> })
      .securitySchemes;
    const declared = Object.keys(
      (schemes.oauth2!.flows as { clientCredentials: { scopes: object } }).clientCredentials.scopes,
    );
    // The routes as the router enforces them (app.ts, requireScope), not as the document says them.
    const scoped = describedRoutes().filter((route) => route.scope !== undefined);
    expect(scoped.length).toBeGreaterThan(30);
    for (const route of scoped) {
      const where = `${route.method} ${route.path}`;
      const security = paths[route.path]![route.method]!.security ?? [];
      const oauth2 = security.filter((requirement) => 'oauth2' in requirement);
      expect([where, oauth2]).toEqual([where, [{ oauth2: [route.scope] }]]);
      expect([where, declared]).toEqual([where, expect.arrayContaining([route.scope])]);
      expect([where, security]).toEqual([where, expect.arrayContaining([{ apiKeyHeader: [route.scope] }])]);
    }
    // Every operation the document lists with oauth2 is one of those routes: none offered a scope it lacks.
    const offered = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => (op.security ?? []).some((requirement) => 'oauth2' in requirement))
        .map(([method]) => `${method} ${path}`),
    );
    expect(offered.sort()).toEqual(scoped.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('declares the headers the answers carry: Location of what was created, Retry-After, the rate limits', () => {
    type Response = { headers?: Record<string, unknown> };
    type Operation = { 'x-required-scope'?: string; responses: Record<string, Response> };
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const operations = Object.values(paths).flatMap((methods) => Object.values(methods));
    const created = [
      paths['/v1/sources']!.post!.responses['201'],
      paths['/api/v1/webhooks']!.post!.responses['201'],
      paths['/api/v1/crm/monitor']!.post!.responses['201'],
      paths['/api/v1/documentaries']!.post!.responses['202'],
    ];
    for (const response of created) expect(Object.keys(response!.headers ?? {})).toContain('Location');
    let waits = 0;
    for (const operation of operations)
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '429' || status === '503') {
          expect(Object.keys(response.headers ?? {}), status).toContain('Retry-After');
          waits++;
        }
        // Not on a 401 (whose allowance would it be?) nor on what is answered before any route.
        if (status === '401' || status === 'default')
          expect(Object.keys(response.headers ?? {}), status).not.toContain('RateLimit-Remaining');
        else if (operation['x-required-scope'])
          expect(Object.keys(response.headers ?? {})).toEqual(
            expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
          );
      }
    expect(waits).toBeGreaterThan(operations.length);
  });

  it('matches the committed generated client types (npm run generate:api-client refreshes them)', async () => {
    expect(readFileSync(clientTypesFile, 'utf8')).toBe(await generatedClientTypes());
  });
});
