// GET /v1/stream (Server-Sent Events) and POST /v1/stream/tokens (a short-lived credential browsers put in
// the stream's URL, since EventSource cannot send an Authorization header).
import { insufficientScope } from '../auth/scopes.ts';
import { z } from 'zod';
import { ApiError, invalidParameter } from '../../runtime/api-error.ts';
import { headerRepeated } from '../http/repeated-header.ts';
import type { AccessTokens } from '../auth/access-tokens.ts';
import { categoryParam, languageParam, listParam, searchParam, sourceParam } from '../http/params.ts';
import type { Principal } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { eventMatcher, streamEventKinds, type StreamEventKind } from './stream-events.ts';
import { LiveConnectionLimitError, type StreamHub } from './stream-hub.ts';
import { decodePosition, InvalidPositionError, reaches, type Position } from './stream-position.ts';

export interface StreamDependencies {
  hub: Pick<StreamHub, 'open'>;
  /** Partitions per stream topic, to read a Last-Event-ID against. */
  partitions: () => readonly number[];
  /** Where the stream stands now: what an event id from before a topic joined the stream resumes at. */
  position: () => Position;
  /** The ends of the stream's topics in Kafka now (the tail's position may trail them a little). */
  logEnd: () => Promise<Position>;
  streamTokens: AccessTokens;
  /** Whether the stream announced this article lately (StreamTail.announced). */
  announced: (articleId: string) => boolean;
}

const eventsParam = listParam({
  check: (kind) => (streamEventKinds as readonly string[]).includes(kind),
  expected: `an event kind (${streamEventKinds.join(', ')})`,
  description: `Event kinds wanted, comma-separated: ${streamEventKinds.join(', ')}. Default: all of them.`,
  example: 'article.published,article.updated',
});

const streamQuery = z.object({
  category: categoryParam.optional(),
  source: sourceParam.optional(),
  language: languageParam.optional(),
  q: searchParam.optional(),
  events: eventsParam.optional(),
  last_event_id: z.string().max(2_000).optional().meta({
    description:
      'Resume after this event id, for clients that cannot send the `Last-Event-ID` header (which wins when both are given).',
  }),
  access_token: z.string().max(4_000).optional().meta({
    description:
      'A stream token from POST /v1/stream/tokens, for browsers (EventSource cannot send Authorization). Not an API key and not an OAuth access token: those go in the header.',
  }),
});

const streamDescription = [
  'Server-Sent Events, in the order they are appended to Kafka, each within a second of its append.',
  'Each event has an `event` line (its kind), an `id` line and one `data` line of JSON:',
  '`article.published` and `article.updated` carry the list item of GET /v1/articles (with `changed_fields`',
  'for an update), `article.enriched` the list item with `ai_summary` and the `enrichment`',
  'object of GET /v1/articles/{id}, `news.alert` the `data` of the webhook payload (your own monitors only,',
  'to a credential with the scope write:monitors: without it they are left out, and asked for by name a 403;',
  'the article filters do not apply to it), `news.breaking` the `data` of the news.breaking webhook payload',
  '(a story many sources report at once; it passes the filters when one of its articles does). Breaking',
  'news is decided by the clusterer, so it is on the stream when the clusterer runs.',
  '',
  'Reconnect with `Last-Event-ID` (EventSource does it by itself) to continue exactly after the last event',
  'received, on any API instance, for as long as the topics hold the events (articles, enrichments,',
  'alerts and stories are kept forever). A comment line and the current `id` are sent every STREAM_HEARTBEAT_SECONDS',
  '(15 s). A client that leaves more than STREAM_BUFFER_BYTES (1 MiB) unread is sent a final',
  '`stream.closed` event (`reason`: `slow_consumer`, with the `last_event_id` to resume from: the last',
  'event it was sent, what it had not been sent is dropped) and disconnected; a replay from',
  '`Last-Event-ID` goes at the pace the client reads, and one that reads nothing for 30 s (once the',
  "operating system's socket buffers are full) is cut off the same way. Every client of an instance that",
  'shuts down is sent `stream.closed` too (`shutting_down`), and every stream of a client whose',
  'credentials are revoked (`revoked`).',
  '',
  "Each open stream holds one of the plan's live connections (Essentials 5, Professional 25, Enterprise",
  'unlimited) across all API instances; one more is 429 `live_connection_limit`. A connection counts once',
  'on the hourly call allowance.',
].join('\n');

/** The scope of the monitors, whose alerts news.alert events are. */
const alertScope = 'write:monitors';

/** What a stream refused for the plan's live connections is told to wait before asking again. */
const liveSlotRetrySeconds = 5;

export function streamRoutes(deps: StreamDependencies): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/stream',
      operationId: 'streamEvents',
      tag: 'Stream',
      scope: 'read:feeds',
      summary: 'Live articles, updates, enrichments, alerts and breaking news (Server-Sent Events)',
      description: streamDescription,
      query: streamQuery,
      responses: {
        200: {
          description: 'An endless text/event-stream',
          contentType: 'text/event-stream',
          schema: z.string().meta({
            example:
              'id: 1f.2a~9.b~3~0\nevent: article.published\ndata: {"id":"…","title":"…","category":"business",…}\n\n',
          }),
        },
      },
      errors: ['invalid_parameter', 'live_connection_limit', 'insufficient_scope'],
      requestHeaders: [
        {
          name: 'Last-Event-ID',
          description:
            'Resume after this event id (the `id` of the last event received; EventSource sends it by itself ' +
            'when it reconnects). Wins over the `last_event_id` query parameter.',
          example: '1f.2a~9.b~3~0',
        },
      ],
      handler: async (ctx, { query }) => {
        const principal = ctx.state.principal as Principal;
        // Node joins a repeated header into one value ("a, b"), which would read as no event id at all.
        if (headerRepeated(ctx.req, 'last-event-id'))
          throw invalidParameter(
            'Last-Event-ID',
            'given more than once; send the id of the last event received',
          );
        const header = ctx.get('last-event-id');
        const lastEventId = header || query.last_event_id;
        // The error names where the id came from.
        const named = header ? 'Last-Event-ID' : 'last_event_id';
        let resumeFrom = null;
        if (lastEventId) {
          try {
            resumeFrom = decodePosition(lastEventId, deps.partitions(), deps.position());
          } catch (error) {
            if (error instanceof InvalidPositionError) throw invalidParameter(named, error.message);
            throw error;
          }
          // Past where this instance's tail stands is fine (another instance may read a little ahead);
          // past the end of the log is no id this deployment sent: the stream would wait, silent,
          // until the log grew that far, and skip everything before.
          if (!reaches(deps.position(), resumeFrom) && !reaches(await deps.logEnd(), resumeFrom)) {
            throw invalidParameter(
              named,
              'is ahead of the end of the stream, so it is not an event id this deployment sent; reconnect without it to start at the live end',
            );
          }
        }
        // Alerts are the tenant's CRM data (contacts, companies), which the monitors' scope guards: a
        // credential made to read the news alone (read:feeds) had been sent them. Asked for by name
        // without it, a 403 saying so; in the default "every kind", left out.
        const wanted = (query.events as StreamEventKind[] | undefined) ?? streamEventKinds;
        const mayReadAlerts = principal.scopes.has(alertScope);
        if (query.events?.includes('news.alert') && !mayReadAlerts)
          throw insufficientScope(alertScope, `news.alert events need the scope ${alertScope}`);
        const matches = eventMatcher({
          kinds: new Set<StreamEventKind>(wanted.filter((k) => k !== 'news.alert' || mayReadAlerts)),
          categories: query.category ?? [],
          sources: query.source ?? [],
          languages: query.language ?? [],
          search: query.q ?? null,
          tenantId: principal.tenantId,
        });
        // HEAD gets the stream's headers and no stream: Node sends a HEAD answer's headers only when it
        // ends, so an opened stream never showed them (found by npm run fuzz) and held a live slot.
        if (ctx.method === 'HEAD') {
          ctx.status = 200;
          ctx.set('Cache-Control', 'no-cache, no-transform');
          ctx.type = 'text/event-stream; charset=utf-8';
          return;
        }
        const limit = principal.limits.liveConnections;
        ctx.status = 200; // for the access log: the hub writes the head itself
        try {
          await deps.hub.open({ res: ctx.res, holder: principal.clientId, limit, matches, resumeFrom });
        } catch (error) {
          if (!(error instanceof LiveConnectionLimitError)) throw error;
          throw new ApiError(
            'live_connection_limit',
            `the plan allows ${limit} live connections and all are open; close one (its slot is free at once) or upgrade the plan`,
            // A page reloaded while its old streams are still closing is the usual case: their slots are
            // free within a few seconds.
            { 'Retry-After': String(liveSlotRetrySeconds) },
          );
        }
        ctx.respond = false; // the hub writes the stream
        // A stream is quiet between events and heartbeats by design: the idle-socket timeout
        // (API_IDLE_TIMEOUT_MS) is for connections that are not streams.
        ctx.req.socket.setTimeout(0);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/stream/tokens',
      operationId: 'createStreamToken',
      tag: 'Stream',
      scope: 'read:feeds',
      summary: 'A short-lived token for opening the stream from a browser',
      description:
        'For `new EventSource("/v1/stream?access_token=…")`: browsers cannot send an Authorization header ' +
        'with EventSource. The token is good only as the `access_token` of GET /v1/stream, carries the ' +
        "caller's client and scopes, and is accepted for STREAM_TOKEN_TTL_SECONDS (5 minutes) after it is " +
        'issued; an open stream outlives it. Ask for a new one before reconnecting after that.',
      responses: {
        201: {
          description: 'The token',
          schema: z
            .object({
              token: z.string(),
              expires_in: z.number().int().meta({ description: 'Seconds the token is accepted for.' }),
              expires_at: z.string().meta({ description: 'ISO 8601 UTC' }),
            })
            .meta({ id: 'StreamToken' }),
        },
      },
      handler: async (ctx) => {
        const principal = ctx.state.principal as Principal;
        const issued = await deps.streamTokens.issue({
          clientId: principal.clientId,
          tenantId: principal.tenantId,
          scopes: [...principal.scopes],
        });
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          token: issued.token,
          expires_in: issued.expiresIn,
          expires_at: new Date(Date.now() + issued.expiresIn * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        };
      },
    }),
  ];
}
