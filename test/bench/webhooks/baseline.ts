// The baseline: what plain undici `request()` achieves against the same receiver, with nothing of the
// dispatcher around it (no Kafka, no signing, no outbound-URL check, no delivery log). `concurrency`
// workers each keep one POST in flight, as the dispatcher's DISPATCHER_CONCURRENCY slots do, through an
// Agent of its own (the dispatcher's delivery client has one too), with the same body and headers of the
// same size for every request.
import { Agent, request } from 'undici';

export interface PostsOptions {
  count: number;
  concurrency: number;
  /** The URL of the i-th request. */
  url: (i: number) => string;
  /** The headers of the i-th request (the receiver counts requests by webhook-id and user-agent). */
  headers: (i: number) => Record<string, string>;
  body: string;
}

export interface PostsResult {
  seconds: number;
  /** Requests not answered 204, or that failed. */
  failed: number;
}

export async function rawPosts(options: PostsOptions): Promise<PostsResult> {
  const agent = new Agent();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < options.count) {
      const i = next++;
      try {
        const response = await request(options.url(i), {
          dispatcher: agent,
          method: 'POST',
          headers: options.headers(i),
          body: options.body,
        });
        await response.body.dump();
        if (response.statusCode !== 204) failed++;
      } catch {
        failed++;
      }
    }
  };
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.count) }, worker));
    return { seconds: (performance.now() - started) / 1000, failed };
  } finally {
    await agent.close();
  }
}
