// The ids, cursors, tokens and signed URLs the API handed out, kept by kind so later requests can use
// them (an article's id for GET /v1/articles/{id}, a webhook's for its deliveries…). Which kind a
// value is follows from where it sits in an answer: an object's `id` under `articles` is an article's,
// `story_id` a story's, `next_cursor` a cursor, `audio_url` a signed audio URL.
import type { Rng } from './prng.ts';
import type { Operation } from './openapi-walker.ts';
import { singular, type ValuePools } from './values.ts';

const perPool = 40;

export class Pools implements ValuePools {
  private readonly pools = new Map<string, string[]>();

  constructor(
    private readonly feedBase: string,
    readonly credentials: { clientId: string; clientSecret: string },
  ) {}

  get(pool: string): readonly string[] {
    return this.pools.get(pool) ?? [];
  }

  add(pool: string, value: string): void {
    const values = this.pools.get(pool) ?? [];
    if (values.length < perPool && !values.includes(value)) values.push(value);
    this.pools.set(pool, values);
  }

  feedUrl(rng: Rng): string {
    const category = rng.pick(['business', 'politics', 'tech', 'sport', 'entertainment']);
    return `${this.feedBase}/corpus/${category}.${rng.pick(['rss', 'atom', 'json'])}?count=${rng.int(1, 5)}`;
  }

  hookUrl(rng: Rng): string {
    return `${this.feedBase}/hooks/${rng.int(1, 3)}`;
  }

  /** Takes what a successful answer handed out. */
  harvest(operation: Operation, requestPath: string, contentType: string, body: Buffer): void {
    const text = body.toString('utf8');
    if (contentType.startsWith('text/event-stream')) {
      for (const match of text.matchAll(/^id: ?(.+)$/gm)) this.add('event', match[1]!.trim());
      return;
    }
    if (!contentType.startsWith('application/json')) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const resource = singular(
      operation.path
        .split('/')
        .filter((s) => s && !s.startsWith('{'))
        .pop() ?? '',
    );
    this.walk(value, resource, 0);
    // A delivery is resent through its webhook: remember whose it is.
    const deliveries = /^\/api\/v1\/webhooks\/([^/]+)\/deliveries$/.exec(requestPath.split('?')[0]!);
    if (deliveries && value && typeof value === 'object') {
      for (const delivery of (value as { deliveries?: { id?: string }[] }).deliveries ?? [])
        if (delivery.id) this.add(`webhook-of:${delivery.id}`, decodeURIComponent(deliveries[1]!));
    }
  }

  private walk(value: unknown, kind: string, depth: number): void {
    if (depth > 6 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 50)) this.walk(item, kind, depth + 1);
      return;
    }
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      if (typeof field === 'string') {
        if (key === 'id' && kind) this.add(kind, field);
        else if (key === 'next_cursor') this.add('cursor', field);
        else if (/_url$/.test(key) && /\/v1\/audio\//.test(field)) this.add('audio', field);
        else if (key === 'access_token') this.add('access-token', field);
        else if (key === 'token') this.add('stream-token', field);
        else if (/_id$/.test(key) && key !== 'event_id' && key !== 'request_id')
          this.add(key.slice(0, -3), field);
      } else if (field && typeof field === 'object') {
        // `articles: [{id}]` holds articles, `webhook: {id}` a webhook, whatever the operation.
        const nested = ['paging', 'links', 'signing', 'enrichment', 'filter'].includes(key)
          ? ''
          : singular(key);
        this.walk(field, nested, depth + 1);
      }
    }
  }
}
