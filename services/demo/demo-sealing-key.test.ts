import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { developmentSecretBox, secretBoxFromSetting } from '../webhooks/secret-box.ts';
import { demoSealingKeys } from './demo-sealing-key.ts';

describe('the demo’s webhook sealing key', () => {
  let directory: string;
  let file: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'demo-sealing-'));
    file = path.join(directory, 'stack', 'demo-webhook-secret-keys');
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('makes a private key once, keeps it for the next run, and still opens what the development key sealed', async () => {
    const first = await demoSealingKeys(undefined, file);
    const box = secretBoxFromSetting(first);
    expect(box.usesDevelopmentKey).toBe(false);
    expect(box.sealingKid).toBe('demo');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await demoSealingKeys('', file)).toBe(first);
    // sealed on one run, opened on the next
    expect(secretBoxFromSetting(await demoSealingKeys(undefined, file)).open(box.seal('whsec_x'))).toBe(
      'whsec_x',
    );
    expect(box.open(developmentSecretBox().seal('whsec_old'))).toBe('whsec_old');
    // the development key does not open what the demo key sealed
    expect(() => developmentSecretBox().open(box.seal('whsec_y'))).toThrow();
  });

  it('uses the user’s setting as it is, and refuses a damaged key file rather than make another', async () => {
    expect(await demoSealingKeys('prod:' + 'A'.repeat(43), file)).toBe('prod:' + 'A'.repeat(43));
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    await demoSealingKeys(undefined, file);
    await writeFile(file, 'not a key\n');
    await expect(demoSealingKeys(undefined, file)).rejects.toThrow(/holds no usable webhook sealing key/);
  });
});
