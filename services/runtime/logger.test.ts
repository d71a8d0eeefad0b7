import { describe, expect, it } from 'vitest';
import { capturedLogs } from '../../test/support/captured-logs.ts';

const capture = () => capturedLogs('info');

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
