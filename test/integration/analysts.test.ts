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

  it('cannot raise its limits or have the server fetch an address (table functions)', async () => {
    await expect(analyst.command('SET max_execution_time = 3600')).rejects.toThrow(
      /readonly|should not be changed|Cannot/i,
    );
    await expect(
      analyst.query("SELECT * FROM url('http://127.0.0.1:9/', 'TabSeparated', 'line String')"),
    ).rejects.toThrow(/Table functions are forbidden|Not enough privileges/i);
  });
});
