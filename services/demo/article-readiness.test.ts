import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiArticleProbe,
  ArticlesNotQueryableError,
  waitForArticles,
  type ArticleProbe,
} from './article-readiness.ts';

const fakeTime = () => {
  let now = 0;
  return { clock: () => now, sleep: async (ms: number) => void (now += ms) };
};

describe('waitForArticles', () => {
  it('keeps asking, reporting why not yet, until the probe finds articles', async () => {
    const answers: Awaited<ReturnType<ArticleProbe>>[] = [
      { waiting: 'API not answering yet' },
      { waiting: 'API ready, no articles yet' },
      { ids: ['art_1', 'art_2'] },
    ];
    const progress: string[] = [];
    const sample = await waitForArticles(async () => answers.shift()!, {
      timeoutMs: 60_000,
      onProgress: (_, status) => progress.push(status),
      ...fakeTime(),
    });
    expect(sample.ids).toEqual(['art_1', 'art_2']);
    expect(progress).toEqual(['API not answering yet', 'API ready, no articles yet']);
  });

  it('gives up after the timeout, naming what it saw last', async () => {
    const wait = waitForArticles(
      async () => {
        throw new Error('connect ECONNREFUSED');
      },
      { timeoutMs: 5_000, ...fakeTime() },
    );
    await expect(wait).rejects.toBeInstanceOf(ArticlesNotQueryableError);
    await expect(wait).rejects.toThrow(/after 5 s.*ECONNREFUSED/);
  });

  it('stops waiting when the demo is being stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(
      waitForArticles(async () => ({ waiting: 'no' }), { timeoutMs: 5_000, signal: stop.signal }),
    ).rejects.toThrow(/abort/i);
  });
});

describe('apiArticleProbe', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const api = async (articles: object[], ready = 200) => {
    const seen: (string | undefined)[] = [];
    server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.url === '/readyz') return void res.writeHead(ready).end();
      if (req.url === '/v1/articles?limit=5') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ articles, paging: {} }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  };

  it('answers the ids the API lists, sending the demo key when there is one', async () => {
    const { url, seen } = await api([{ id: 'art_9' }, { id: 'art_8' }]);
    expect(await apiArticleProbe(url, 'demo-key')()).toEqual({ ids: ['art_9', 'art_8'] });
    expect(seen).toEqual(['Bearer demo-key', 'Bearer demo-key']);
  });

  it('waits while the API is not ready or lists nothing', async () => {
    expect(await apiArticleProbe((await api([], 503)).url, '')()).toHaveProperty('waiting');
    server!.close();
    expect(await apiArticleProbe((await api([])).url, '')()).toEqual({
      waiting: 'API ready, no articles yet',
    });
    server!.close();
    server = undefined;
    expect(await apiArticleProbe('http://127.0.0.1:9', '')()).toEqual({ waiting: 'API not answering yet' });
  });
});
