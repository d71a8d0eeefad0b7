// The API version shown in the OpenAPI document: the package version.
import { readFileSync } from 'node:fs';

export const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
