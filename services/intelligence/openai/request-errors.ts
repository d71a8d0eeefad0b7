// What a failed request to the model server means to the enricher. The SDK has already retried
// what retrying can fix (429, 5xx, connection failures, timeouts); what is left is either
// transient at a longer scale (an OpenAiRequestError: the enricher backs off and tries again)
// or about the text itself (an EnrichmentRejectedError: recorded as failed at once).
// Server messages are passed on only with the key scrubbed out, and never for auth failures,
// whose messages echo part of the key.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { EnrichmentRejectedError } from '../provider.ts';

export class OpenAiRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status of the last attempt; null when no answer came back. */
    readonly status: number | null,
    /** OpenAI's error code (e.g. "invalid_api_key", "insufficient_quota") or our own for no answer. */
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'OpenAiRequestError';
  }
}

export interface FailureContext {
  operation: string;
  /** Where requests go, without credentials: e.g. "https://api.openai.com". */
  server: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
}

export function translateFailure(error: unknown, context: FailureContext): Error {
  const { operation, server, timeoutMs, maxRetries } = context;
  const scrub = (message: string) => scrubSecret(message, context.apiKey).slice(0, 300);
  const afterRetries = maxRetries > 0 ? ` after ${maxRetries} retries` : '';

  if (error instanceof APIUserAbortError) {
    return new OpenAiRequestError(`${operation} request to ${server} was aborted`, null, 'aborted');
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new OpenAiRequestError(
      `${server} did not answer ${operation} within ${timeoutMs} ms${afterRetries}`,
      null,
      'timeout',
    );
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${scrub(error.cause.message)}` : '';
    return new OpenAiRequestError(
      `could not reach ${server} for ${operation}${afterRetries}${cause}`,
      null,
      'connection',
    );
  }
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return new OpenAiRequestError(
      `${server} refused the API key (${error.status}${codeOf(error)}): check OPENAI_API_KEY`,
      error.status,
      error.code ?? null,
    );
  }
  if (error instanceof RateLimitError) {
    return new OpenAiRequestError(
      `${server} still rate-limited ${operation}${afterRetries} (429${codeOf(error)})`,
      429,
      error.code ?? null,
    );
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : null;
    const message = `${server} answered ${operation} with ${status ?? 'an error'}${codeOf(error)}: ${scrub(error.message)}`;
    // The text is too long for the model's context window: the same text always will be.
    if (error.code === 'context_length_exceeded') return new EnrichmentRejectedError(message);
    return new OpenAiRequestError(message, status, error.code ?? null);
  }
  if (error instanceof Error) return error;
  return new Error(`${operation} failed: ${scrub(String(error))}`);
}

/** "scheme://host[:port]/path" of a base URL: credentials embedded in it stay out of messages. */
export function describeServer(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the OpenAI-compatible server';
  }
}

function scrubSecret(message: string, secret: string): string {
  return secret.length > 0 ? message.split(secret).join('[redacted]') : message;
}

const codeOf = (error: { code?: string | null | undefined }) => (error.code ? ` ${error.code}` : '');
