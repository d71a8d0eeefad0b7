import { describe, expect, it } from 'vitest';
import type { Webhook } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import { webhookWith } from '../../test/support/webhook-records.ts';
import { WebhookDirectory } from './webhook-directory.ts';

const logger = createLogger('test', 'silent');

/** A directory over a topic with one partition, fed by hand. */
function feed(end = 0n) {
  const directory = new WebhookDirectory(new Map([[0, end]]), logger);
  let offset = 0;
  const put = (value: Webhook | null, key = value?.webhook_id ?? 'wh_1') =>
    directory.apply({ partition: 0, offset: String(offset++), key, value });
  return { directory, put };
}

const ids = (webhooks: Webhook[]) => webhooks.map((w) => w.webhook_id);

describe('WebhookDirectory', () => {
  it("answers only the tenant's active webhooks subscribed to the event type", () => {
    const { directory, put } = feed();
    put(webhookWith({ webhook_id: 'wh_a' }));
    put(webhookWith({ webhook_id: 'wh_b', events: ['documentary.ready'] }));
    put(webhookWith({ webhook_id: 'wh_c', tenant_id: 'ten_2' }));
    put(webhookWith({ webhook_id: 'wh_d', active: false, disabled_reason: 'paused' }));
    put(webhookWith({ webhook_id: 'wh_e', events: ['documentary.ready', 'news.alert'] }));

    expect(ids(directory.subscribers('ten_1', 'news.alert', 'mon_1'))).toEqual(['wh_a', 'wh_e']);
    expect(ids(directory.subscribers('ten_1', 'documentary.ready'))).toEqual(['wh_b', 'wh_e']);
    expect(ids(directory.subscribers('ten_2', 'news.alert', 'mon_1'))).toEqual(['wh_c']);
    expect(directory.subscribers('ten_3', 'news.alert', 'mon_1')).toEqual([]);
    expect(directory.get('wh_d')?.active).toBe(false);
  });

  it('gives a webhook filtered on monitors only the alerts of those monitors', () => {
    const { directory, put } = feed();
    const filter = { categories: [], source_ids: [], languages: [], words: [], monitor_ids: ['mon_2'] };
    put(webhookWith({ webhook_id: 'wh_all' }));
    put(webhookWith({ webhook_id: 'wh_mon2', filter }));
    put(webhookWith({ webhook_id: 'wh_empty', filter: { ...filter, monitor_ids: [] } }));

    expect(ids(directory.subscribers('ten_1', 'news.alert', 'mon_1'))).toEqual(['wh_all', 'wh_empty']);
    expect(ids(directory.subscribers('ten_1', 'news.alert', 'mon_2'))).toEqual([
      'wh_all',
      'wh_empty',
      'wh_mon2',
    ]);
  });

  it('forgets a webhook on its tombstone, and follows a change of tenant', () => {
    const { directory, put } = feed();
    put(webhookWith());
    put(null, 'wh_1');
    expect(directory.get('wh_1')).toBeUndefined();
    expect(directory.subscribers('ten_1', 'news.alert', 'mon_1')).toEqual([]);

    put(webhookWith({ version: 1 }));
    put(webhookWith({ version: 2, tenant_id: 'ten_2' }));
    expect(directory.subscribers('ten_1', 'news.alert', 'mon_1')).toEqual([]);
    expect(ids(directory.subscribers('ten_2', 'news.alert', 'mon_1'))).toEqual(['wh_1']);
  });

  it('does not bring back older states when a partition is read again from the beginning', () => {
    const directory = new WebhookDirectory(new Map([[0, 0n]]), logger);
    directory.apply({ partition: 0, offset: '0', key: 'wh_1', value: webhookWith() });
    directory.apply({ partition: 0, offset: '1', key: 'wh_1', value: null });
    directory.apply({ partition: 0, offset: '0', key: 'wh_1', value: webhookWith() });
    expect(directory.get('wh_1')).toBeUndefined();
  });

  it('uses a remembered newer state until the topic brings one at least as new', () => {
    const { directory, put } = feed();
    put(webhookWith({ version: 3 }));
    directory.remember(webhookWith({ version: 4, active: false, disabled_reason: 'gone' }));
    put(webhookWith({ version: 3, url: 'https://late.example/' })); // older, still in the topic
    expect(directory.get('wh_1')).toMatchObject({ version: 4, active: false });
    put(webhookWith({ version: 5 }));
    expect(directory.get('wh_1')).toMatchObject({ version: 5, active: true });
  });

  it('ignores a state stored under another key', () => {
    const { directory, put } = feed();
    put(webhookWith({ webhook_id: 'wh_1' }), 'wh_other');
    expect(directory.get('wh_1')).toBeUndefined();
    expect(directory.get('wh_other')).toBeUndefined();
  });

  it('is ready once every partition was read up to where it ended at start', async () => {
    const directory = new WebhookDirectory(
      new Map([
        [0, 2n],
        [1, 0n],
        [2, 1n],
      ]),
      logger,
    );
    let ready = false;
    void directory.ready().then(() => (ready = true));
    directory.apply({ partition: 0, offset: '0', key: 'wh_1', value: webhookWith() });
    directory.apply({ partition: 2, offset: '0', key: 'wh_2', value: webhookWith({ webhook_id: 'wh_2' }) });
    await Promise.resolve();
    expect(ready).toBe(false);
    directory.apply({ partition: 0, offset: '1', key: 'wh_3', value: webhookWith({ webhook_id: 'wh_3' }) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ready).toBe(true);
  });

  it('times out ready() when the topic is not read', async () => {
    const directory = new WebhookDirectory(new Map([[0, 5n]]), logger);
    await expect(directory.ready(20)).rejects.toThrow(/did not read news.webhooks.v1/);
  });
});
