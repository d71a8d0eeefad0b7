// Accept (RFC 9110, 12.5.1) on the endpoints that answer JSON: a request whose Accept header accepts
// none of the media types the endpoint answers in is refused with 406 not_acceptable (in JSON: an error
// may be sent in a type the client did not ask for, and ours always is). Koa's negotiator reads the
// header: `*/*`, `application/*`, parameters and q-values, the most specific range deciding
// (`application/json;q=0, */*` refuses JSON). No Accept, or an empty one, accepts anything.
//
// JSON is offered as `application/json; charset=utf-8`, what is sent, so that a range asking for that
// charset matches too. An endpoint that also answers audio (POST /v1/synthesize) accepts either. Left
// alone: the endpoints with no JSON success (the event stream answers whatever Accept says, as
// EventSource and curl expect), those that answer no body (a 204), and the public routes (health,
// metrics, /docs, /openapi.json, audio files, the token endpoint), which are not built from route
// descriptions.
import type { Context, Next } from 'koa';
import { ApiError } from '../../runtime/api-error.ts';
import { quote } from './params.ts';
import type { RouteSpec } from './route.ts';

const json = 'application/json';
const jsonOffered = 'application/json; charset=utf-8';

/** The media types a route's successful answers come in (JSON first when it answers JSON). */
export function answerTypes(route: RouteSpec): string[] {
  const types = new Set<string>();
  for (const [status, spec] of Object.entries(route.responses)) {
    if (!status.startsWith('2')) continue;
    if (spec.schema) types.add(spec.contentType ?? json);
    for (const type of spec.binary ?? []) types.add(type);
  }
  return [...types].sort((a, b) => Number(b === json) - Number(a === json));
}

/** Whether the route refuses a request that does not accept what it answers (406 not_acceptable). */
export const negotiatesAccept = (route: RouteSpec): boolean => answerTypes(route).includes(json);

/**
 * The audio types as players and libraries still write them, by the registered type this API sends:
 * `Accept: audio/mp3` asks for what is sent as audio/mpeg.
 */
const legacyAudioTypes: [RegExp, string][] = [
  [/\baudio\/(?:mp3|x-mp3|mpeg3|x-mpeg3|x-mpeg)\b/gi, 'audio/mpeg'],
  [/\baudio\/(?:x-wav|wave|vnd\.wave)\b/gi, 'audio/wav'],
  // What browsers' canPlayType and recorders write for Opus in Ogg, which is what is sent as audio/ogg
  // (`codecs=vorbis` keeps its parameter, and matches nothing: no Vorbis is made).
  [/\baudio\/ogg\s*;\s*codecs\s*=\s*"?opus"?(?=\s*(?:[;,]|$))/gi, 'audio/ogg'],
  [/\baudio\/opus\b/gi, 'audio/ogg'],
];

/** The Accept header with legacy audio types written as the registered ones. */
export function registeredAudioTypes(accept: string): string {
  return legacyAudioTypes.reduce(
    (header, [legacy, registered]) => header.replace(legacy, registered),
    accept,
  );
}

/** The middleware that refuses a request whose Accept header accepts none of the route's answer types. */
export function requireAcceptable(
  route: RouteSpec,
): ((ctx: Context, next: Next) => Promise<void>) | undefined {
  if (!negotiatesAccept(route)) return undefined;
  const types = answerTypes(route);
  const offered = types.map((type) => (type === json ? jsonOffered : type));
  const answersAudio = types.some((type) => type.startsWith('audio/'));
  return async (ctx, next) => {
    // Koa's negotiator reads the header at every call: the handler's own negotiation sees this too.
    if (answersAudio && ctx.req.headers.accept)
      ctx.req.headers.accept = registeredAudioTypes(ctx.req.headers.accept);
    // Koa's accepts() takes an absent or empty Accept for "anything".
    if (ctx.accepts(offered) === false) {
      throw new ApiError(
        'not_acceptable',
        `Accept ${quote(ctx.get('Accept'))} accepts none of the types ${ctx.method} ${route.path} answers in ` +
          `(${types.join(', ')}); send Accept: ${types.join(', ')} (or */*), or leave Accept out`,
      );
    }
    await next();
  };
}
