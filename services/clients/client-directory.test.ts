import { describe, expect, it } from 'vitest';
import type { Client } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import { ClientDirectory, type ClientChange } from './client-directory.ts';
import { apiKeyPrefixOf, generateApiKey, generateClientSecret, hashCredential } from './credentials.ts';

const logger = createLogger('test', 'silent');

function clientWith(key: string | null, overrides: Partial<Client> = {}): Client {
  return {
    client_id: 'cli_1',
    tenant_id: 'ten_1',
    name: 'CRM',
    plan: 'essentials',
    limits: null,
    scopes: ['read:feeds'],
    api_key_prefix: key && apiKeyPrefixOf(key),
    api_key_hash: key && hashCredential(key),
    client_secret_hash: null,
    revoked: false,
    created_at: 1,
    version: 1,
    occurred_at: 1,
    ...overrides,
  };
}

/** A directory over a topic with one partition, fed by hand. */
function feed(end = 0n) {
  const directory = new ClientDirectory(new Map([[0, end]]), logger);
  let offset = 0;
  const put = (value: Client | null, key = value?.client_id ?? 'cli_1') =>
    directory.apply({ partition: 0, offset: String(offset++), key, value });
  return { directory, put };
}

describe('ClientDirectory', () => {
  it('finds an active client by its API key, and by its id', () => {
    const key = generateApiKey();
    const { directory, put } = feed();
    put(clientWith(key));
    expect(directory.findByApiKey(key)?.client_id).toBe('cli_1');
    expect(directory.findClient('cli_1')?.tenant_id).toBe('ten_1');
    expect(directory.findByApiKey(generateApiKey())).toBeUndefined();
    expect(directory.findByApiKey(apiKeyPrefixOf(key))).toBeUndefined();
    expect(directory.findByApiKey('')).toBeUndefined();
  });

  it('accepts OAuth client credentials only with the current secret of an active client', () => {
    const [secret, other] = [generateClientSecret(), generateClientSecret()];
    const { directory, put } = feed();
    put(clientWith(null, { client_secret_hash: hashCredential(secret) }));
    expect(directory.findByClientCredentials('cli_1', secret)?.client_id).toBe('cli_1');
    expect(directory.findByClientCredentials('cli_1', other)).toBeUndefined();
    expect(directory.findByClientCredentials('cli_2', secret)).toBeUndefined();
    expect(directory.findByApiKey(secret)).toBeUndefined();
    put(clientWith(null, { client_secret_hash: hashCredential(secret), revoked: true, version: 2 }));
    expect(directory.findByClientCredentials('cli_1', secret)).toBeUndefined();
  });

  it('stops accepting the old key once a rotation is applied', () => {
    const [oldKey, newKey] = [generateApiKey(), generateApiKey()];
    const { directory, put } = feed();
    put(clientWith(oldKey));
    put(clientWith(newKey, { version: 2 }));
    expect(directory.findByApiKey(oldKey)).toBeUndefined();
    expect(directory.findByApiKey(newKey)?.version).toBe(2);
  });

  it('forgets a revoked client entirely, and a removed one', () => {
    const key = generateApiKey();
    const { directory, put } = feed();
    put(clientWith(key));
    // Even a revoked state that still carried its hash must not authenticate.
    put(clientWith(key, { revoked: true, version: 2 }));
    expect(directory.findByApiKey(key)).toBeUndefined();
    expect(directory.findClient('cli_1')).toBeUndefined();

    const other = generateApiKey();
    put(clientWith(other, { client_id: 'cli_2' }));
    put(null, 'cli_2');
    expect(directory.findByApiKey(other)).toBeUndefined();
    expect(directory.size).toBe(0);
  });

  it('does not bring back an older state when the partition is read again from the beginning', () => {
    const key = generateApiKey();
    const directory = new ClientDirectory(new Map(), logger);
    directory.apply({ partition: 0, offset: '0', key: 'cli_1', value: clientWith(key) });
    directory.apply({ partition: 0, offset: '1', key: 'cli_1', value: clientWith(key, { revoked: true }) });
    // A rebalance in table mode re-reads from offset 0.
    directory.apply({ partition: 0, offset: '0', key: 'cli_1', value: clientWith(key) });
    expect(directory.findByApiKey(key)).toBeUndefined();
  });

  it('ignores a state whose client id is not its key', () => {
    const key = generateApiKey();
    const { directory, put } = feed();
    put(clientWith(key), 'cli_other');
    expect(directory.findByApiKey(key)).toBeUndefined();
    expect(directory.findClient('cli_other')).toBeUndefined();
  });

  it('is ready once every partition has been read up to its end at start', async () => {
    const directory = new ClientDirectory(
      new Map([
        [0, 2n],
        [1, 1n],
        [2, 0n],
      ]),
      logger,
    );
    let ready = false;
    void directory.ready().then(() => (ready = true));
    directory.apply({ partition: 0, offset: '0', key: 'cli_1', value: clientWith(generateApiKey()) });
    directory.apply({ partition: 1, offset: '0', key: 'cli_2', value: null });
    await Promise.resolve();
    expect(ready).toBe(false);
    directory.apply({ partition: 0, offset: '1', key: 'cli_1', value: null });
    await directory.ready(100);
    expect(ready).toBe(true);
  });

  it('is ready at once on an empty topic, and says so when it cannot get there', async () => {
    await expect(new ClientDirectory(new Map([[0, 0n]]), logger).ready(50)).resolves.toBeUndefined();
    await expect(new ClientDirectory(new Map([[0, 5n]]), logger).ready(50)).rejects.toThrow(/within 50 ms/);
  });

  it('tells listeners when a client changes or stops authenticating', () => {
    const key = generateApiKey();
    const { directory, put } = feed();
    const changes: ClientChange[] = [];
    const unsubscribe = directory.onChange((change) => changes.push(change));
    directory.onChange(() => {
      throw new Error('a broken listener does not stop the others');
    });
    put(clientWith(key));
    put(clientWith(key, { revoked: true, version: 2 }));
    put(clientWith(key, { revoked: true, version: 3 })); // nothing changes for a client already gone
    unsubscribe();
    put(clientWith(key, { client_id: 'cli_2' }));
    expect(changes.map((c) => [c.clientId, c.client?.version ?? null])).toEqual([
      ['cli_1', 1],
      ['cli_1', null],
    ]);
  });
});
