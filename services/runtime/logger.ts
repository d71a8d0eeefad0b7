// Structured JSON logs (pino). Anything that looks like a credential is
// redacted by path so that a careless `log.info({ headers })` cannot leak one.
import { pino, type Logger, type DestinationStream } from 'pino';
import { textWithoutUrlSecrets } from './url-secrets.ts';

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
      serializers: { err: errorWithoutUrlSecrets },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * An error as pino writes it, with the credentials of any URL in its message and stack hidden: a fetch
 * error names the URL it failed on, and a private feed's URL holds its token (url-secrets.ts).
 */
export function errorWithoutUrlSecrets(error: Error): ReturnType<typeof pino.stdSerializers.err> {
  const serialized = pino.stdSerializers.err(error);
  if (typeof serialized.message === 'string') serialized.message = textWithoutUrlSecrets(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = textWithoutUrlSecrets(serialized.stack);
  return serialized;
}
