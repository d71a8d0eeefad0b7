// Settings for the integration suites: the same environment variables the
// services read, defaulting to the native stack (`npm run stack -- up`).
import { infrastructureEnv, loadConfig } from '../../../services/runtime/config.ts';
import { createLogger } from '../../../services/runtime/logger.ts';

export const stack = loadConfig(infrastructureEnv);
export const testLogger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
