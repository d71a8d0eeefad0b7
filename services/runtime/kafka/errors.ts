// The consumer runner treats errors in two ways: a poison message can never
// succeed, so it goes to the dead-letter topic at once; anything else may be
// transient (a dependency restarting) and is retried with backoff first.

export class PoisonMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessageError';
  }
}

export const isPoison = (error: unknown): error is PoisonMessageError => error instanceof PoisonMessageError;

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
