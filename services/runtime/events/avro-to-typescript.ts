// Turns our Avro schemas into TypeScript interfaces, so the producer and the
// consumers are typed by the same contract downstream teams read. Only the
// subset of Avro our schemas use is supported; anything else fails loudly.

type AvroType = string | AvroType[] | { type: string; [k: string]: unknown };

interface AvroField {
  name: string;
  type: AvroType;
  doc?: string;
}

interface AvroNamed {
  type: 'record' | 'enum';
  name: string;
  doc?: string;
  fields?: AvroField[];
  symbols?: string[];
}

const primitives: Record<string, string> = {
  null: 'null',
  boolean: 'boolean',
  int: 'number',
  long: 'number',
  float: 'number',
  double: 'number',
  string: 'string',
  bytes: 'Buffer',
};

const docComment = (doc: string | undefined, indent: string) =>
  doc ? `${indent}/** ${doc.replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim()} */\n` : '';

export function generateTypes(schemas: readonly { topic: string; schema: AvroNamed }[]): string {
  const declarations = new Map<string, string>();

  const typeOf = (avro: AvroType): string => {
    if (typeof avro === 'string') {
      const primitive = primitives[avro];
      if (primitive) return primitive;
      if (declarations.has(avro)) return avro;
      throw new Error(`unknown Avro type reference "${avro}"`);
    }
    if (Array.isArray(avro)) return avro.map(typeOf).join(' | ');
    switch (avro.type) {
      case 'record':
      case 'enum':
        return declare(avro as unknown as AvroNamed);
      case 'array':
        return `${wrap(typeOf(avro.items as AvroType))}[]`;
      case 'map':
        return `Record<string, ${typeOf(avro.values as AvroType)}>`;
      default:
        if (primitives[avro.type]) return primitives[avro.type]!;
        throw new Error(`unsupported Avro type ${JSON.stringify(avro)}`);
    }
  };

  const wrap = (t: string) => (t.includes('|') ? `(${t})` : t);

  const declare = (named: AvroNamed): string => {
    if (declarations.has(named.name)) return named.name;
    declarations.set(named.name, ''); // reserve: records may refer to themselves
    let body: string;
    if (named.type === 'enum') {
      body = `${docComment(named.doc, '')}export type ${named.name} = ${(named.symbols ?? [])
        .map((s) => `'${s}'`)
        .join(' | ')};\n`;
    } else {
      const fields = (named.fields ?? [])
        .map((f) => `${docComment(f.doc, '  ')}  ${f.name}: ${typeOf(f.type)};\n`)
        .join('');
      body = `${docComment(named.doc, '')}export interface ${named.name} {\n${fields}}\n`;
    }
    declarations.set(named.name, body);
    return named.name;
  };

  const topicLines = schemas.map(({ topic, schema }) => `  '${topic}': ${declare(schema)};\n`).join('');
  return [
    '// Generated from schemas/*.avsc by `npm run generate:events`. Do not edit.\n',
    '// Timestamps (logicalType timestamp-millis) are epoch milliseconds.\n\n',
    [...declarations.values()].join('\n'),
    '\n/** The value type carried by each topic that has a schema of its own. */\n',
    `export interface EventsByTopic {\n${topicLines}}\n`,
  ].join('');
}
