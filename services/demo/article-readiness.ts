// "Articles are queryable": the point the demo waits for before it tells the
// user where to point curl. A probe asks the API (or, while the API is not
// built, the read model) and answers what it found or why not yet.

export interface ArticleSample {
  /** Ids of the newest articles, newest first (at least one). */
  ids: string[];
}

/** Resolves with a sample once there are articles; otherwise with the reason there are none yet. */
export type ArticleProbe = () => Promise<ArticleSample | { waiting: string }>;

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Told every attempt how long it has been and what the probe said. */
  onProgress?: (elapsedMs: number, status: string) => void;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Stops waiting early (the demo is being stopped). */
  signal?: AbortSignal;
}

export class ArticlesNotQueryableError extends Error {
  constructor(
    readonly waitedMs: number,
    readonly lastStatus: string,
  ) {
    super(`no article was queryable after ${Math.round(waitedMs / 1000)} s (last: ${lastStatus})`);
    this.name = 'ArticlesNotQueryableError';
  }
}

export async function waitForArticles(probe: ArticleProbe, options: WaitOptions): Promise<ArticleSample> {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = clock();
  let status = 'not asked yet';
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const answer = await probe();
      if ('ids' in answer && answer.ids.length > 0) return answer;
      status = 'waiting' in answer ? answer.waiting : 'no articles yet';
    } catch (error) {
      status = (error as Error).message;
    }
    const elapsed = clock() - started;
    options.onProgress?.(elapsed, status);
    if (elapsed >= options.timeoutMs) throw new ArticlesNotQueryableError(elapsed, status);
    await sleep(options.intervalMs ?? 1_000);
  }
}

/** Asks the API: ready at all (/readyz), then GET /v1/articles. */
export function apiArticleProbe(apiUrl: string, apiKey: string): ArticleProbe {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  return async () => {
    let ready: Response;
    try {
      ready = await fetch(`${apiUrl}/readyz`, { headers, signal: AbortSignal.timeout(5_000) });
    } catch {
      return { waiting: 'API not answering yet' };
    }
    if (!ready.ok) return { waiting: `API not ready yet (/readyz: ${ready.status})` };
    const response = await fetch(`${apiUrl}/v1/articles?limit=5`, {
      headers,
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return { waiting: `GET /v1/articles answered ${response.status}` };
    const body = (await response.json()) as { articles?: { id?: unknown }[] };
    const ids = (body.articles ?? []).map((a) => a.id).filter((id): id is string => typeof id === 'string');
    return ids.length > 0 ? { ids } : { waiting: 'API ready, no articles yet' };
  };
}

/**
 * The signed audio_url of a narrated article among the newest, or null while none is narrated yet
 * (narration follows enrichment by a few seconds).
 */
export function apiNarrationProbe(apiUrl: string, apiKey: string): () => Promise<string | null> {
  return async () => {
    const response = await fetch(`${apiUrl}/v1/articles?limit=50`, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { articles?: { audio_url?: unknown }[] };
    // A narrated article's audio_url is its file's; the others' lead to a narration made on request.
    const found = (body.articles ?? []).find(
      (a) => typeof a.audio_url === 'string' && a.audio_url.includes('/v1/audio/'),
    );
    return (found?.audio_url as string | undefined) ?? null;
  };
}

/** Asks `probe` until it finds something or the time runs out (then null: the demo goes on without). */
export async function waitForNarration(
  probe: () => Promise<string | null>,
  options: Pick<WaitOptions, 'timeoutMs' | 'intervalMs' | 'signal' | 'clock' | 'sleep'>,
): Promise<string | null> {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = clock();
  for (;;) {
    options.signal?.throwIfAborted();
    const found = await probe().catch(() => null);
    if (found) return found;
    if (clock() - started >= options.timeoutMs) return null;
    await sleep(options.intervalMs ?? 1_000);
  }
}

/** One line rewritten in place on a terminal; elsewhere (a log, a test) a line every few seconds. */
export function progressLine(say: (line: string) => void) {
  let lastPrinted = 0;
  let shown = false;
  return {
    update(text: string) {
      if (process.stdout.isTTY) {
        process.stdout.write(`\r\x1b[2K${text}`);
        shown = true;
      } else if (Date.now() - lastPrinted >= 5_000) {
        lastPrinted = Date.now();
        say(text);
      }
    },
    done() {
      if (shown) process.stdout.write('\n');
      shown = false;
    },
  };
}
