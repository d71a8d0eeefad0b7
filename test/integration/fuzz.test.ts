// Issue 19: hostile clients. The fuzzer (npm run fuzz, test/fuzz/) runs as a user starts it, with a fixed
// seed and 2,500 requests, against the real API on the real stack in a namespace of its own, and its
// oracle holds: no 5xx, every 4xx in its error shape with a message, nothing internal or secret in any
// body, every operation and every parameter and body field reached, and the API's heap after a full GC
// back near where it was before the run. The full run (20,000 requests) is `npm run fuzz`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { FuzzReport } from '../fuzz/report.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const directory = mkdtempSync(path.join(tmpdir(), 'fuzz-test-'));
const seed = '20261127';

function runFuzz(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', 'fuzz'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-30_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('the API under hostile clients', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(`answers 2,500 fuzz requests (seed ${seed}) within the oracle`, async () => {
    const reportFile = path.join(directory, 'report.json');
    const { code, output } = await runFuzz({
      FUZZ_SEED: seed,
      FUZZ_REQUESTS: '2500',
      FUZZ_REPORT: reportFile,
    });
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as FuzzReport;
    expect(report.seed).toBe(Number(seed));
    expect(report.requests).toBe(2500);
    expect(report.failures, output).toEqual([]);
    expect(Object.keys(report.byStatus).filter((status) => !/^[234]\d\d$/.test(status))).toEqual([]);
    expect(report.targetsMissed).toEqual([]);
    // The run reached the API's refusals and its successes, not one or the other.
    for (const status of ['200', '201', '400', '401', '403', '404', '405', '413', '415', '431'])
      expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
    expect(report.memory!.heapGrowthBytes).toBeLessThanOrEqual(report.memory!.heapMarginBytes);
    expect(code, output).toBe(0);
  }, 600_000);
});
