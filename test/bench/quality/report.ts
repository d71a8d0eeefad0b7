// Plain-text tables for the quality benchmark's output.

export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

export function fixed(value: number, digits = 4): string {
  return value.toFixed(digits);
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}

/** Runs `work` over and over until at least `seconds` have passed; items processed per second. */
export async function throughput(
  items: number,
  seconds: number,
  work: () => Promise<void> | void,
): Promise<{ perSecond: number; rounds: number; elapsedMs: number }> {
  const start = performance.now();
  let rounds = 0;
  while (performance.now() - start < seconds * 1000) {
    await work();
    rounds += 1;
  }
  const elapsedMs = performance.now() - start;
  return { perSecond: (items * rounds) / (elapsedMs / 1000), rounds, elapsedMs };
}
