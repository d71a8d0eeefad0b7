import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', 'info', destination) };
}

describe('the logger', () => {
  it('hides credentials by field name', () => {
    const { lines, logger } = capture();
    logger.info({ token: 't0k3n', headers: { authorization: 'Bearer x' }, nested: { secret: 's' } }, 'hello');
    const text = JSON.stringify(lines);
    for (const secret of ['t0k3n', 'Bearer x', '"s"']) expect(text).not.toContain(secret);
  });

  it("hides a feed's token in the URL an error names, in its message and its stack", () => {
    const { lines, logger } = capture();
    logger.warn(
      { err: new Error('HTTP 403 from https://a.example/rss?token=pr1vate&page=2') },
      'poll failed',
    );
    const err = lines[0]!.err as { message: string; stack: string; type: string };
    expect(err.message).toBe('HTTP 403 from https://a.example/rss?token=redacted&page=2');
    expect(err.stack).toContain('token=redacted');
    expect(JSON.stringify(lines)).not.toContain('pr1vate');
    expect(err.type).toBe('Error');
  });
});
