// The connection limits of the HTTP server (OWASP API4; docs/http-api.md, "Resource limits"), from the
// API's settings, checked against each other before anything is started.
import type { ServerOptions } from 'node:http';
import { ConfigError } from '../../runtime/config.ts';
import type { ApiConfig } from '../config.ts';

export type ServerLimitSettings = Pick<
  ApiConfig,
  | 'API_MAX_HEADER_BYTES'
  | 'API_HEADERS_TIMEOUT_MS'
  | 'API_REQUEST_TIMEOUT_MS'
  | 'API_KEEP_ALIVE_TIMEOUT_MS'
  | 'API_IDLE_TIMEOUT_MS'
  | 'API_REQUEST_DEADLINE_MS'
>;

/**
 * The connection limits of the HTTP server (docs/http-api.md, "Resource limits"): the head's size, the
 * time to send a head and a whole request, and how long a kept-alive connection waits. Node checks the
 * head and request timeouts on a timer; once a second (instead of its 30 s) closes a slow-loris
 * connection close to its timeout rather than up to half a minute later.
 */
export function serverLimits(config: ServerLimitSettings): ServerOptions {
  const problems: string[] = [];
  if (config.API_HEADERS_TIMEOUT_MS > config.API_REQUEST_TIMEOUT_MS)
    problems.push('API_HEADERS_TIMEOUT_MS: must not be longer than API_REQUEST_TIMEOUT_MS');
  if (config.API_IDLE_TIMEOUT_MS <= config.API_REQUEST_DEADLINE_MS)
    problems.push(
      'API_IDLE_TIMEOUT_MS: must be longer than API_REQUEST_DEADLINE_MS, or a slow answer would lose its connection before its deadline',
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    maxHeaderSize: config.API_MAX_HEADER_BYTES,
    headersTimeout: config.API_HEADERS_TIMEOUT_MS,
    requestTimeout: config.API_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.API_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1_000, config.API_HEADERS_TIMEOUT_MS),
  };
}
