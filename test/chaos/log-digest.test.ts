import { describe, expect, it } from 'vitest';
import { digest, formatDigest, parseLogLines } from './log-digest.ts';

const line = (level: number, time: string, msg: string, err?: string) =>
  JSON.stringify({ level, time, service: 'dispatcher', msg, ...(err ? { err: { message: err } } : {}) });

describe('the chaos run’s log digest', () => {
  it('keeps warnings and above, and skips what is not a JSON log line', () => {
    const text = [
      line(30, '2026-12-01T07:00:00.000Z', 'partitions assigned'),
      line(40, '2026-12-01T07:00:01.000Z', 'offset commit failed; will retry', 'not the coordinator'),
      'node: a stack trace line',
      '{"level":50,"time":"not a time","msg":"x"}',
      '{ broken',
      line(60, '2026-12-01T07:00:02.000Z', 'process failed', 'ECONNREFUSED'),
    ].join('\n');
    const lines = parseLogLines('dispatcher', text);
    expect(lines.map((l) => [l.level, l.msg, l.err])).toEqual([
      [40, 'offset commit failed; will retry', 'not the coordinator'],
      [60, 'process failed', 'ECONNREFUSED'],
    ]);
  });

  it('groups by service and message from a moment on, the latest first, within a limit', () => {
    const t0 = Date.parse('2026-12-01T07:00:00.000Z');
    const text = [
      line(40, '2026-12-01T06:59:59.000Z', 'before the fault'),
      line(40, '2026-12-01T07:00:01.000Z', 'offset commit failed; will retry'),
      line(50, '2026-12-01T07:00:05.000Z', 'offset commit failed; will retry', 'timeout'),
      line(40, '2026-12-01T07:00:03.000Z', 'offset commit failed; will retry'),
      line(50, '2026-12-01T07:00:02.000Z', 'once'),
      line(40, '2026-12-01T07:00:04.000Z', 'rare'),
    ].join('\n');
    const lines = [
      ...parseLogLines('dispatcher', text),
      ...parseLogLines('matcher', line(40, '2026-12-01T07:00:06.000Z', 'once')),
    ];
    const entries = digest(lines, t0, 3);
    expect(entries.map((e) => [e.service, e.msg, e.count])).toEqual([
      ['matcher', 'once', 1],
      ['dispatcher', 'offset commit failed; will retry', 3],
      ['dispatcher', 'rare', 1],
    ]);
    expect(entries[1]).toMatchObject({ level: 50, first: t0 + 1_000, last: t0 + 5_000, err: 'timeout' });
    expect(formatDigest(entries, t0, 4)).toEqual([
      'matcher warn ×1 (6 s–6 s): once',
      'dispatcher error ×3 (1 s–5 s): offset commit failed; will retry [time…]',
      'dispatcher warn ×1 (4 s–4 s): rare',
    ]);
  });
});
