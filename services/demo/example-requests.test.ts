import { describe, expect, it } from 'vitest';
import { exampleRequests, readyMessage } from './example-requests.ts';

const credentials = { apiKey: 'nik_demo', generated: false, clientId: 'cli_1', clientSecret: 'nis_secret' };
const context = {
  apiUrl: 'http://127.0.0.1:8080',
  articleId: 'art_0123',
  feedServerUrl: 'http://127.0.0.1:8090',
  credentials,
};
const auth = '-H "Authorization: Bearer $DEMO_API_KEY"';

describe('exampleRequests', () => {
  it('suggests one-line curl commands against the API, one of them for an article that exists', () => {
    const commands = exampleRequests(context).map((e) => e.command);
    expect(commands.length).toBeGreaterThanOrEqual(4);
    expect(commands.every((c) => c.startsWith('curl -s') && !c.includes('\n'))).toBe(true);
    expect(commands).toContain(`curl -s ${auth} 'http://127.0.0.1:8080/v1/articles/art_0123'`);
    expect(commands.some((c) => c.includes('/api/v1/feeds/personalized?'))).toBe(true);
  });

  it('shows the live stream with curl -N, so events print as they arrive', () => {
    const commands = exampleRequests(context).map((e) => e.command);
    expect(commands).toContain(`curl -sN ${auth} 'http://127.0.0.1:8080/v1/stream?language=en'`);
  });

  it('enhances the listed article, and shows analyze and summarize with a text that pastes into any shell', () => {
    const bodyOf = (path: string) => {
      const command = exampleRequests(context).find((e) =>
        e.command.includes(`'http://127.0.0.1:8080${path}'`),
      )!;
      return JSON.parse(/-d '(.*)'$/.exec(command.command)![1]!) as Record<string, unknown>;
    };
    expect(bodyOf('/v1/enhance')).toMatchObject({
      article_id: 'art_0123',
      enhancements: ['summary', 'context', 'insights'],
    });
    expect(bodyOf('/v1/analyze').text).toMatch(/^[\x20-\x7e]+$/);
    expect(bodyOf('/api/v1/summarize')).toMatchObject({ tone: 'casual' });
  });

  it('adds a source served by the demo feed server, which the loopback allow-list lets the API check', () => {
    const post = exampleRequests(context).find(
      (e) => e.command.includes('/v1/sources') && e.command.includes('-X POST'),
    )!;
    const body = /-d '(.*)'$/.exec(post.command)![1]!;
    expect(JSON.parse(body)).toMatchObject({ url: 'http://127.0.0.1:8090/live/all.json' });
  });

  it('sends the key by variable, and shows how to get an access token with the client credentials', () => {
    const [token, ...others] = [...exampleRequests(context)].sort((a) =>
      a.command.includes('/oauth/token') ? -1 : 1,
    );
    expect(token!.command).toBe(
      "curl -s -X POST 'http://127.0.0.1:8080/oauth/token' -u 'cli_1:nis_secret' -d grant_type=client_credentials",
    );
    // Every request to the API carries the key; the demo's own webhook inbox needs none.
    for (const { command } of others.filter((o) => !o.command.includes('/inbox/')))
      expect(command).toContain(auth);
    for (const { command } of exampleRequests(context)) expect(command).not.toContain('nik_demo');
  });
});

describe('readyMessage', () => {
  const ready = { ...context, elapsed: '12 s', releaseSeconds: 4, pollSeconds: 10, logFiles: ['api.log'] };

  it('says where the API is and lists every example request', () => {
    const lines = readyMessage(ready);
    expect(lines).toContain('Articles are queryable, 12 s after start. The API is at http://127.0.0.1:8080');
    for (const { command } of exampleRequests(context)) expect(lines).toContain(`  ${command}`);
  });

  it('shows a key made for this run, and never prints a key the user chose', () => {
    expect(readyMessage(ready).join('\n')).toContain('export it');
    expect(readyMessage(ready).join('\n')).not.toContain('nik_demo');
    const generated = readyMessage({ ...ready, credentials: { ...credentials, generated: true } });
    expect(generated).toContain('  export DEMO_API_KEY=nik_demo');
  });
});
