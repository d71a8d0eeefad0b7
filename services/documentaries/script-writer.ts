// Who writes a documentary's script: the embedded extractive writer (script.ts), or the enrichment
// provider's model when ENRICHMENT_PROVIDER=openai. Whatever a model writes is held to checkScript
// before it is used; a script that fails it, or a model that cannot be reached after the client's own
// retries, gives way to the embedded writer, so a listener always gets a documentary and never an
// invented fact. The documentary's events record which writer's script was narrated.
import type { Logger } from '../runtime/logger.ts';
import { checkScript, writeScript, type Script, type ScriptInput } from './script.ts';

export interface WrittenScript {
  script: Script;
  /** "embedded", or "openai/<model>". */
  writer: string;
}

export interface ScriptWriter {
  /** "embedded", or "openai/<model>". */
  readonly name: string;
  /** The script for the input; throws ScriptRejectedError when the writer's answer cannot be used. */
  write(input: ScriptInput, options?: { signal?: AbortSignal }): Promise<Script>;
}

/** A writer's answer that breaks the rules: checkScript's problems, or an answer of the wrong shape. */
export class ScriptRejectedError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ScriptRejectedError';
  }
}

export const embeddedScriptWriter: ScriptWriter = {
  name: 'embedded',
  write: (input) => Promise.resolve(writeScript(input)),
};

/**
 * Writes with `primary` and checks its script against the stories, the topic and the period; on a
 * failure or a rejected script, writes with the embedded writer instead and says why in the log (the
 * first problems, never the articles). An abort is passed on: the documentary is being stopped.
 */
export function checkedScriptWriter(
  primary: ScriptWriter,
  logger: Logger,
): { write(input: ScriptInput, options?: { signal?: AbortSignal }): Promise<WrittenScript> } {
  return {
    async write(input, options) {
      if (primary === embeddedScriptWriter) return { script: writeScript(input), writer: 'embedded' };
      try {
        const script = await primary.write(input, options);
        const problems = checkScript(script, input.stories, input);
        if (problems.length > 0) throw new ScriptRejectedError('the script fails checkScript', problems);
        return { script, writer: primary.name };
      } catch (error) {
        if (options?.signal?.aborted) throw error;
        const problems = error instanceof ScriptRejectedError ? error.problems : [];
        logger.warn(
          {
            writer: primary.name,
            error: error instanceof Error ? error.message : String(error),
            problems: problems.slice(0, 5),
            problemCount: problems.length,
          },
          'script not usable; the embedded writer writes it instead',
        );
        return { script: writeScript(input), writer: 'embedded' };
      }
    },
  };
}
