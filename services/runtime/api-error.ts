// The error vocabulary of the API (docs/http-api.md, "Errors"): every failure answers
// {"error": {"code", "message"}} with the status its code implies. Handlers
// throw ApiError; the error middleware renders it and turns anything else into
// a 500 that names only the request id.

export const errorStatus = {
  invalid_parameter: 400,
  invalid_json: 400,
  malformed_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  plan_limit_reached: 403,
  forbidden: 403,
  url_expired: 403,
  not_found: 404,
  narration_not_ready: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  idempotency_key_in_progress: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  expectation_failed: 417,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  headers_too_large: 431,
  rate_limited: 429,
  live_connection_limit: 429,
  documentary_limit: 429,
  concurrency_limit: 429,
  too_many_failed_credentials: 429,
  internal_error: 500,
  service_unavailable: 503,
  provider_unavailable: 503,
  deadline_exceeded: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  readonly status: number;
  /**
   * The answer says what the request met at that moment, not what it is (a feed that could not be read,
   * a source not added yet): a retry with the same Idempotency-Key runs again instead of being given it.
   */
  readonly momentary: boolean;
  /** `cause`: what went wrong inside, for the log (app.ts writes it there); never sent to the caller. */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown; momentary?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = errorStatus[code];
    this.momentary = options?.momentary ?? false;
  }
}

export const invalidParameter = (parameter: string, problem: string) =>
  new ApiError('invalid_parameter', `${parameter}: ${problem}`);

/** An invalid_parameter about what the request met, not kept for retries (ApiError.momentary). */
export const momentarilyInvalid = (
  parameter: string,
  problem: string,
  headers: Record<string, string> = {},
) => new ApiError('invalid_parameter', `${parameter}: ${problem}`, headers, { momentary: true });

export const notFound = (what: string) => new ApiError('not_found', what);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id?: string };
}
