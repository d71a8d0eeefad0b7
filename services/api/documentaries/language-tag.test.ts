// A documentary's language is shown back in BCP 47's conventional case, whatever case it was sent in.
import { describe, expect, it } from 'vitest';
import { conventionalCase } from './routes.ts';

describe('conventionalCase', () => {
  it.each([
    ['EN', 'en'],
    ['en', 'en'],
    ['pt-br', 'pt-BR'],
    ['PT_BR', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    ['SR-LATN', 'sr-Latn'],
    ['en-US-u-CA-gregory', 'en-US-u-ca-gregory'],
    ['de-CH-1996', 'de-CH-1996'],
  ])('%s is %s', (sent, shown) => expect(conventionalCase(sent)).toBe(shown));
});
