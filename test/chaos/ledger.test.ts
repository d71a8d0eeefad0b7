import { describe, expect, it } from 'vitest';
import type { Delivery } from './flaky-receiver.ts';
import { countLedger, type LedgerFacts } from './ledger.ts';
import type { ReleasedArticle } from './release-schedule.ts';

const article = (seq: number, mentions: 'acme' | 'globex' | null = null): ReleasedArticle => ({
  seq,
  feed: 0,
  guid: `g${seq}`,
  url: `http://feeds/chaos/r/${seq}`,
  title: `t${seq}`,
  releasedAt: seq * 1000,
  mentions,
});

const delivery = (seq: number, over: Partial<Delivery> = {}): Delivery => ({
  path: '/alerts/acme',
  webhookId: `msg_${seq}`,
  verified: true,
  answer: 204,
  articleUrl: `http://feeds/chaos/r/${seq}`,
  receivedAt: 0,
  ...over,
});

const facts = (over: Partial<LedgerFacts> = {}): LedgerFacts => {
  const released = [article(0, 'acme'), article(1), article(2, 'acme')];
  return {
    released,
    projectedRows: new Map(released.map((a) => [a.guid, 1])),
    apiUrls: released.map((a) => a.url),
    monitorPaths: { acme: '/alerts/acme', globex: '/alerts/globex' },
    deliveries: [delivery(0), delivery(2)],
    seqOfUrl: (url) => Number(/\/(\d+)$/.exec(url)?.[1] ?? NaN),
    deadLetters: [{ group: 'g.enricher', sourceTopic: 't', key: 'poison-0' }],
    poisonedKeys: ['poison-0'],
    faults: [{ name: 'kill', startedAt: 0, endedAt: 1, articlesMs: 5, alertsMs: 2, recoveryMs: 5 }],
    ...over,
  };
};

describe('the chaos ledger', () => {
  it('finds nothing wrong when every article is held once and every alert arrived under one id', () => {
    const ledger = countLedger(
      facts({
        // A retry after a 500 and a redelivery of the same id: at-least-once, not a problem.
        deliveries: [
          delivery(0, { answer: 500 }),
          delivery(0),
          delivery(0),
          delivery(2, { answer: 'closed' }),
          delivery(2),
        ],
      }),
    );
    expect(ledger.problems).toEqual([]);
    expect(ledger.articles).toMatchObject({ released: 3, projectedOnce: 3, apiOnce: 3 });
    expect(ledger.alerts).toMatchObject({
      expected: 2,
      deliveredAtLeastOnce: 2,
      redelivered: 1,
      attempts: 5,
    });
    expect(ledger.deadLetters).toEqual({ total: 1, poisoned: 1, poisonedNotDeadLettered: 0, unexpected: 0 });
  });

  it('reports lost and doubled articles, in the projection and in the API', () => {
    const ledger = countLedger(
      facts({
        projectedRows: new Map([
          ['g0', 1],
          ['g2', 2],
        ]),
        apiUrls: ['http://feeds/chaos/r/0', 'http://feeds/chaos/r/0', 'http://feeds/chaos/r/2'],
      }),
    );
    expect(ledger.articles).toMatchObject({
      projectedMissing: 1,
      projectedMoreThanOnce: 1,
      apiMissing: 1,
      apiMoreThanOnce: 1,
    });
    expect(ledger.problems).toHaveLength(4);
  });

  it('reports an alert never delivered (failed attempts do not count), one under two ids, and strays', () => {
    const ledger = countLedger(
      facts({
        deliveries: [
          delivery(0),
          delivery(0, { webhookId: 'msg_other' }),
          delivery(2, { answer: 'timeout' }),
          delivery(2, { verified: false }),
          delivery(1),
        ],
      }),
    );
    expect(ledger.alerts).toMatchObject({
      expected: 2,
      deliveredAtLeastOnce: 1,
      missing: 1,
      deliveredWithDifferentIds: 1,
      unexpected: 1,
      badSignatures: 1,
    });
  });

  it('accepts only the poisoned messages in the dead-letter topics, and a fault must recover', () => {
    const ledger = countLedger(
      facts({
        deadLetters: [{ group: 'g', sourceTopic: 't', key: 'g1' }],
        faults: [
          {
            name: 'ClickHouse stopped',
            startedAt: 0,
            endedAt: 1,
            articlesMs: 3,
            alertsMs: null,
            recoveryMs: null,
          },
        ],
      }),
    );
    expect(ledger.deadLetters).toEqual({ total: 1, poisoned: 0, poisonedNotDeadLettered: 1, unexpected: 1 });
    expect(ledger.problems).toContain('no recovery after "ClickHouse stopped"');
  });
});
