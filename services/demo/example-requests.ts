// What the demo says once articles are queryable: where the API is, and
// requests to try, one line each, ready to paste, built from what is really
// there (a real article id, the demo's own feed server for adding a source).

export interface ExampleRequest {
  what: string;
  command: string;
}

export interface ExampleContext {
  apiUrl: string;
  /** An id the API just listed. */
  articleId: string;
  feedServerUrl: string;
  /** When set, every request carries it (by variable, so the key is not printed). */
  apiKeySet: boolean;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function exampleRequests(context: ExampleContext): ExampleRequest[] {
  const { apiUrl } = context;
  const auth = context.apiKeySet ? ' -H "Authorization: Bearer $DEMO_API_KEY"' : '';
  const get = (path: string) => `curl -s${auth} ${quote(`${apiUrl}${path}`)}`;
  const newSource = JSON.stringify({
    url: `${context.feedServerUrl}/live/all.json`,
    name: 'My BBC feed',
    category: 'general',
    language: 'en',
    country: 'gb',
  });
  return [
    {
      what: 'the newest articles in English (again in a few seconds: new ones keep arriving)',
      command: get('/v1/articles?language=en&limit=5'),
    },
    {
      what: 'technology news of the last 24 hours',
      command: get('/v1/articles?category=technology&date_range=24h&limit=5'),
    },
    { what: 'one article in full', command: get(`/v1/articles/${encodeURIComponent(context.articleId)}`) },
    { what: 'the active sources', command: get('/v1/sources?active_only=true') },
    {
      what: 'a personalized feed',
      command: get('/api/v1/feeds/personalized?topics=economy,health&limit=5'),
    },
    {
      what: 'add a source (loopback feeds are allowed in the demo)',
      command: `curl -s${auth} -X POST ${quote(`${apiUrl}/v1/sources`)} -H 'Content-Type: application/json' -d ${quote(newSource)}`,
    },
  ];
}

export interface ReadyContext extends ExampleContext {
  /** How long the demo took to get here, e.g. "12 s". */
  elapsed: string;
  releaseSeconds: number;
  pollSeconds: number;
  logFiles: string[];
}

export function readyMessage(context: ReadyContext): string[] {
  const { apiUrl } = context;
  return [
    '',
    `Articles are queryable, ${context.elapsed} after start. The API is at ${apiUrl}`,
    `(documentation: ${apiUrl}/docs in a browser, ${apiUrl}/openapi.json)`,
    '',
    'Try:',
    ...exampleRequests(context).flatMap((example) => [`  # ${example.what}`, `  ${example.command}`]),
    '',
    `New articles keep arriving: a BBC corpus article is released every ${context.releaseSeconds} s and the live feeds are polled every ${context.pollSeconds} s.`,
    ...(context.apiKeySet
      ? ['Requests carry DEMO_API_KEY: export it in the shell you paste them into.']
      : []),
    `Logs: ${context.logFiles.join(', ')}`,
    'Ctrl-C stops the demo.',
  ];
}
