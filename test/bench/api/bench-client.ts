// The bench's own API client: a tenant on the enterprise plan with an hourly
// allowance no load run reaches (the rate limit is still checked on every
// request, as for any client), created through the registry the admin command
// uses. It lives in the run's namespace (its news.clients.v1), removed with
// the namespace when the bench ends, so it needs no revoking.
import type { Kafka } from 'kafkajs';
import { ClientRegistry, kafkaClientStore } from '../../../services/clients/client-registry.ts';
import type { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import type { EventCodec } from '../../../services/runtime/kafka/registry.ts';

export interface BenchClient {
  /** The Authorization header to send. */
  authorization: string;
}

export async function createBenchClient(
  deps: { kafka: Kafka; codec: EventCodec; producer: EventProducer },
  name: string,
): Promise<BenchClient> {
  const registry = new ClientRegistry({ store: kafkaClientStore(deps) });
  const issued = await registry.createTenant(
    {
      name,
      plan: {
        plan: 'enterprise',
        limits: { calls_per_hour: 1_000_000_000, live_connections: null, alert_endpoints: null },
      },
      scopes: ['read:feeds'],
    },
    { apiKey: true },
  );
  return { authorization: `Bearer ${issued.apiKey!}` };
}
