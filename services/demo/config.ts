import { fileURLToPath } from 'node:url';
import { boolean, commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

export const demoEnv = {
  ...infrastructureEnv,
  /** The API's port (the API reads the same variable). */
  PORT: integer(8080, 1, 65_535),
  API_HOST: text('127.0.0.1'),
  /** Passed through to the API and used in the printed examples once API keys exist. */
  DEMO_API_KEY: text(''),
  /** One corpus article is released every this many seconds. */
  DEMO_RELEASE_SECONDS: integer(4, 1, 3_600),
  /** How many of the latest releases each live feed holds. */
  DEMO_FEED_WINDOW: integer(10, 1, 100),
  /**
   * The local feed server's port. Fixed by default because a source's id is derived from its feed URL:
   * the same port on every run means the same sources, not a new set each time.
   */
  DEMO_FEED_PORT: integer(8090, 0, 65_535),
  /** Poll interval of the live feeds (10 s is the shortest a source accepts). */
  DEMO_POLL_SECONDS: integer(10, 10, 86_400),
  /** Give up if no article is queryable after this long. */
  DEMO_READY_TIMEOUT_SECONDS: integer(180, 10, 3_600),
  /** Keep a stack the demo brought up running after it stops (one it found running is always kept). */
  DEMO_KEEP_STACK: boolean(false),
  DEMO_LOG_DIR: text(`${repositoryRoot}.stack/logs/demo`),
  /** Added to, not replaced: the demo always allows loopback so its local feed server can be polled. */
  OUTBOUND_ALLOW_LIST: commaList(),
};

export type DemoConfig = ReturnType<typeof loadDemoConfig>;
export const loadDemoConfig = (env?: NodeJS.ProcessEnv) => loadConfig(demoEnv, env);

/** Loopback in every spelling a local test server may be given by. */
export const loopbackAllowList = ['127.0.0.0/8', '::1', 'localhost'];
