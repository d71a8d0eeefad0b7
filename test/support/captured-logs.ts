// A logger, as services create them (runtime/logger.ts), whose lines a unit test reads back parsed.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../services/runtime/logger.ts';

export function capturedLogs(level = 'info'): { lines: Record<string, unknown>[]; logger: Logger } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', level, destination) };
}
