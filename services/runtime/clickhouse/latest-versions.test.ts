import { describe, expect, it } from 'vitest';
import { latestRows, latestVersions } from './latest-versions.ts';
import { sql } from './literal.ts';

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('latestVersions', () => {
  it('chooses each column by the highest version of its key, and gives it back under its own name', () => {
    const q = latestVersions({ table: 'webhooks', key: 'webhook_id', columns: ['url', 'deleted'] });
    expect(oneLine(q.text)).toBe(
      '(SELECT webhook_id, latest_url AS url, latest_deleted AS deleted ' +
        'FROM (SELECT webhook_id, argMax(url, version) AS latest_url, argMax(deleted, version) AS latest_deleted ' +
        'FROM webhooks GROUP BY webhook_id))',
    );
  });

  it('applies the conditions to the versions before choosing, each in parentheses', () => {
    const q = latestVersions({
      table: 'article_enrichments',
      key: 'article_id',
      columns: ['summary'],
      where: [sql`status = ${'succeeded'}`, "hasAny(keywords, ['a']) OR hasAny(entity_names, ['a'])"],
    });
    expect(oneLine(q.text)).toContain(
      "FROM article_enrichments WHERE (status = 'succeeded') AND (hasAny(keywords, ['a']) OR hasAny(entity_names, ['a'])) GROUP BY article_id",
    );
  });

  it('orders versions by another column when the table keeps a history', () => {
    const q = latestVersions({
      table: 'feed_polls',
      key: 'source_id',
      columns: ['status'],
      orderedBy: 'occurred_at',
    });
    expect(q.text).toContain('argMax(status, occurred_at) AS latest_status');
  });

  it('adds aggregates over all versions under their own names', () => {
    const q = latestVersions({
      table: 'webhook_deliveries',
      key: 'delivery_id',
      columns: ['status'],
      aggregates: { attempts: "countIf(status != 'pending')" },
    });
    expect(oneLine(q.text)).toContain('latest_status AS status, aggregate_attempts AS attempts FROM');
    expect(q.text).toContain("countIf(status != 'pending') AS aggregate_attempts");
  });

  it('groups by every column of a composite key', () => {
    const q = latestVersions({
      table: 'source_subscriptions',
      key: ['tenant_id', 'source_id'],
      columns: ['subscribed'],
    });
    expect(q.text).toMatch(/^\(SELECT tenant_id, source_id, latest_subscribed AS subscribed\n/);
    expect(q.text).toContain('GROUP BY tenant_id, source_id))');
  });

  it('interpolates into sql`` as SQL, not as a quoted value', () => {
    const q = latestVersions({ table: 'monitors', key: 'monitor_id', columns: ['deleted'] });
    expect(sql`SELECT monitor_id FROM ${q} WHERE deleted = ${0}`).toBe(
      `SELECT monitor_id FROM ${q.text} WHERE deleted = 0`,
    );
  });

  it('refuses names that are not identifiers', () => {
    expect(() => latestVersions({ table: 'x; DROP TABLE y', key: 'id', columns: [] })).toThrow(/identifier/);
    expect(() => latestVersions({ table: 't', key: 'id', columns: ['a, b'] })).toThrow(/identifier/);
    expect(() => latestVersions({ table: 't', key: 'id', columns: [], orderedBy: 'v DESC' })).toThrow(
      /identifier/,
    );
    expect(() =>
      latestVersions({ table: 't', key: 'id', columns: [], aggregates: { 'n AS m': 'count()' } }),
    ).toThrow(/identifier/);
  });

  it('refuses a name asked for twice, which ClickHouse would answer ambiguously', () => {
    expect(() => latestVersions({ table: 't', key: 'id', columns: ['id'] })).toThrow(/twice/);
    expect(() =>
      latestVersions({ table: 't', key: 'id', columns: ['n'], aggregates: { n: 'count()' } }),
    ).toThrow(/twice/);
  });

  it('refuses an empty key', () => {
    expect(() => latestVersions({ table: 't', key: [], columns: ['a'] })).toThrow(/key/);
  });
});

describe('latestRows', () => {
  it('keeps the newest version of each key as it stands, conditions applied before', () => {
    const q = latestRows({
      table: 'article_list',
      key: ['published_at', 'article_id'],
      columns: ['title', 'updated_at'],
      where: [sql`facet = ${''}`],
    });
    expect(oneLine(q.text)).toBe(
      "(SELECT published_at, article_id, title, updated_at FROM article_list WHERE (facet = '') " +
        'ORDER BY published_at DESC, article_id DESC, version DESC LIMIT 1 BY published_at, article_id)',
    );
  });
});
