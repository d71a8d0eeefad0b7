// How much of a summary `voice_enabled` may narrate. Narration happens inside the request, so it takes
// what POST /v1/synthesize takes (5,000 characters, apiMaxCharacters) and no more: a summary of a
// 100,000-character text can be as long as the text (one unbroken "sentence" is kept whole), and speaking
// it would hold the request, and an engine process, for many minutes (the fuzzer found one that did).
import { invalidParameter } from '../../runtime/api-error.ts';
import { apiMaxCharacters } from '../../speech/synthesizer.ts';

/** The summary, if it can be narrated in one request; else 400 invalid_parameter naming the limit and the ways out. */
export function narratableSummary(summary: string): string {
  const characters = [...summary].length;
  if (characters > apiMaxCharacters)
    throw invalidParameter(
      'voice_enabled',
      `the summary is ${characters.toLocaleString('en-US')} characters and narration takes at ` +
        `most ${apiMaxCharacters.toLocaleString('en-US')}; ask for a shorter length, or leave voice_enabled off`,
    );
  return summary;
}
