// Where the Avro contracts live, and how a topic maps to its schema file:
// `schemas/<topic>.avsc`. Read synchronously because every caller needs them
// before it can do anything else.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const schemasDirectory = fileURLToPath(new URL('../../../schemas/', import.meta.url));

export interface SchemaFile {
  topic: string;
  file: string;
  // Parsed JSON of the .avsc file.
  schema: { type: 'record'; name: string; namespace?: string; doc?: string; fields: unknown[] };
}

export function readSchemaFiles(directory = schemasDirectory): SchemaFile[] {
  return readdirSync(directory)
    .filter((f) => f.endsWith('.avsc'))
    .sort()
    .map((f) => {
      const file = path.join(directory, f);
      let schema: SchemaFile['schema'];
      try {
        schema = JSON.parse(readFileSync(file, 'utf8')) as SchemaFile['schema'];
      } catch (e) {
        throw new Error(`schema ${file} is not valid JSON: ${(e as Error).message}`);
      }
      return { topic: f.slice(0, -'.avsc'.length), file, schema };
    });
}
