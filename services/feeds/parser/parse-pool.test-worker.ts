// A parse worker for parse-pool.test.ts whose parse misbehaves on purpose, chosen by the content type:
// it hangs, runs out of memory, exits, throws an unexpected error, or else parses for real. Its start can
// be made slow, or endless, by the query of its URL: `?start=<ms>` (it is ready that long after it has
// loaded) or `?start=never` (it never is).
import { setTimeout as sleep } from 'node:timers/promises';
import { parseFeed } from './parse-feed.ts';
import { serveParses } from './parse-pool.ts';

const start = new URL(import.meta.url).searchParams.get('start');
if (start === 'never') {
  setInterval(() => {}, 60_000); // alive, and never ready
  await new Promise(() => {});
}
if (start) await sleep(Number(start));

serveParses((body, contentType) => {
  switch (contentType) {
    case 'test/hang':
      for (;;) {
        // never answers: the pool must stop it
      }
    case 'test/out-of-memory': {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array<number>(100_000).fill(hoard.length));
    }
    case 'test/exit':
      return process.exit(3);
    case 'test/bug':
      throw new TypeError('a parser bug');
    default:
      return parseFeed(body, contentType);
  }
});
