// API clients for tests: a new tenant with one client per call, created through
// the same registry the admin command uses, so tests authenticate for real.
import type { Kafka } from 'kafkajs';
import {
  ClientRegistry,
  kafkaClientStore,
  type IssuedClient,
} from '../../../services/clients/client-registry.ts';
import type { EventProducer } from '../../../services/runtime/kafka/producer.ts';
import type { EventCodec } from '../../../services/runtime/kafka/registry.ts';

export interface TestClient {
  tenantId: string;
  clientId: string;
  apiKey: string;
  clientSecret: string;
}

export async function createTestClient(
  deps: { kafka: Kafka; codec: EventCodec; producer: EventProducer },
  options: {
    name: string;
    plan?: 'essentials' | 'professional' | 'enterprise';
    callsPerHour?: number;
    /** Overrides the plan's added sources (services/clients/plans.ts). */
    addedSources?: number;
    scopes?: string[];
  },
): Promise<TestClient> {
  const registry = new ClientRegistry({ store: kafkaClientStore(deps) });
  const plan = options.plan ?? 'enterprise';
  const issued: IssuedClient & { tenantId: string } = await registry.createTenant(
    {
      name: options.name,
      plan: {
        plan,
        limits:
          plan === 'enterprise' || options.addedSources !== undefined
            ? {
                calls_per_hour: plan === 'enterprise' ? (options.callsPerHour ?? 1_000_000) : null,
                live_connections: null,
                alert_endpoints: null,
                added_sources: options.addedSources ?? null,
              }
            : null,
      },
      ...(options.scopes ? { scopes: options.scopes } : {}),
    },
    { apiKey: true, clientSecret: true },
  );
  return {
    tenantId: issued.tenantId,
    clientId: issued.client.client_id,
    apiKey: issued.apiKey!,
    clientSecret: issued.clientSecret!,
  };
}
