// Settings for the integration suites: the same environment variables the
// services read, defaulting to the native stack (`npm run stack -- up`).
import { ClickHouse } from '../../../services/runtime/clickhouse/client.ts';
import { migrate, readMigrations } from '../../../services/runtime/clickhouse/migrations.ts';
import { infrastructureEnv, loadConfig } from '../../../services/runtime/config.ts';
import { createLogger } from '../../../services/runtime/logger.ts';

export const stack = loadConfig(infrastructureEnv);
export const testLogger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A client of the stack's ClickHouse on `database` (created if missing); `migrated`: with every migration. */
export async function testClickHouse(
  database: string,
  options: { migrated?: boolean } = {},
): Promise<ClickHouse> {
  const clickhouse = await ClickHouse.connect({
    url: stack.CLICKHOUSE_URL,
    user: stack.CLICKHOUSE_USER,
    password: stack.CLICKHOUSE_PASSWORD,
    database,
  });
  if (options.migrated) await migrate(clickhouse, readMigrations(), testLogger);
  return clickhouse;
}
