// `npm run generate:events`: rewrites types.generated.ts from schemas/*.avsc.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateTypes } from './avro-to-typescript.ts';
import { readSchemaFiles } from './schema-files.ts';

export const generatedTypesFile = fileURLToPath(new URL('./types.generated.ts', import.meta.url));

export function renderEventTypes(): string {
  return generateTypes(readSchemaFiles().map(({ topic, schema }) => ({ topic, schema: schema as never })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(generatedTypesFile, renderEventTypes());
  console.log(`wrote ${generatedTypesFile}`);
}
