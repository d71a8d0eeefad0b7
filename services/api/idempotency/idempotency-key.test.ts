import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/api-error.ts';
import { canonicalJson, isStoredStatus, readIdempotencyKey, requestFingerprint } from './idempotency-key.ts';

function refusal(values: string[]): string {
  try {
    readIdempotencyKey(values);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_parameter');
    return (error as ApiError).message;
  }
  throw new Error(`accepted ${JSON.stringify(values)}`);
}

describe('Idempotency-Key header', () => {
  it('is absent when not sent', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey([])).toBeUndefined();
  });

  it('accepts 1 to 255 printable ASCII characters, bare or as a quoted structured-field string', () => {
    expect(readIdempotencyKey(['8e03978e-40d5-43e8-bc93-6894a57f9324'])).toBe(
      '8e03978e-40d5-43e8-bc93-6894a57f9324',
    );
    expect(readIdempotencyKey(['a'])).toBe('a');
    expect(readIdempotencyKey(['k'.repeat(255)])).toBe('k'.repeat(255));
    expect(readIdempotencyKey(['order 42: ~!@#$%^&*()'])).toBe('order 42: ~!@#$%^&*()');
    expect(readIdempotencyKey(['"abc"'])).toBe('abc');
    expect(readIdempotencyKey(['"say \\"hi\\""'])).toBe('say "hi"');
  });

  it('refuses an empty, too long, non-ASCII or repeated key with 400 naming the header and the problem', () => {
    expect(refusal([''])).toBe('Idempotency-Key: header must not be empty');
    expect(refusal(['""'])).toBe('Idempotency-Key: header must not be empty');
    expect(refusal(['k'.repeat(256)])).toBe('Idempotency-Key: header must be at most 255 characters');
    expect(refusal(['clé'])).toMatch(/^Idempotency-Key: header must be printable ASCII/);
    expect(refusal(['a\tb'])).toMatch(/^Idempotency-Key: header must be printable ASCII/);
    expect(refusal(['a\u0000b'])).toMatch(/printable ASCII/);
    expect(refusal(['a', 'b'])).toBe('Idempotency-Key: header given more than once');
  });
});

describe('request fingerprint', () => {
  const request = {
    method: 'POST',
    path: '/api/v1/webhooks',
    query: {},
    body: { url: 'https://example.com/hook', events: ['news.alert'], filter: { words: ['a', 'b'] } },
  };
  const fingerprint = requestFingerprint(request);

  it('is the same for the same JSON written another way (key order, spacing)', () => {
    const reordered = JSON.parse(
      '{ "filter": {"words": ["a","b"]},\n "events": ["news.alert"], "url": "https://example.com/hook" }',
    ) as unknown;
    expect(requestFingerprint({ ...request, body: reordered })).toBe(fingerprint);
    expect(requestFingerprint({ ...request, method: 'post' })).toBe(fingerprint);
  });

  it('differs with any value, the order of an array, the path, the query or the method', () => {
    const others = [
      { ...request, body: { ...request.body, url: 'https://example.com/other' } },
      { ...request, body: { ...request.body, events: ['news.alert', 'documentary.ready'] } },
      { ...request, body: { ...request.body, filter: { words: ['b', 'a'] } } },
      { ...request, body: { ...request.body, extra: null } },
      { ...request, body: undefined },
      { ...request, path: '/api/v1/webhooks/wh_1' },
      { ...request, query: { dry_run: 'true' } },
      { ...request, method: 'PATCH' },
    ];
    for (const other of others)
      expect(requestFingerprint(other), JSON.stringify(other)).not.toBe(fingerprint);
  });

  it('tells apart values JSON keeps apart, and a __proto__ key is a key', () => {
    expect(canonicalJson({ b: 1, a: [1, '1', true, null] })).toBe('{"a":[1,"1",true,null],"b":1}');
    const withProto = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"x":1}}');
    expect(requestFingerprint({ ...request, body: withProto })).not.toBe(
      requestFingerprint({ ...request, body: {} }),
    );
  });

  it('holds nothing of the body (it may carry a secret)', () => {
    const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';
    expect(requestFingerprint({ ...request, body: { ...request.body, secret } })).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });
});

describe('stored statuses', () => {
  it('keeps 2xx and the 4xx that are a property of the request', () => {
    for (const status of [200, 201, 202, 204, 400, 404, 405, 410, 413, 422])
      expect(isStoredStatus(status)).toBe(true);
  });

  it('never keeps 5xx, authentication and permission failures, conflicts with the state, or limits', () => {
    for (const status of [500, 502, 503, 504, 401, 403, 408, 409, 425, 429, 301, 304])
      expect(isStoredStatus(status), String(status)).toBe(false);
  });
});
