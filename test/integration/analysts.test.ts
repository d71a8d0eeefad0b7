// docs/analysts.md is true: every example query runs, as the read-only
// analyst user, against the read models; and that user cannot write.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouse, ClickHouseQueryError } from '../../services/runtime/clickhouse/client.ts';
import { stack } from './support/stack.ts';

const doc = readFileSync(new URL('../../docs/analysts.md', import.meta.url), 'utf8');
const examples = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());

describe('analysts', () => {
  let analyst: ClickHouse;

  beforeAll(async () => {
    analyst = await ClickHouse.connect(
      {
        url: stack.CLICKHOUSE_URL,
        user: process.env.CLICKHOUSE_ANALYST_USER ?? 'analyst',
        password: process.env.CLICKHOUSE_ANALYST_PASSWORD ?? 'analyst',
        database: 'news',
      },
      { createDatabase: false },
    );
  });
  afterAll(async () => analyst?.close());

  it('has example queries in the doc', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((q) => [q.split('\n')[0], q]))('runs: %s', async (_, query) => {
    await expect(analyst.query(query)).resolves.toBeInstanceOf(Array);
  });

  it('cannot write or change tables', async () => {
    await expect(analyst.command("INSERT INTO sources (source_id) VALUES ('nope')")).rejects.toBeInstanceOf(
      ClickHouseQueryError,
    );
    await expect(analyst.command('DROP TABLE articles')).rejects.toThrow(/readonly|Cannot/i);
  });

  it('runs at most 4 queries at once, so analysts cannot take the query slots the services need', async () => {
    // Five clients (a dashboard's panels) each asking a 2 s query: one is refused, named as such.
    const clients = await Promise.all(
      Array.from({ length: 5 }, () =>
        ClickHouse.connect(
          {
            url: stack.CLICKHOUSE_URL,
            user: process.env.CLICKHOUSE_ANALYST_USER ?? 'analyst',
            password: process.env.CLICKHOUSE_ANALYST_PASSWORD ?? 'analyst',
            database: 'news',
          },
          { createDatabase: false },
        ),
      ),
    );
    try {
      const outcomes = await Promise.allSettled(
        clients.map((c) => c.query('SELECT sleep(2) AS slept FROM system.one')),
      );
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(refused.length, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(1);
      expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
      for (const r of refused) expect(String(r.reason)).toMatch(/Too many simultaneous queries for user/);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('cannot raise its limits or have the server fetch an address (table functions)', async () => {
    await expect(analyst.command('SET max_execution_time = 3600')).rejects.toThrow(
      /readonly|should not be changed|Cannot/i,
    );
    await expect(
      analyst.query("SELECT * FROM url('http://127.0.0.1:9/', 'TabSeparated', 'line String')"),
    ).rejects.toThrow(/Table functions are forbidden|Not enough privileges/i);
  });
});
