// Numbered migrations (projections/migrations/NNNN_name.sql), each applied
// once and recorded with a checksum in schema_migrations. Editing a migration
// that has already been applied is refused: write a new one instead.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.ts';
import type { ClickHouse } from './client.ts';
import { sql } from './literal.ts';
import { splitStatements } from './statements.ts';

export const migrationsDirectory = fileURLToPath(
  new URL('../../../projections/migrations/', import.meta.url),
);

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

const fileName = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export function readMigrations(directory = migrationsDirectory): Migration[] {
  const migrations = readdirSync(directory)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const match = fileName.exec(f);
      if (!match) throw new Error(`migration file ${f} must be named NNNN_lowercase_name.sql`);
      const text = readFileSync(path.join(directory, f), 'utf8');
      const statements = splitStatements(text);
      if (statements.length === 0) throw new Error(`migration ${f} has no statements`);
      return {
        version: Number(match[1]),
        name: match[2]!,
        checksum: createHash('sha256').update(text).digest('hex'),
        statements,
      };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (i > 0 && migrations[i - 1]!.version === m.version)
      throw new Error(`two migrations are numbered ${m.version}`);
  });
  return migrations;
}

export async function migrate(
  clickhouse: ClickHouse,
  migrations: readonly Migration[],
  logger: Logger,
): Promise<{ applied: number[]; skipped: number[] }> {
  await clickhouse.command(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version UInt32, name String, checksum String, applied_at DateTime
     ) ENGINE = MergeTree ORDER BY version`,
  );
  const done = new Map(
    (
      await clickhouse.query<{ version: number; checksum: string }>(
        'SELECT version, checksum FROM schema_migrations',
      )
    ).map((r) => [Number(r.version), r.checksum]),
  );
  const applied: number[] = [];
  const skipped: number[] = [];
  for (const m of migrations) {
    const recorded = done.get(m.version);
    if (recorded !== undefined) {
      if (recorded !== m.checksum) {
        throw new Error(
          `migration ${m.version}_${m.name} was changed after it was applied (checksum differs); add a new migration instead`,
        );
      }
      skipped.push(m.version);
      continue;
    }
    for (const statement of m.statements) await clickhouse.command(statement);
    await clickhouse.command(
      sql`INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (${m.version}, ${m.name}, ${m.checksum}, now())`,
    );
    logger.info({ version: m.version, name: m.name }, 'migration applied');
    applied.push(m.version);
  }
  return { applied, skipped };
}
