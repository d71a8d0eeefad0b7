import { fileURLToPath } from 'node:url';
import { boolean, commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

export const demoEnv = {
  ...infrastructureEnv,
  PORT: integer(8080, 1, 65_535).describe("The API's port (the API reads the same variable)."),
  API_HOST: text('127.0.0.1').describe("The API's address (the API reads the same variable)."),
  DEMO_API_KEY: text('').describe(
    'The key of the `Demo` client (Professional plan, every scope), created at start if no client holds ' +
      'it yet. Empty: a key is made for this run and printed. At least 16 characters; choose a random one ' +
      '(`openssl rand -base64 32`): like every key it is kept as its SHA-256 in news.clients.v1, which ' +
      'every reader of that topic can try guesses against.',
  ),
  DEMO_RELEASE_SECONDS: integer(4, 1, 3_600).describe(
    'One corpus article is released every this many seconds.',
  ),
  DEMO_FEED_WINDOW: integer(10, 1, 100).describe('How many of the latest releases each live feed holds.'),
  DEMO_FEED_PORT: integer(8090, 0, 65_535).describe(
    "The local feed server's port. Fixed by default because a source's id is derived from its feed URL: " +
      'the same port on every run means the same sources, not a new set each time.',
  ),
  DEMO_POLL_SECONDS: integer(10, 10, 86_400).describe(
    'Poll interval of the live feeds and of sources added through the API (10 s is the shortest a source accepts).',
  ),
  DEMO_READY_TIMEOUT_SECONDS: integer(180, 10, 3_600).describe(
    'Give up if no article is queryable after this long.',
  ),
  DEMO_KEEP_STACK: boolean(false).describe(
    'Keep a stack the demo brought up running after it stops (one it found running is always kept).',
  ),
  DEMO_LOG_DIR: text(`${repositoryRoot}.stack/logs/demo`).describe("Where the services' logs go."),
  OUTBOUND_ALLOW_LIST: commaList().describe(
    'Added to, not replaced: the demo always allows loopback so its local feed server can be polled.',
  ),
};

export type DemoConfig = ReturnType<typeof loadDemoConfig>;
export const loadDemoConfig = (env?: NodeJS.ProcessEnv) => loadConfig(demoEnv, env);

/** Loopback in every spelling a local test server may be given by. */
export const loopbackAllowList = ['127.0.0.0/8', '::1', 'localhost'];
