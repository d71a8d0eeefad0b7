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
  /** Every request carries the key, by variable ($DEMO_API_KEY) so the commands can be shared. */
  credentials: { apiKey: string; generated: boolean; clientId: string; clientSecret: string };
  /** The signed audio_url of a narrated article, when one was narrated in time. */
  narrationUrl?: string | null;
}

/** A text to analyze in the printed examples (plain ASCII, so it pastes into any shell). */
const analyzeExample =
  'The city council approved a plan on Monday to build 2,000 affordable homes by 2030. ' +
  'Mayor Ana Ruiz said the project would not raise taxes. Critics warned that the budget of $450m is too small, ' +
  'and the construction industry is short of workers.';

/** A sentence to speak in the printed example. */
const speechExample = 'Good morning. Here is the news, read by the offline voice of this service.';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function exampleRequests(context: ExampleContext): ExampleRequest[] {
  const { apiUrl } = context;
  const auth = ' -H "Authorization: Bearer $DEMO_API_KEY"';
  const get = (path: string) => `curl -s${auth} ${quote(`${apiUrl}${path}`)}`;
  const post = (path: string, body: unknown) =>
    `curl -s${auth} -X POST ${quote(`${apiUrl}${path}`)} -H 'Content-Type: application/json' -d ${quote(JSON.stringify(body))}`;
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
      what: 'the live stream: new, updated and enriched articles as they arrive (Server-Sent Events; Ctrl-C ends it)',
      command: `curl -sN${auth} ${quote(`${apiUrl}/v1/stream?language=en`)}`,
    },
    {
      what: 'technology news of the last 24 hours',
      command: get('/v1/articles?category=technology&date_range=24h&limit=5'),
    },
    { what: 'one article in full', command: get(`/v1/articles/${encodeURIComponent(context.articleId)}`) },
    {
      what: 'summary, context (citing related articles) and insights for that article',
      command: post('/v1/enhance', {
        article_id: context.articleId,
        enhancements: ['summary', 'context', 'insights'],
        length: 'medium',
      }),
    },
    {
      what: 'analyze any text: summary, sentiment, entities, educational insights',
      command: post('/v1/analyze', { text: analyzeExample, analysis_type: 'full' }),
    },
    {
      what: 'summarize a text in a casual tone',
      command: post('/api/v1/summarize', { content: analyzeExample, tone: 'casual', length: 'short' }),
    },
    {
      what: 'speech: a sentence saved as speech.mp3 (any player plays it; "format": "ogg" or "wav" too)',
      command: `${post('/v1/synthesize', { text: speechExample, voice: 'en-US-slt-hts' })} -o speech.mp3`,
    },
    { what: 'the voices that speak Portuguese', command: get('/v1/voices?language=pt') },
    context.narrationUrl
      ? {
          what: "an article's narration, saved as article.mp3: its audio_url needs no key (signed, valid a day)",
          command: `curl -s -o article.mp3 ${quote(context.narrationUrl)}`,
        }
      : {
          what: "articles' narrations (audio_url: a signed URL any player or <audio> element plays; narration follows enrichment)",
          command: get('/v1/articles?limit=5'),
        },
    {
      what: "monitor a company: its alerts go, signed, to the demo's webhook inbox (the answer shows the secret)",
      command: post('/api/v1/crm/monitor', {
        contact_id: 'crm-contact-1',
        company: 'BBC',
        aliases: ['British Broadcasting Corporation'],
        alert_webhook: `${context.feedServerUrl}/inbox/alerts`,
      }),
    },
    {
      what: 'the alerts received so far (an article mentioning the BBC arrives every minute or so)',
      command: `curl -s ${quote(`${context.feedServerUrl}/inbox/alerts`)}`,
    },
    {
      what: "documentaries: first a webhook, so the demo's inbox receives documentary.ready (the answer shows the secret)",
      command: post('/api/v1/webhooks', {
        url: `${context.feedServerUrl}/inbox/documentaries`,
        events: ['documentary.ready'],
      }),
    },
    {
      what: 'then a short documentary (about 2 minutes) on the economy, from the last 7 days of news',
      command: post('/api/v1/documentaries', { topic: 'the economy', length: 'short' }),
    },
    {
      what: 'its steps and progress; when ready (in a minute or so): audio_url (mp3 with chapters), transcripts',
      command: get('/api/v1/documentaries?limit=1'),
    },
    {
      what: 'the documentary.ready webhooks received',
      command: `curl -s ${quote(`${context.feedServerUrl}/inbox/documentaries`)}`,
    },
    { what: 'the active sources', command: get('/v1/sources?active_only=true') },
    {
      what: 'a personalized feed',
      command: get('/api/v1/feeds/personalized?topics=economy,health&limit=5'),
    },
    {
      what: 'an OAuth access token (client credentials), to send as Authorization: Bearer instead of the key',
      command: `curl -s -X POST ${quote(`${apiUrl}/oauth/token`)} -u ${quote(`${context.credentials.clientId}:${context.credentials.clientSecret}`)} -d grant_type=client_credentials`,
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
    ...(context.credentials.generated
      ? [
          `Every request needs a key; this run made one (set DEMO_API_KEY to choose your own):`,
          `  export DEMO_API_KEY=${context.credentials.apiKey}`,
        ]
      : ['Requests carry DEMO_API_KEY: export it in the shell you paste them into.']),
    '',
    'Try:',
    ...exampleRequests(context).flatMap((example) => [`  # ${example.what}`, `  ${example.command}`]),
    '',
    `New articles keep arriving: a BBC corpus article is released every ${context.releaseSeconds} s and the live feeds are polled every ${context.pollSeconds} s.`,
    `Logs: ${context.logFiles.join(', ')}`,
    'Ctrl-C stops the demo.',
  ];
}
