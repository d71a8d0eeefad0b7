// Test helpers: the bytes of a fixture, as the fetcher would hand them over.

import { readdirSync, readFileSync } from 'node:fs';
import { FeedParseError } from '../errors.ts';

/** A fixture made for these tests (bbc.json, bbc.atom). */
export function readTestdata(name: string): Uint8Array {
  return readFileSync(new URL(`./${name}`, import.meta.url));
}

/** A real publisher's feed, as captured (real/README.md says where they come from). */
export function readRealFeed(name: string): Uint8Array {
  return readFileSync(new URL(`./real/${name}`, import.meta.url));
}

/** Every real feed snapshot (real/ holds a README beside them). */
export const realFeedNames = (): string[] =>
  readdirSync(new URL('./real/', import.meta.url))
    .filter((name) => /\.(rss|atom|json)$/.test(name))
    .sort();

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
