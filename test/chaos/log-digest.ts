// What the services said while a fault went unrecovered, in a few lines. CI keeps a chaos run's output
// and nothing else (its service logs are on a machine that is gone), so a run that reports "no recovery"
// must carry in its output the warnings and errors that tell which service stalled and why: one line per
// (service, message), with how often and when first and last, and one error text as a sample.

export interface LogLine {
  service: string;
  /** pino's numeric level: 40 warn, 50 error, 60 fatal. */
  level: number;
  time: number;
  msg: string;
  /** The error's message, if the line carried one. */
  err: string | null;
}

export interface DigestEntry {
  service: string;
  level: number;
  msg: string;
  count: number;
  first: number;
  last: number;
  err: string | null;
}

/** The JSON log lines of one service at warn level or above; anything that is not one is skipped. */
export function parseLogLines(service: string, text: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('{')) continue;
    let entry: { level?: unknown; time?: unknown; msg?: unknown; err?: { message?: unknown } };
    try {
      entry = JSON.parse(raw) as typeof entry;
    } catch {
      continue;
    }
    if (typeof entry.level !== 'number' || entry.level < 40) continue;
    const time = typeof entry.time === 'string' ? Date.parse(entry.time) : Number(entry.time);
    if (!Number.isFinite(time)) continue;
    lines.push({
      service,
      level: entry.level,
      time,
      msg: typeof entry.msg === 'string' ? entry.msg : '',
      err: typeof entry.err?.message === 'string' ? entry.err.message : null,
    });
  }
  return lines;
}

/** Lines at or after `since`, grouped by service and message, latest first, at most `limit`. */
export function digest(lines: readonly LogLine[], since: number, limit: number): DigestEntry[] {
  const groups = new Map<string, DigestEntry>();
  for (const line of lines) {
    if (line.time < since) continue;
    const key = `${line.service}\u0000${line.msg}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { ...line, count: 1, first: line.time, last: line.time });
      continue;
    }
    group.count++;
    group.level = Math.max(group.level, line.level);
    group.first = Math.min(group.first, line.time);
    group.last = Math.max(group.last, line.time);
    group.err ??= line.err;
  }
  // What is still going on comes first: a stall shows as messages repeated until now, while the
  // outage's own (connection refused, say) stopped when it ended.
  return [...groups.values()].sort((a, b) => b.last - a.last || b.count - a.count).slice(0, limit);
}

/** One line per entry, times in seconds after `since`. */
export function formatDigest(entries: readonly DigestEntry[], since: number, maxErr = 160): string[] {
  const at = (t: number) => `${((t - since) / 1000).toFixed(0)} s`;
  const level = (l: number) => (l >= 60 ? 'FATAL' : l >= 50 ? 'error' : 'warn');
  return entries.map(
    (e) =>
      `${e.service} ${level(e.level)} ×${e.count} (${at(e.first)}–${at(e.last)}): ${e.msg}` +
      (e.err ? ` [${e.err.length > maxErr ? `${e.err.slice(0, maxErr)}…` : e.err}]` : ''),
  );
}
