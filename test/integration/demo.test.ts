// `npm run demo` end to end: started as a user would (its tsx entry, a non-default PORT), it prints the
// API URL once articles are queryable, the examples it prints work, and one SIGINT (Ctrl-C) stops every
// process it started and frees its ports.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSse } from '../support/sse-client.ts';
import { isAlive } from '../support/processes.ts';
import { freePort } from './support/api-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** Every process below `pid`, from /proc (the demo's services run in process groups of their own). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the command in field 2 may contain spaces, hence lastIndexOf.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const visit = (p: number) => {
    for (const child of children.get(p) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

describe('npm run demo', () => {
  let demo: ChildProcess | undefined;
  let started: number[] = [];
  const output: string[] = [];
  // A key the test chooses, as a user would: the demo creates (or finds) its client and never prints it.
  const demoKey = `demo-test-key-${randomBytes(12).toString('hex')}`;

  afterAll(() => {
    // Only if the test failed: leave nothing running.
    if (demo?.pid && demo.exitCode === null) started.push(...descendants(demo.pid), demo.pid);
    for (const pid of started.filter(isAlive)) process.kill(pid, 'SIGKILL');
  });

  it('prints the API URL once articles are queryable, and one SIGINT stops all it started', async () => {
    const port = await freePort();
    // Fixed rather than free: a source's id comes from its feed URL, so a fixed port reuses the same
    // "Demo: …" sources on every run instead of adding another set each time.
    const feedPort = 18_091;
    demo = spawn(process.execPath, ['--import', 'tsx', 'services/demo/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DEMO_FEED_PORT: String(feedPort),
        DEMO_API_KEY: demoKey,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => demo!.once('exit', (code) => resolve(code)));
    const lines = createInterface({ input: demo.stdout! });
    lines.on('line', (line) => output.push(line));
    createInterface({ input: demo.stderr! }).on('line', (line) => output.push(line));

    // Ready once it has printed everything up to its last line; a demo that exits first fails at once.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready after 200 s:\n${output.join('\n')}`)),
        200_000,
      );
      lines.on('line', (line) => {
        if (!line.startsWith('Ctrl-C stops the demo')) return;
        clearTimeout(timer);
        resolve();
      });
      demo!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the demo exited (code ${code}) before it was ready:\n${output.join('\n')}`));
      });
    });
    const apiUrl = /The API is at (http:\/\/\S+)/.exec(output.join('\n'))?.[1];
    expect(apiUrl).toBe(`http://127.0.0.1:${port}`);

    // The article example carries an id the API has just listed: it must answer with that article.
    const example = output
      .map(
        (l) =>
          /^\s*curl -s -H "Authorization: Bearer \$DEMO_API_KEY" '([^']*\/v1\/articles\/[^']+)'$/.exec(
            l,
          )?.[1],
      )
      .find(Boolean);
    expect(example, 'an example request for one article').toBeDefined();
    expect(output.join('\n')).not.toContain(demoKey);
    const response = await fetch(example!, { headers: { authorization: `Bearer ${demoKey}` } });
    expect(response.status).toBe(200);
    const id = decodeURIComponent(example!.slice(example!.lastIndexOf('/') + 1));
    expect(JSON.stringify(await response.json())).toContain(id);

    // The enhance example works as printed: summary, context and insights for the listed article.
    const [, enhanceUrl, enhanceBody] =
      /curl -s -H "Authorization: Bearer \$DEMO_API_KEY" -X POST '([^']+\/v1\/enhance)' -H 'Content-Type: application\/json' -d '([^']+)'/.exec(
        output.join('\n'),
      ) ?? [];
    expect(enhanceUrl, 'an example request for /v1/enhance').toBeDefined();
    const enhanced = await fetch(enhanceUrl!, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
      body: enhanceBody!,
    });
    expect(enhanced.status).toBe(200);
    const enhancement = (await enhanced.json()) as { article_id: string; summary?: string };
    expect(enhancement.article_id).toBe(id);
    expect(enhancement.summary?.length).toBeGreaterThan(0);

    // The stream example works as printed: articles keep arriving, so one comes within seconds.
    const streamUrl = /curl -sN -H "Authorization: Bearer \$DEMO_API_KEY" '([^']+\/v1\/stream[^']*)'/.exec(
      output.join('\n'),
    )?.[1];
    expect(streamUrl, 'the stream example').toBeDefined();
    const stream = await openSse(streamUrl!, { authorization: `Bearer ${demoKey}` });
    try {
      expect(stream.status).toBe(200);
      await expect
        .poll(() => stream.events.find((e) => e.event.startsWith('article.')) ?? null, {
          timeout: 60_000,
          interval: 500,
        })
        .not.toBeNull();
    } finally {
      stream.close();
    }

    // The token example works as printed.
    const [, tokenUrl, basic] =
      /curl -s -X POST '([^']+\/oauth\/token)' -u '([^']+)'/.exec(output.join('\n')) ?? [];
    const token = await fetch(tokenUrl!, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(basic!).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);

    // The documentary examples work as printed: the webhook, the request, and documentary.ready at the
    // demo's inbox with an audio_url that plays.
    const printed = output.join('\n');
    const posts = [
      ...printed.matchAll(
        /curl -s -H "Authorization: Bearer \$DEMO_API_KEY" -X POST '([^']+)' -H 'Content-Type: application\/json' -d '([^']+)'/g,
      ),
    ].map(([, url, body]) => ({ url: url!, body: body! }));
    const send = (post: { url: string; body: string } | undefined) =>
      fetch(post!.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
        body: post!.body,
      });
    const hook = posts.find(
      (p) => p.url.endsWith('/api/v1/webhooks') && p.body.includes('documentary.ready'),
    );
    expect(hook, 'an example webhook for documentary.ready').toBeDefined();
    const registered = await send(hook);
    // On a failure, what the API said and what the demo's processes logged last say why.
    expect(registered.status, `${await registered.text()}\n${output.slice(-40).join('\n')}`).toBe(201);
    const asked = await send(posts.find((p) => p.url.endsWith('/api/v1/documentaries')));
    expect(asked.status).toBe(202);
    const documentary = (await asked.json()) as { id: string };
    const inboxUrl = /curl -s '([^']+\/inbox\/documentaries)'/.exec(printed)?.[1];
    expect(inboxUrl, 'the documentary inbox example').toBeDefined();
    type Inbox = {
      events: {
        webhook_signature: string;
        body: { event: string; data: { documentary_id: string; audio_url: string } };
      }[];
    };
    await expect
      .poll(
        async () => {
          const inbox = (await (await fetch(inboxUrl!)).json()) as Inbox;
          return inbox.events.find((e) => e.body.data?.documentary_id === documentary.id) ?? null;
        },
        { timeout: 150_000, interval: 1_000 },
      )
      .not.toBeNull();
    const inbox = (await (await fetch(inboxUrl!)).json()) as Inbox;
    const ready = inbox.events.find((e) => e.body.data?.documentary_id === documentary.id)!;
    expect(ready.body.event).toBe('documentary.ready');
    expect(ready.webhook_signature).toMatch(/^v1,/);
    const audio = await fetch(ready.body.data.audio_url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');

    started = descendants(demo.pid!);
    // The projector, the enricher, the poller and the API at least; they run as long as the demo does.
    expect(started.length).toBeGreaterThanOrEqual(4);
    expect(await portFree(feedPort)).toBe(false);

    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    // Helpers the processes started themselves (tsx's esbuild) end a moment after them.
    await expect.poll(() => started.filter(isAlive), { timeout: 5_000 }).toEqual([]);
    expect(await portFree(port)).toBe(true);
    expect(await portFree(feedPort)).toBe(true);
  }, 450_000);
});
