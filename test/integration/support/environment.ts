// Where the integration suites find Kafka, the registry, ClickHouse and Redis
// (docs/operations.md, "The local stack"): services named in environment variables are used
// as they are; else containers when a Docker engine answers; else the native
// stack (`npm run stack -- up`).

export type StackSource = 'external' | 'containers' | 'native';

export const serviceVariables = [
  'KAFKA_BROKERS',
  'SCHEMA_REGISTRY_URL',
  'CLICKHOUSE_URL',
  'REDIS_URL',
] as const;

export function chooseStackSource(
  env: Record<string, string | undefined>,
  dockerReachable: boolean,
): StackSource {
  if (serviceVariables.some((v) => env[v])) return 'external';
  return dockerReachable ? 'containers' : 'native';
}

export async function dockerReachable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the same images as docker-compose.yml on the same loopback ports, so
 * the services' defaults apply unchanged. Returns a function that stops them.
 */
export async function startContainers(): Promise<() => Promise<void>> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const started = await Promise.all([
    new GenericContainer('apache/kafka:3.9.1')
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENERS: 'HOST://:19092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: 'HOST://127.0.0.1:9092',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'HOST:PLAINTEXT,CONTROLLER:PLAINTEXT',
        KAFKA_INTER_BROKER_LISTENER_NAME: 'HOST',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .withExposedPorts({ container: 19092, host: 9092 })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer('apicurio/apicurio-registry:3.0.9')
      .withEnvironment({ 'apicurio.rules.global.compatibility': 'FULL_TRANSITIVE' })
      .withExposedPorts({ container: 8080, host: 8081 })
      .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080))
      .start(),
    new GenericContainer('clickhouse/clickhouse-server:25.8')
      .withEnvironment({ CLICKHOUSE_SKIP_USER_SETUP: '1' })
      .withExposedPorts({ container: 8123, host: 8123 })
      .withWaitStrategy(Wait.forHttp('/ping', 8123))
      .start(),
    new GenericContainer('redis:7')
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
      .withExposedPorts({ container: 6379, host: 6379 })
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .start(),
  ]);
  return async () => {
    await Promise.all(started.map((c) => c.stop()));
  };
}
