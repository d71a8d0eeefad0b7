// format "url" answers JSON whatever audio type Accept names, and 406 only to an Accept that refuses
// JSON itself (routes.ts, refusesJson).
import { describe, expect, it } from 'vitest';
import { refusesJson } from './routes.ts';

describe('refusesJson', () => {
  it.each([
    'audio/mpeg, application/json;q=0',
    'application/json; q=0, audio/*',
    'audio/wav, application/*;q=0',
    '*/*;q=0, audio/mpeg',
    'AUDIO/MPEG, Application/JSON;Q=0',
    'application/json;q=0.000',
  ])('refuses JSON: %s', (accept) => expect(refusesJson(accept)).toBe(true));

  it.each([
    '',
    'audio/mpeg',
    'audio/wav;q=0.5',
    '*/*',
    'application/*;q=0, application/json',
    '*/*;q=0, application/json;q=0.1',
    'application/json;q=0.5, audio/mpeg',
  ])('does not refuse JSON: %s', (accept) => expect(refusesJson(accept)).toBe(false));
});
