// Values reach SQL only through literal(); hostile strings must come back from
// the real ClickHouse exactly as they went in. Migrations run once each.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClickHouse,
  ClickHouseQueryError,
  ClickHouseUnavailableError,
} from '../../services/runtime/clickhouse/client.ts';
import { latestVersions } from '../../services/runtime/clickhouse/latest-versions.ts';
import { literal, sql } from '../../services/runtime/clickhouse/literal.ts';
import { migrate, readMigrations } from '../../services/runtime/clickhouse/migrations.ts';
import { testClickHouse, testLogger } from './support/stack.ts';

const hostile = [
  "'; DROP TABLE x; --",
  "O'Brien",
  "''",
  '\\',
  "\\'",
  "\\\\'",
  'back\\slash and \\n not a newline',
  'line one\nline two\r\nline three',
  'tab\there',
  'nul\u0000byte',
  'bell\u0007 and escape\u001b[31m',
  'unicode: Zürich — 東京 — مرحبا — 🚀👩‍👩‍👧',
  '"double" and `backtick`',
  '?',
  '{placeholder:String}',
  '$1 %s :name',
  '/* comment */ -- comment',
  '',
  ' leading and trailing ',
  '\u2028\u2029 line separators',
];

describe('ClickHouse', () => {
  let ch: ClickHouse;
  const database = `test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

  beforeAll(async () => {
    ch = await testClickHouse(database);
  });

  afterAll(async () => {
    await ch?.command(`DROP DATABASE IF EXISTS ${database}`);
    await ch?.close();
  });

  it('inserts every column type the read models use as RowBinary, and reads the same values back', async () => {
    await ch.command(
      `CREATE TABLE binary_rows (id String, small UInt8, count UInt32, big UInt64, score Float64,
        maybe Nullable(Float64), note Nullable(String), at DateTime('UTC'), tags Array(String), later Nullable(UInt32))
       ENGINE = MergeTree ORDER BY id`,
    );
    const rows = hostile.map((text, n) => ({
      id: `row-${String(n).padStart(2, '0')}`,
      small: n,
      count: 4_000_000_000 + n,
      big: 2 ** 40 + n,
      score: n / 3,
      maybe: n % 2 ? null : -n / 7,
      note: n % 3 ? text : null,
      at: 1_700_000_000 + n,
      tags: [text, `tag ${n}`],
      // `later` left out: the column's default, as with JSON rows
    }));
    await ch.insert('binary_rows', rows);
    const back = await ch.query<Record<string, unknown>>(
      `SELECT id, small, count, toString(big) AS big, score, maybe, note, toUnixTimestamp(at) AS at, tags, later
       FROM binary_rows ORDER BY id`,
    );
    expect(back).toEqual(rows.map((r) => ({ ...r, big: String(r.big), later: null })));
  });

  it('round-trips hostile strings through literal() unchanged, as values and in WHERE clauses', async () => {
    await ch.command('CREATE TABLE hostile (n UInt32, s String) ENGINE = MergeTree ORDER BY n');
    const values = hostile.map((s, n) => sql`(${n}, ${s})`).join(', ');
    await ch.command(`INSERT INTO hostile (n, s) VALUES ${values}`);
    const rows = await ch.query<{ n: number; s: string }>('SELECT n, s FROM hostile ORDER BY n');
    expect(rows.map((r) => r.s)).toEqual(hostile);
    for (const [n, s] of hostile.entries()) {
      const found = await ch.query<{ n: number }>(sql`SELECT n FROM hostile WHERE s = ${s}`);
      expect(
        found.map((r) => Number(r.n)),
        JSON.stringify(s),
      ).toEqual([n]);
    }
    // The table survived the DROP TABLE attempt.
    expect(await ch.query<{ c: string }>('SELECT count() AS c FROM hostile')).toEqual([
      { c: String(hostile.length) },
    ]);
  });

  it('selects a hostile literal directly', async () => {
    for (const s of hostile) {
      const [row] = await ch.query<{ v: string }>(`SELECT ${literal(s)} AS v`);
      expect(row!.v).toBe(s);
    }
  });

  it('reads the latest version of each row, choosing among the versions that pass the conditions', async () => {
    // A plain MergeTree keeps every version, as a read model does until a merge of its own choosing.
    await ch.command(
      `CREATE TABLE versioned (id String, status String, tags Array(String), note Nullable(String), version UInt64)
       ENGINE = MergeTree ORDER BY id`,
    );
    await ch.insert('versioned', [
      { id: 'a', status: 'ok', tags: ['x'], note: 'first', version: 1 },
      { id: 'a', status: 'failed', tags: ['y'], note: null, version: 3 },
      { id: 'b', status: 'ok', tags: ['x', 'z'], note: 'b', version: 2 },
    ]);
    const latest = (where: string[]) =>
      latestVersions({
        table: 'versioned',
        key: 'id',
        columns: ['status', 'tags', 'note', 'version'],
        aggregates: { versions: 'count()' },
        where,
      });

    expect(
      await ch.query(sql`SELECT id, status, tags, note, toString(version) AS version, toString(versions) AS versions
        FROM ${latest([])} ORDER BY id`),
    ).toEqual([
      // A NULL is passed over, as by every ClickHouse aggregate: the latest note that is not NULL.
      { id: 'a', status: 'failed', tags: ['y'], note: 'first', version: '3', versions: '2' },
      { id: 'b', status: 'ok', tags: ['x', 'z'], note: 'b', version: '2', versions: '1' },
    ]);
    // A condition on a column that is also asked for: applied to the versions, before the choice.
    expect(
      await ch.query(sql`SELECT id, status, tags FROM ${latest([sql`has(tags, ${'x'})`])} ORDER BY id`),
    ).toEqual([
      { id: 'a', status: 'ok', tags: ['x'] },
      { id: 'b', status: 'ok', tags: ['x', 'z'] },
    ]);
    // A condition on the latest state goes around the answer.
    expect(await ch.query(sql`SELECT id FROM ${latest([])} WHERE status = ${'ok'}`)).toEqual([{ id: 'b' }]);
  });

  it('applies each migration once, records it, and refuses an edited one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    writeFileSync(
      path.join(dir, '0001_articles.sql'),
      'CREATE TABLE a (id String) ENGINE = MergeTree ORDER BY id;\n',
    );
    writeFileSync(
      path.join(dir, '0002_more.sql'),
      "-- two statements; one migration\nCREATE TABLE b (id String) ENGINE = MergeTree ORDER BY id;\nINSERT INTO b VALUES ('x;y');\n",
    );
    const first = await migrate(ch, readMigrations(dir), testLogger);
    expect(first).toEqual({ applied: [1, 2], skipped: [] });
    const again = await migrate(ch, readMigrations(dir), testLogger);
    expect(again).toEqual({ applied: [], skipped: [1, 2] });
    expect(await ch.query<{ id: string }>('SELECT id FROM b')).toEqual([{ id: 'x;y' }]);
    expect(
      (
        await ch.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        )
      ).map((r) => [Number(r.version), r.name]),
    ).toEqual([
      [1, 'articles'],
      [2, 'more'],
    ]);

    writeFileSync(
      path.join(dir, '0001_articles.sql'),
      'CREATE TABLE a (id String, x UInt8) ENGINE = MergeTree ORDER BY id;\n',
    );
    await expect(migrate(ch, readMigrations(dir), testLogger)).rejects.toThrow(
      /migration 1_articles was changed after it was applied/,
    );
  });

  it('tells an unreachable server (wait and retry) from a wrong statement (a bug or bad data)', async () => {
    await expect(
      ClickHouse.connect({ url: 'http://127.0.0.1:1', user: 'default', password: '', database: 'news' }),
    ).rejects.toBeInstanceOf(ClickHouseUnavailableError);
    await expect(ch.query('SELEKT 1')).rejects.toBeInstanceOf(ClickHouseQueryError);
  });

  it('wraps a server error with the statement that failed', async () => {
    await expect(ch.query('SELECT * FROM no_such_table')).rejects.toThrow(
      /ClickHouse rejected: SELECT \* FROM no_such_table/,
    );
  });
});
