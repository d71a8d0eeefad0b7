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

/**
 * A dependency (ClickHouse, an API) is down or overloaded: the message is fine
 * and must wait, never be dead-lettered. The runner retries it until it works,
 * which holds its partition; that is right while the sink is unavailable.
 */
export class DependencyUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DependencyUnavailableError';
  }
}

export const isUnavailable = (error: unknown): error is DependencyUnavailableError =>
  error instanceof DependencyUnavailableError;

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
