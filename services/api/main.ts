// The API process: configuration from the environment, then startApi.
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { loadApiConfig } from './config.ts';
import { startApi } from './server.ts';

let logger: Logger | undefined;

runProcess(
  async ({ onStop }) => {
    const config = loadApiConfig();
    logger = createLogger('api', config.LOG_LEVEL);
    const api = await startApi(config, logger);
    onStop(() => api.close());
    logger.info({ url: api.url }, 'api listening');
  },
  { logger: () => logger! },
);
