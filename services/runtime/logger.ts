// Structured JSON logs (pino). Anything that looks like a credential is
// redacted by path so that a careless `log.info({ headers })` cannot leak one.
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

export const redactedPaths = [
  'password',
  'secret',
  'token',
  'apiKey',
  'api_key',
  'authorization',
  'client_secret',
  '*.password',
  '*.secret',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.authorization',
  '*.client_secret',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(
  service: string,
  level: string = 'info',
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: redactedPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
