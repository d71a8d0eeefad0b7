// The demo's API credentials: DEMO_API_KEY when it is set (a Professional
// client holding that key is created once and found again on later runs),
// otherwise a fresh key for this run. A client secret is issued every run so
// the demo can show how to get an OAuth access token; both are printed on the
// user's own terminal, and stored only as hashes.
import type { ClientRegistry } from '../clients/client-registry.ts';
import { generateApiKey } from '../clients/credentials.ts';

export interface DemoCredentials {
  apiKey: string;
  /** True when the key was made for this run (the user has to be shown it). */
  generated: boolean;
  clientId: string;
  clientSecret: string;
}

export async function demoCredentials(registry: ClientRegistry, chosenKey: string): Promise<DemoCredentials> {
  const apiKey = chosenKey || generateApiKey();
  const { client } = await registry.ensureClientWithKey(
    { name: 'Demo', plan: { plan: 'professional', limits: null } },
    apiKey,
  );
  const { clientSecret } = await registry.issueClientSecret(client.client_id);
  return { apiKey, generated: chosenKey === '', clientId: client.client_id, clientSecret };
}
