// A credential read from the environment, wrapped at the edge: a logged or serialised config shows
// "[redacted]", and only the code that hands it to a client ever reveals it. Shared by every setting
// that holds a key (OpenAI's, a Google service account's), so none can leak through a careless log line.
import { inspect } from 'node:util';
import { z } from 'zod';

export class SecretValue {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[redacted]';
  }
  toJSON(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return '[redacted]';
  }
}

/**
 * An optional secret setting: blank is refused, a value is wrapped in a SecretValue. Name the variable
 * like a secret (`…_KEY`, `…_TOKEN`, `…SECRET…`) so that loadConfig never echoes it (isSecretSetting).
 */
export const optionalSecret = (meta: { accepted: string; description: string }) =>
  z
    .string()
    .trim()
    .min(1, { message: 'expected a non-blank value' })
    .optional()
    .transform((value) => (value === undefined ? undefined : new SecretValue(value)))
    .meta(meta);
