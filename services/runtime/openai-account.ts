// The OpenAI account settings every OpenAI-backed feature shares: enrichment (ENRICHMENT_PROVIDER=openai)
// and speech (SPEECH_PROVIDER=openai). One definition, so a process that loads both features' settings
// reads the two variables the same way and an operator sets the key once. Each feature keeps its own
// model, timeout and retry settings; speech may also point at another server or key
// (OPENAI_SPEECH_BASE_URL, OPENAI_SPEECH_API_KEY), since a chat server such as Ollama speaks no audio.
import { httpUrl } from './config.ts';
import { optionalSecret } from './secret.ts';

export const openAiAccountEnv = {
  OPENAI_BASE_URL: httpUrl('https://api.openai.com/v1').describe(
    "Any server speaking OpenAI's API (OpenAI, Azure-style proxies, vLLM, Ollama): enrichment sends chat " +
      'completions there, and speech its `audio/speech` requests unless `OPENAI_SPEECH_BASE_URL` is set.',
  ),
  OPENAI_API_KEY: optionalSecret({
    accepted: 'text',
    description:
      'Required when `ENRICHMENT_PROVIDER` is `openai`, and when `SPEECH_PROVIDER` is `openai` unless ' +
      '`OPENAI_SPEECH_API_KEY` is set.',
  }),
};
