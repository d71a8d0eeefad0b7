// GET and HEAD /v1/audio/{key} and /v1/articles/{id}/audio in the OpenAPI document. The routes are
// served without credentials and are not route specs (they answer bytes, ranges, cache validators and
// redirects rather than JSON), so they are described here by hand, like the token endpoint.
import { contentTypes, storedFormats } from '../../audio/audio-store.ts';

const errorBody = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  ...(Object.keys(headers).length > 0 ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

// Audio, and a documentary's transcripts (WebVTT, JSON), which the store keeps and serves the same way.
const audioBody = Object.fromEntries(
  storedFormats
    .map((format) => contentTypes[format])
    .map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
);

const fileHeaders = {
  'Content-Length': { schema: { type: 'integer' } },
  'Accept-Ranges': { schema: { type: 'string', enum: ['bytes'] } },
  'Cache-Control': {
    description:
      '`public, max-age=<seconds until the URL expires>, immutable`: the content under a key never ' +
      'changes, and a cache keeps it no longer than the URL is valid.',
    schema: { type: 'string' },
  },
  ETag: { description: 'The key, quoted.', schema: { type: 'string' } },
};

const parameters = [
  {
    name: 'key',
    in: 'path',
    required: true,
    description:
      'The file: 40 hexadecimal characters and the format (mp3, wav, ogg; vtt or json for transcripts).',
    schema: { type: 'string', pattern: `^[0-9a-f]{40}\\.(${storedFormats.join('|')})$` },
  },
  {
    name: 'expires',
    in: 'query',
    required: true,
    description: 'Unix time (seconds) the URL stops working.',
    schema: { type: 'integer' },
  },
  {
    name: 'signature',
    in: 'query',
    required: true,
    description: '`<kid>.<base64url HMAC-SHA256>` over the key and the expiry.',
    schema: { type: 'string' },
  },
  {
    name: 'Range',
    in: 'header',
    required: false,
    description: 'One byte range: `bytes=START-END`, `bytes=START-` or `bytes=-LENGTH`.',
    schema: { type: 'string', example: 'bytes=0-' },
  },
  {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag from an earlier answer: 304 when it matches.',
    schema: { type: 'string' },
  },
  {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'ETags (or `*`): 412 when none is this file’s (compared strongly).',
    schema: { type: 'string' },
  },
];

const responses = (withBody: boolean) => ({
  '200': {
    description: 'The whole file',
    headers: fileHeaders,
    ...(withBody ? { content: audioBody } : {}),
  },
  '206': {
    description: 'The range asked for',
    headers: {
      ...fileHeaders,
      'Content-Range': { description: '`bytes START-END/SIZE`', schema: { type: 'string' } },
    },
    ...(withBody ? { content: audioBody } : {}),
  },
  '304': { description: 'Not modified (If-None-Match matched)' },
  '403': errorBody('Error: forbidden (no signature, or an altered one) or url_expired'),
  '404': errorBody('Error: not_found'),
  '412': errorBody('Error: precondition_failed (If-Match names another ETag)'),
  '416': errorBody('Error: range_not_satisfiable', {
    'Content-Range': { description: '`bytes */SIZE`', schema: { type: 'string' } },
  }),
});

const common = {
  tags: ['Audio'],
  description:
    'The `audio_url` of an answer (a narration, a synthesis, an alert) points here, directly or through ' +
    'GET /v1/articles/{id}/audio. It is signed and ' +
    'expires, and needs no API key, so an `<audio>` element or a podcast player can fetch it as it is; ' +
    'an expired one answers 403 `url_expired`: fetch the resource again for a fresh URL. Single byte ' +
    'ranges are served (206); the answer may be cached until the URL expires (`Cache-Control: public, ' +
    'max-age=<seconds left>, immutable`).',
  security: [{}],
  parameters,
};

export const audioFileOperations = {
  get: {
    operationId: 'getAudioFile',
    summary: 'An audio file, by signed URL',
    ...common,
    responses: responses(true),
  },
  head: {
    operationId: 'headAudioFile',
    summary: 'The headers of an audio file, by signed URL',
    ...common,
    responses: responses(false),
  },
};

// GET and HEAD /v1/articles/{id}/audio: an article's narration by signed URL, answered with a redirect
// to the file (article-audio-route.ts).
const articleParameters = [
  {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The article (its `id`, as in GET /v1/articles/{id}).',
    schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$' },
  },
  {
    name: 'expires',
    in: 'query',
    required: true,
    description: 'Unix time (seconds) the URL stops working.',
    schema: { type: 'integer' },
  },
  {
    name: 'signature',
    in: 'query',
    required: true,
    description:
      '`<kid>.<base64url HMAC-SHA256>` over the article id and the expiry (under a label of its own: the ' +
      "signature of a file's URL does not open an article's, nor the other way round).",
    schema: { type: 'string' },
  },
];

const articleResponses = {
  '302': {
    description:
      'The article is narrated (by the narrator, or now, on request): `Location` is the signed URL of its ' +
      "narration's file (GET /v1/audio/{key}), which a player follows by itself.",
    headers: {
      Location: { description: 'The signed URL of the file.', schema: { type: 'string' } },
      'Cache-Control': {
        description: '`no-store`: the article may be narrated again, and the file URL expires.',
        schema: { type: 'string' },
      },
    },
  },
  '403': errorBody('Error: forbidden (no signature, or an altered one) or url_expired'),
  '404': errorBody(
    'Error: narration_not_ready (the article was discovered moments ago and the narrator is about to ' +
      'narrate it; ask again after `Retry-After` seconds), or not_found (no such article, or it has nothing ' +
      'to narrate or no voice speaks its language: no audio will come; the message says which)',
    {
      'Retry-After': {
        description: 'With narration_not_ready: seconds to wait before asking again.',
        schema: { type: 'integer' },
      },
    },
  ),
  '503': errorBody(
    'Error: service_unavailable (this server is making as many narrations on request as it may) or ' +
      'provider_unavailable (the speech provider cannot be reached); ask again after `Retry-After` seconds',
    {
      'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } },
    },
  ),
};

const articleCommon = {
  tags: ['Audio'],
  description:
    'The `audio_url` of an article without a narration file yet points here: in article lists and details ' +
    '(an article the narrator skipped because it was published before `NARRATOR_MAX_AGE_HOURS`, failed on, ' +
    'or has not reached) and in webhook payloads built before the article was narrated (`news.alert`, ' +
    '`article.published`). Signed and expiring like a file URL, and needing no API key, it is resolved ' +
    "when fetched: a redirect to the signed URL of the article's current narration. An article without one " +
    'is narrated on request (the headline and summary, as the narrator reads them; a second or so, then ' +
    'stored, so later requests redirect at once), except in the first two minutes after it was discovered, ' +
    'when the narrator is waited for: 404 `narration_not_ready` with `Retry-After`.',
  security: [{}],
  parameters: articleParameters,
  responses: articleResponses,
};

export const articleAudioOperations = {
  get: {
    operationId: 'getArticleAudio',
    summary: "An article's narration, by signed URL",
    ...articleCommon,
  },
  head: {
    operationId: 'headArticleAudio',
    summary: "The redirect to an article's narration, by signed URL",
    ...articleCommon,
  },
};
