import { describe, expect, it } from 'vitest';
import { exampleRequests, readyMessage } from './example-requests.ts';

const context = {
  apiUrl: 'http://127.0.0.1:8080',
  articleId: 'art_0123',
  feedServerUrl: 'http://127.0.0.1:8090',
  apiKeySet: false,
};

describe('exampleRequests', () => {
  it('suggests one-line curl commands against the API, one of them for an article that exists', () => {
    const commands = exampleRequests(context).map((e) => e.command);
    expect(commands.length).toBeGreaterThanOrEqual(4);
    expect(commands.every((c) => c.startsWith('curl -s') && !c.includes('\n'))).toBe(true);
    expect(commands).toContain("curl -s 'http://127.0.0.1:8080/v1/articles/art_0123'");
    expect(commands.some((c) => c.includes('/api/v1/feeds/personalized?'))).toBe(true);
  });

  it('adds a source served by the demo feed server, which the loopback allow-list lets the API check', () => {
    const post = exampleRequests(context).find((e) => e.command.includes('-X POST'))!;
    const body = /-d '(.*)'$/.exec(post.command)![1]!;
    expect(JSON.parse(body)).toMatchObject({ url: 'http://127.0.0.1:8090/live/all.json' });
  });

  it('sends the demo key by variable when there is one, so it is never printed', () => {
    for (const { command } of exampleRequests({ ...context, apiKeySet: true })) {
      expect(command).toContain('-H "Authorization: Bearer $DEMO_API_KEY"');
    }
  });
});

describe('readyMessage', () => {
  const ready = { ...context, elapsed: '12 s', releaseSeconds: 4, pollSeconds: 10, logFiles: ['api.log'] };

  it('says where the API is and lists every example request', () => {
    const lines = readyMessage(ready);
    expect(lines).toContain('Articles are queryable, 12 s after start. The API is at http://127.0.0.1:8080');
    for (const { command } of exampleRequests(context)) expect(lines).toContain(`  ${command}`);
  });

  it('mentions the demo key only when there is one', () => {
    expect(readyMessage(ready).join('\n')).not.toContain('DEMO_API_KEY');
    expect(readyMessage({ ...ready, apiKeySet: true }).join('\n')).toContain('export it');
  });
});
