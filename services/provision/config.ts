import { commaList, infrastructureEnv, integer, loadConfig, text } from '../runtime/config.ts';
import { parseDuration } from '../runtime/kafka/topics.ts';

export const provisionEnv = {
  ...infrastructureEnv,
  TOPIC_PARTITIONS: integer(6, 1, 1000),
  TOPIC_REPLICATION_FACTOR: integer(1, 1, 10),
  WEBHOOK_RETRY_SCHEDULE: text('5s,5m,30m,2h,5h,10h,10h')
    .transform((s) => s.split(',').map((d) => d.trim()))
    .refine(
      (list) =>
        list.length > 0 &&
        list.every((d) => {
          try {
            return parseDuration(d) > 0;
          } catch {
            return false;
          }
        }),
      { message: 'expected comma-separated durations like 5s,5m,30m,2h' },
    ),
  PROVISION_SKIP: commaList().refine(
    (list) => list.every((x) => ['topics', 'schemas', 'migrations'].includes(x)),
    {
      message: 'expected a comma-separated subset of topics,schemas,migrations',
    },
  ),
};

export const loadProvisionConfig = (env?: NodeJS.ProcessEnv) => loadConfig(provisionEnv, env);
