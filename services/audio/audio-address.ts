// Where the API serves audio files, for the processes that name them without being the API: the narrator
// writes each narration's unsigned address into its event, the dispatcher signs URLs into webhook
// payloads. All of them read API_PUBLIC_URL; the API itself, when it is empty, uses the address it
// listens on.
import { httpUrl } from '../runtime/config.ts';

/** Used when API_PUBLIC_URL is empty: the API's default address on this machine. */
export const localApiUrl = 'http://127.0.0.1:8080';

// An http(s) URL when set: every audio_url and the OpenAPI server are built on it.
export const apiPublicUrlSetting = httpUrl()
  .optional()
  .transform((url) => url ?? '')
  .describe(
    "The API's public base URL (scheme, host and any path prefix): the server in /openapi.json, and the base " +
      'of every `audio_url` (API answers, narration events, webhook payloads). Empty: the API uses the ' +
      `address it listens on and the other processes ${localApiUrl}; set it wherever clients are not on this machine.`,
  );

/** The unsigned address of a stored file (the API answers it only with a signature). */
export const audioAddress = (baseUrl: string, key: string): string =>
  `${(baseUrl || localApiUrl).replace(/\/+$/, '')}/v1/audio/${key}`;
