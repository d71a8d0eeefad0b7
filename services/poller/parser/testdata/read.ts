// Test helpers: the bytes of a fixture, as the fetcher would hand them over.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function readTestdata(name: string): Uint8Array {
  return readFileSync(new URL(`./${name}`, import.meta.url));
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Real feeds over 1 MB are not copied into the repo; they are read from ../shared beside it. */
export function readSharedFeed(name: string): Uint8Array {
  return readFileSync(resolve(REPO_ROOT, '../shared/feeds/real', name));
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
