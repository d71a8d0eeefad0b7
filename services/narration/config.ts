// How an article is narrated, read by the narrator and by the API, which narrates on request the same way
// (services/api/audio/narration-on-request.ts): one setting for both, so the two make the same file.
import { audioFormats } from '../audio/audio-store.ts';
import { oneOf } from '../runtime/config.ts';
import { narrationTexts } from './narration-text.ts';

/** How an article is narrated: read by the narrator, and by the API, which narrates on request the same way. */
export const narrationEnv = {
  NARRATOR_TEXT: oneOf(narrationTexts, 'summary').describe(
    'What an article is read as: `summary` (the headline and the AI summary, about a minute) or `full` ' +
      '(the headline and the whole text).',
  ),
  NARRATOR_FORMAT: oneOf(audioFormats, 'mp3').describe(
    'Format of the narration files: mp3, ogg (Opus) or wav.',
  ),
};
