// How the local feed servers (the demo's and the tests') answer: the real feed
// snapshots of the feeds domain's test data with the content types their
// publishers sent, and every body with an ETag, so pollers exercise conditional
// GETs (304).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The feed parser's real snapshots (their README says where they come from): one copy for every reader. */
export const realFeedsDirectory = fileURLToPath(new URL('../feeds/parser/testdata/real/', import.meta.url));

export interface RealFeed {
  name: string;
  body: Buffer;
  contentType: string;
}

// No charset by default: the document's own declaration decides, as it does
// with most real servers. uolNoticias.rss has no XML prolog; its publisher
// declared ISO-8859-1 in the header, so we do too.
const contentTypes: Record<string, string> = {
  '.rss': 'application/rss+xml',
  '.atom': 'application/atom+xml',
  '.json': 'application/feed+json',
};
const contentTypeOverrides: Record<string, string> = {
  'uolNoticias.rss': 'text/xml; charset=ISO-8859-1',
};

/** Every snapshot, by file name, read once (about 2.5 MB). Only feed files: the README is not a feed. */
export function readRealFeeds(directory = realFeedsDirectory): Map<string, RealFeed> {
  const feeds = new Map<string, RealFeed>();
  for (const name of readdirSync(directory).sort()) {
    const contentType = contentTypes[path.extname(name)];
    if (contentType === undefined) continue;
    feeds.set(name, {
      name,
      body: readFileSync(path.join(directory, name)),
      contentType: contentTypeOverrides[name] ?? contentType,
    });
  }
  return feeds;
}

/** Answers 200 with the body, or 304 when the client already holds this version. */
export function sendFeed(
  req: IncomingMessage,
  res: ServerResponse,
  body: string | Buffer,
  contentType: string,
): void {
  const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': contentType, etag, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
