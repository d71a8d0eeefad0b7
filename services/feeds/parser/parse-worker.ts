// A parse worker's entry (started by parse-pool.ts through runtime/worker-loader.mjs): parseFeed, on
// whatever bodies the pool sends.
import { parseFeed } from './parse-feed.ts';
import { serveParses } from './parse-pool.ts';

serveParses(parseFeed);
