import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes } from './avro-to-typescript.ts';
import { generatedTypesFile, renderEventTypes } from './generate.ts';

describe('event types', () => {
  it('are up to date with schemas/*.avsc (run `npm run generate:events` after changing a schema)', () => {
    expect(readFileSync(generatedTypesFile, 'utf8')).toBe(renderEventTypes());
  });

  it('map optional unions, arrays, enums and nested records', () => {
    const out = generateTypes([
      {
        topic: 't.v1',
        schema: {
          type: 'record',
          name: 'Thing',
          fields: [
            { name: 'id', type: 'string', doc: 'The id.' },
            { name: 'note', type: ['null', 'string'] },
            { name: 'tags', type: { type: 'array', items: 'string' } },
            { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['a', 'b'] } },
            { name: 'again', type: 'Kind' },
            { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
          ],
        },
      },
    ]);
    expect(out).toContain("export type Kind = 'a' | 'b';");
    expect(out).toContain('  /** The id. */\n  id: string;');
    expect(out).toContain('  note: null | string;');
    expect(out).toContain('  tags: string[];');
    expect(out).toContain('  again: Kind;');
    expect(out).toContain('  at: number;');
    expect(out).toContain("  't.v1': Thing;");
  });

  it('refuses a type it does not understand', () => {
    expect(() =>
      generateTypes([
        { topic: 'x', schema: { type: 'record', name: 'X', fields: [{ name: 'f', type: 'Nope' }] } },
      ]),
    ).toThrow(/unknown Avro type reference "Nope"/);
  });
});
