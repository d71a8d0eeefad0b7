// The one place where a query chooses the latest version of each row of a read model.
//
// Every read model is a ReplacingMergeTree: each event appends a row, `version` (the Kafka offset of the
// event) orders the rows of a key, and a background merge eventually keeps only the newest. Until it
// has, a table may hold several versions of a row, and a reader chooses the newest itself. FINAL does
// that too, but merges every column of every row the query touches and takes no condition on the
// versions; this reads only the columns asked for, with `argMax(column, version)` over the key.
//
// The SQL has two levels because ClickHouse substitutes an alias wherever its name appears in the
// same SELECT: `argMax(url, version) AS url` breaks any condition on `url` ("aggregate function found
// in WHERE"). The inner level names its aggregates `latest_url`, the outer one gives back `url`, so a
// caller writes plain SQL on the answer with the table's own column names.
import { identifier, raw, type RawSql } from './literal.ts';

export interface LatestVersionsOf {
  /** The read model's table. */
  table: string;
  /** What identifies a row across its versions (the table's ORDER BY key): one answer row per key. */
  key: string | readonly string[];
  /**
   * Columns wanted, each as it stands in the key's latest version, under its own name. `version` itself
   * may be one (then it is the highest version). As with every ClickHouse aggregate, a NULL is passed
   * over: a Nullable column reads as its latest value that is not NULL.
   */
  columns: readonly string[];
  /**
   * Conditions on the versions (written with sql``), applied before the latest is chosen, on the table
   * itself: "the latest successful enrichment" is `status = 'succeeded'` here. Conditions on the key
   * belong here too, so the primary key narrows the read: ClickHouse 18.16 does not push an outer WHERE
   * into a subquery. A condition on the latest state goes around the answer instead.
   */
  where?: readonly string[];
  /** More aggregates over all the versions considered, by the name they answer under (e.g. a count). */
  aggregates?: Readonly<Record<string, string>>;
  /** What orders the versions: `version` unless the table keeps a history ordered by something else. */
  orderedBy?: string;
}

/**
 * A subquery, in parentheses, to read FROM: the key's columns, then `columns`, then `aggregates`.
 *   sql`SELECT url FROM ${latestVersions({ table: 'webhooks', key: 'webhook_id', columns: ['url', 'deleted'] })}
 *       WHERE deleted = 0`
 */
export function latestVersions(of: LatestVersionsOf): RawSql {
  const keys = (typeof of.key === 'string' ? [of.key] : of.key).map(identifier);
  if (keys.length === 0) throw new Error('latestVersions needs a key');
  const columns = of.columns.map(identifier);
  const aggregates = Object.entries(of.aggregates ?? {}).map(([name, expression]) => ({
    name: identifier(name),
    expression,
  }));
  const names = [...keys, ...columns, ...aggregates.map((a) => a.name)];
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined)
    throw new Error(`"${twice}" is asked for twice (keys are always part of the answer)`);
  const by = identifier(of.orderedBy ?? 'version');

  const inner = [
    ...keys,
    ...columns.map((c) => `argMax(${c}, ${by}) AS latest_${c}`),
    ...aggregates.map((a) => `${a.expression} AS aggregate_${a.name}`),
  ];
  const outer = [
    ...keys,
    ...columns.map((c) => `latest_${c} AS ${c}`),
    ...aggregates.map((a) => `aggregate_${a.name} AS ${a.name}`),
  ];
  const where = of.where?.length ? ` WHERE ${of.where.map((w) => `(${w})`).join(' AND ')}` : '';
  return raw(
    `(SELECT ${outer.join(', ')}
FROM (SELECT ${inner.join(', ')}
  FROM ${identifier(of.table)}${where}
  GROUP BY ${keys.join(', ')}))`,
  );
}

/**
 * The latest version of each key's row as it stands, NULLs included: the rows sorted by key and newest
 * version first, one kept per key (LIMIT BY). For a handful of keys and many columns (a page of a list)
 * this costs about half of latestVersions' GROUP BY, which builds an aggregate state for every column of
 * every key. No `aggregates`; a Nullable column reads as it is in the latest version.
 */
export function latestRows(of: Omit<LatestVersionsOf, 'aggregates'>): RawSql {
  const keys = (typeof of.key === 'string' ? [of.key] : of.key).map(identifier);
  if (keys.length === 0) throw new Error('latestRows needs a key');
  const columns = of.columns.map(identifier).filter((c) => !keys.includes(c));
  const by = identifier(of.orderedBy ?? 'version');
  const where = of.where?.length ? ` WHERE ${of.where.map((w) => `(${w})`).join(' AND ')}` : '';
  return raw(
    `(SELECT ${[...keys, ...columns].join(', ')}
FROM ${identifier(of.table)}${where}
ORDER BY ${keys.map((k) => `${k} DESC`).join(', ')}, ${by} DESC
LIMIT 1 BY ${keys.join(', ')})`,
  );
}
