// The OpenAI provider's settings from an environment map, as a process would load them (the shape,
// then the key it insists on): what the tests configure a provider with.
import { loadConfig } from '../../services/runtime/config.ts';
import {
  openAiEnv,
  requireOpenAiConfig,
  type OpenAiConfig,
} from '../../services/intelligence/openai/config.ts';

export function loadOpenAiConfig(env: Record<string, string | undefined>): OpenAiConfig {
  return requireOpenAiConfig(loadConfig(openAiEnv, env));
}
