// The verification examples of docs/webhooks.md, run as a receiver would run them: each must accept a
// delivery signed the way the dispatcher signs (signing.ts), and refuse it once the body, the secret or
// the timestamp is wrong. The code is taken from the document itself, so what customers copy is what
// is tested.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureHeaders, type SignatureHeaders } from './signing.ts';

const document = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

/** The fenced code block right after `<!-- verification example: <name>`. */
function example(name: string): string {
  const marker = document.indexOf(`<!-- verification example: ${name} `);
  if (marker === -1) throw new Error(`docs/webhooks.md has no verification example "${name}"`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(document.slice(marker));
  if (!block) throw new Error(`no code block after the "${name}" example marker`);
  return block[1]!;
}

const directory = mkdtempSync(join(tmpdir(), 'webhook-verification-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// Non-ASCII on purpose: a receiver that hashes characters instead of bytes gets it wrong.
const body = JSON.stringify({
  event: 'news.alert',
  timestamp: '2026-11-21T09:14:05.000Z',
  data: {
    contact_id: 'crm-4711',
    company: 'Nestlé',
    news_summary: 'Nestlé opens a plant in Zürich — “a milestone”, its chief said.',
    audio_url: null,
  },
});
const secret = generateWebhookSecret();
const otherSecret = generateWebhookSecret();
const signedNow = signatureHeaders({ id: 'msg_0123456789abcdef', timestamp: new Date(), body }, secret);
const signedLongAgo = signatureHeaders(
  { id: 'msg_0123456789abcdef', timestamp: new Date(Date.now() - 10 * 60_000), body },
  secret,
);
// During a secret rotation a delivery carries two signatures; the receiver's must be one of them.
const signedTwice = signatureHeaders({ id: 'msg_0123456789abcdef', timestamp: new Date(), body }, [
  otherSecret,
  secret,
]);
const tampered = body.replace('a milestone', 'a millstone');

interface Case {
  name: string;
  secret: string;
  headers: SignatureHeaders;
  body: string;
  authentic: boolean;
}

const cases: Case[] = [
  { name: 'a genuine delivery', secret, headers: signedNow, body, authentic: true },
  { name: 'one of two signatures matching', secret, headers: signedTwice, body, authentic: true },
  { name: 'a tampered body', secret, headers: signedNow, body: tampered, authentic: false },
  { name: 'another secret', secret: otherSecret, headers: signedNow, body, authentic: false },
  { name: 'a timestamp 10 minutes old', secret, headers: signedLongAgo, body, authentic: false },
];

const expected = Object.fromEntries(cases.map((c) => [c.name, c.authentic]));

describe('the webhook verification examples in docs/webhooks.md', () => {
  it('in Node accept what the dispatcher signs and refuse anything else', async () => {
    const file = join(directory, 'verify-webhook.mjs');
    writeFileSync(file, example('node'));
    const { verifyWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyWebhook: (secret: string, headers: SignatureHeaders, body: string | Buffer) => boolean;
    };
    const verdicts = Object.fromEntries(
      cases.map((c) => [c.name, verifyWebhook(c.secret, c.headers, Buffer.from(c.body, 'utf8'))]),
    );
    expect(verdicts).toEqual(expected);
  });

  it('in Python accept what the dispatcher signs and refuse anything else', () => {
    writeFileSync(join(directory, 'verify_webhook.py'), example('python'));
    const driver = [
      'import json, sys',
      'from verify_webhook import verify_webhook',
      'cases = json.load(sys.stdin)',
      'print(json.dumps({c["name"]: verify_webhook(c["secret"], c["headers"], c["body"].encode("utf-8")) for c in cases}))',
    ].join('\n');
    const run = spawnSync('python3', ['-c', driver], {
      cwd: directory,
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
  it.skipIf(!hasOpenssl)(
    'in a shell with openssl accept what the dispatcher signs and refuse anything else',
    () => {
      const script = join(directory, 'verify-webhook.sh');
      writeFileSync(script, example('sh'));
      const verdicts = Object.fromEntries(
        cases.map((c) => {
          const bodyFile = join(directory, 'body.json');
          writeFileSync(bodyFile, c.body);
          const run = spawnSync('bash', [script, bodyFile], {
            env: {
              PATH: process.env.PATH,
              WEBHOOK_SECRET: c.secret,
              WEBHOOK_ID: c.headers['webhook-id'],
              WEBHOOK_TIMESTAMP: c.headers['webhook-timestamp'],
              WEBHOOK_SIGNATURE: c.headers['webhook-signature'],
            },
            encoding: 'utf8',
          });
          return [c.name, run.status === 0];
        }),
      );
      expect(verdicts).toEqual(expected);
    },
  );
});
