import { commaList, infrastructureEnv, integer, loadConfig, optionalInteger } from '../runtime/config.ts';
import { retryScheduleSetting } from '../webhooks/retry-plan.ts';

export const provisionEnv = {
  ...infrastructureEnv,
  TOPIC_PARTITIONS: integer(6, 1, 1000).describe(
    'Partitions of each new topic: the most consumers of one group that can share its work. An existing ' +
      'topic with fewer is reported, never repartitioned.',
  ),
  TOPIC_REPLICATION_FACTOR: optionalInteger(1, 10).describe(
    'Replicas of each new topic. Unset: from the size of the Kafka cluster, 3 on three brokers or more ' +
      '(as many as there are below that), with `min.insync.replicas` one less (1 on a single broker), so ' +
      'that one broker down never stops writes. Existing topics keep their replicas.',
  ),
  WEBHOOK_RETRY_SCHEDULE: retryScheduleSetting.meta({
    accepted: 'comma-separated durations such as 5s, 5m, 2h (units ms, s, m, h, d)',
    description:
      'Delays between webhook delivery attempts: one retry topic is created per distinct delay. The ' +
      'dispatcher must be given the same schedule.',
  }),
  PROVISION_SKIP: commaList()
    .refine((list) => list.every((x) => ['topics', 'schemas', 'migrations'].includes(x)), {
      message: 'expected a comma-separated subset of topics,schemas,migrations',
    })
    .meta({
      accepted: 'comma-separated subset of topics, schemas, migrations',
      description: 'Steps of provisioning to leave out.',
    }),
};

export const loadProvisionConfig = (env?: NodeJS.ProcessEnv) => loadConfig(provisionEnv, env);
