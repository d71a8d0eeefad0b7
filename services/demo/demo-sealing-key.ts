// The key the demo's API seals webhook signing secrets with (WEBHOOK_SECRET_KEYS). Without one, the API
// and the dispatcher fall back to the public development key, and anyone reading news.webhooks.v1 or the
// `webhooks` table (the read-only analyst too) could open every tenant's secret and forge deliveries.
// The key is made once for this checkout and kept in a file beside the stack's data, not per run: the
// secrets sealed on one run are opened on the next. The development key stays second, opening only,
// so webhooks a demo registered before this key existed still deliver.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEVELOPMENT_KEY, parseSecretBoxKeys } from '../webhooks/secret-box.ts';

/** WEBHOOK_SECRET_KEYS for the demo's services: the user's setting, else the checkout's own key. */
export async function demoSealingKeys(setting: string | undefined, file: string): Promise<string> {
  if (setting !== undefined && setting.trim() !== '') return setting;
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
    parseSecretBoxKeys(key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${file} holds no usable webhook sealing key (delete it to make a new one)`, {
        cause: error,
      });
    key = `demo:${randomBytes(32).toString('base64url')}`;
    await mkdir(path.dirname(file), { recursive: true });
    // Exclusive: two demos started at once must not each write their own key.
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (written) => {
      if ((written as NodeJS.ErrnoException).code !== 'EEXIST') throw written;
      key = (await readFile(file, 'utf8')).trim();
    });
  }
  return `${key},${DEVELOPMENT_KEY.kid}:${DEVELOPMENT_KEY.key}`;
}
