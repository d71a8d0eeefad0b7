// The schemas are the contract downstream teams build on: every one must
// parse, document every record, enum and field, and follow the conventions in
// schemas/README.md that keep FULL_TRANSITIVE evolution possible.
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { readSchemaFiles } from '../services/runtime/events/schema-files.ts';

type Node = {
  type?: unknown;
  name?: string;
  doc?: string;
  fields?: Field[];
  symbols?: string[];
  default?: unknown;
  items?: unknown;
};
type Field = { name: string; type: unknown; doc?: string; default?: unknown };

/** Every named type (record or enum) declared anywhere in a schema. */
function namedTypes(node: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(node)) node.forEach((n) => namedTypes(n, out));
  else if (node && typeof node === 'object') {
    const n = node as Node;
    if (n.type === 'record' || n.type === 'enum') out.push(n);
    if (n.fields) n.fields.forEach((f) => namedTypes(f.type, out));
    if (n.items) namedTypes(n.items, out);
    if (n.type && typeof n.type === 'object') namedTypes(n.type, out);
  }
  return out;
}

const files = readSchemaFiles();

describe.each(files)('$topic', ({ schema }) => {
  const named = namedTypes(schema);

  it('parses as Avro', () => {
    expect(() => avro.Type.forSchema(schema as avro.Schema)).not.toThrow();
  });

  it('documents every record, enum and field', () => {
    for (const n of named) {
      expect(n.doc?.trim(), `${n.name} doc`).toBeTruthy();
      for (const f of n.fields ?? []) expect(f.doc?.trim(), `${n.name}.${f.name} doc`).toBeTruthy();
    }
  });

  it('names fields in snake_case and ends with occurred_at', () => {
    for (const n of named.filter((x) => x.type === 'record')) {
      for (const f of n.fields ?? []) expect(f.name, `${n.name}.${f.name}`).toMatch(/^[a-z][a-z0-9_]*$/);
    }
    expect(schema.fields.at(-1)).toMatchObject({ name: 'occurred_at' });
  });

  it('gives optional fields a null default and every enum a fallback symbol', () => {
    for (const n of named) {
      if (n.type === 'enum') expect(n.symbols, `${n.name} default`).toContain(n.default);
      for (const f of n.fields ?? []) {
        if (Array.isArray(f.type) && f.type[0] === 'null')
          expect(f.default, `${n.name}.${f.name}`).toBeNull();
      }
    }
  });
});

describe('schemas together', () => {
  it('declare every named type once across all files, in the news.events namespace', () => {
    const names = files.flatMap(({ schema }) => namedTypes(schema).map((n) => n.name));
    expect(new Set(names).size).toBe(names.length);
    for (const { schema } of files) expect(schema.namespace).toBe('news.events');
  });
});
