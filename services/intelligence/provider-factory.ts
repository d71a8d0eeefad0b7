// Which enrichment provider a process uses: the embedded methods unless ENRICHMENT_PROVIDER=openai.
// The one place that knows every provider, so adding one touches its folder and this file.
import type { Redis } from 'ioredis';
import { oneOf, type ConfigOf } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import { createEmbeddedProvider } from './embedded/embedded-provider.ts';
import { openAiEnv, requireOpenAiConfig } from './openai/config.ts';
import { createMemoryCache } from './openai/memory-cache.ts';
import { createOpenAiProvider } from './openai/openai-provider.ts';
import { createRedisCache } from './openai/redis-cache.ts';
import type { EnrichmentProvider } from './provider.ts';

export const providerEnv = {
  ENRICHMENT_PROVIDER: oneOf(['embedded', 'openai'], 'embedded').describe(
    'Who enriches: `embedded` (offline, deterministic) or `openai` (an OpenAI-compatible server).',
  ),
  ...openAiEnv,
};

export type ProviderConfig = ConfigOf<typeof providerEnv> & { REDIS_KEY_PREFIX?: string };

export function createProvider(
  config: ProviderConfig,
  deps: { logger: Logger; redis?: Redis },
): EnrichmentProvider {
  if (config.ENRICHMENT_PROVIDER === 'embedded') return createEmbeddedProvider();
  const openai = requireOpenAiConfig(config);
  // Answers are shared through Redis when there is one, so no instance pays for a text another already sent.
  const cache = deps.redis
    ? createRedisCache({ redis: deps.redis, prefix: `${config.REDIS_KEY_PREFIX ?? ''}openai:completion:` })
    : createMemoryCache();
  return createOpenAiProvider({ config: openai, cache, logger: deps.logger });
}
