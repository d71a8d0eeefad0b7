// Test helpers: the bytes of a fixture, as the fetcher would hand them over.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FeedParseError } from '../errors.ts';

export function readTestdata(name: string): Uint8Array {
  return readFileSync(new URL(`./${name}`, import.meta.url));
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Real feeds over 1 MB are not copied into the repo; they are read from ../shared beside it. */
export function readSharedFeed(name: string): Uint8Array {
  return readFileSync(resolve(REPO_ROOT, '../shared/feeds/real', name));
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The reason of the FeedParseError that `action` throws; fails if it throws nothing or something else. */
export function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof FeedParseError) return error.reason;
    throw error;
  }
  throw new Error('expected a FeedParseError');
}
