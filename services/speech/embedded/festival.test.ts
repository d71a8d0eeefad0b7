// The pool's behaviour (one long-lived process, a queue, replacing a crashed or hung process) is pinned
// with a stand-in that speaks festival's --pipe protocol; a last test runs the real Festival.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { durationMs, rmsDbfs } from '../pcm.ts';
import { SpeechRejectedError, SpeechUnavailableError } from '../provider.ts';
import { createFestival, festivalVoice, schemeString, type Festival } from './festival.ts';

let directory: string;
let log: string;

/**
 * Reads Scheme from stdin like `festival --pipe`: answers the setup with the ready marker, writes a
 * WAV of 10 ms per character for `(newsint_say ...)`, prints the done marker when asked. Text containing
 * "hang" gets no answer, "crash" ends the process, "crash-once" does so only in the first process,
 * "sigterm" makes it SIGTERM itself (as a supervisor stopping the process group would).
 * Every start and every text received is logged as a JSON line.
 */
const fakeFestival = (logFile: string, voice = festivalVoice) => `#!/usr/bin/env node
const fs = require('node:fs');
const log = (entry) => fs.appendFileSync(${JSON.stringify(logFile)}, JSON.stringify(entry) + '\\n');
log({ start: process.pid });
const unescape = (s) => s.replace(/\\\\(.)/g, '$1');
let buffered = '';
let silent = false;
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\\n');
  buffered = lines.pop();
  for (const line of lines) {
    if (silent) continue;
    if (line.includes('newsint-ready')) process.stdout.write('\\nnewsint-ready ${voice}\\n');
    const say = /^\\(newsint_say "((?:[^"\\\\]|\\\\.)*)" ([0-9.]+) "((?:[^"\\\\]|\\\\.)*)"\\)$/.exec(line);
    if (say) {
      const text = unescape(say[1]);
      log({ text, rate: Number(say[2]) });
      if (text.includes('hang')) { silent = true; continue; }
      if (text.includes('sigterm')) { process.kill(process.pid, 'SIGTERM'); silent = true; continue; }
      if (text.includes('crash-once') && fs.readFileSync(${JSON.stringify(logFile)}, 'utf8').split('start').length > 2) {}
      else if (text.includes('crash')) process.exit(3);
      const samples = Math.round(160 * text.length / Number(say[2]));
      const b = Buffer.alloc(44 + samples * 2);
      b.write('RIFF', 0); b.writeUInt32LE(36 + samples * 2, 4); b.write('WAVEfmt ', 8);
      b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(16000, 24);
      b.writeUInt32LE(32000, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34); b.write('data', 36);
      b.writeUInt32LE(samples * 2, 40);
      for (let i = 0; i < samples; i++) b.writeInt16LE(Math.round(5000 * Math.sin(i / 5)), 44 + 2 * i);
      fs.writeFileSync(unescape(say[3]), b);
    }
    const done = /newsint-done ([^\\\\]+)\\\\n/.exec(line);
    if (done) process.stdout.write('\\nnewsint-done ' + done[1] + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

async function fake(voice?: string): Promise<string> {
  const path = join(directory, `festival-${Math.random().toString(36).slice(2)}`);
  await writeFile(path, fakeFestival(log, voice));
  await chmod(path, 0o755);
  return path;
}

async function logged(): Promise<{ start?: number; text?: string; rate?: number }[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { start?: number; text?: string; rate?: number });
}
const starts = async () => (await logged()).filter((entry) => entry.start).length;

const open: Festival[] = [];
const festival = (options: Parameters<typeof createFestival>[0]) => {
  const created = createFestival(options);
  open.push(created);
  return created;
};

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'festival-test-'));
  log = join(directory, 'log.jsonl');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
  await rm(log, { force: true });
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('schemeString', () => {
  it('escapes what could end the string and removes control characters', () => {
    expect(schemeString('say "hi" \\ (now)')).toBe('"say \\"hi\\" \\\\ (now)"');
    expect(schemeString('a\nb\u0000c\u007fd')).toBe('"a b c d"');
  });
});

describe('festival pool', () => {
  it('serves every job from one long-lived process, in order', async () => {
    const pool = festival({ command: await fake() });
    const texts = ['one', 'two two', 'three three three', 'four', 'five'];
    const spoken = await Promise.all(texts.map((text) => pool.synthesize(text, 1)));
    expect(spoken.map((pcm) => pcm.samples.length)).toEqual(texts.map((t) => 160 * t.length));
    expect(spoken[0]!.sampleRate).toBe(16_000);
    expect(await starts()).toBe(1);
    expect((await logged()).flatMap((e) => (e.text ? [e.text] : []))).toEqual(texts);
  });

  it('keeps as many processes as configured busy', async () => {
    const pool = festival({ command: await fake(), processes: 2 });
    await Promise.all(['a', 'b', 'c', 'd'].map((text) => pool.synthesize(text, 1)));
    expect(await starts()).toBe(2);
  });

  it('hands festival the text exactly, quotes, backslashes and parentheses included', async () => {
    const pool = festival({ command: await fake() });
    const text = 'He said "stop" \\ then ") (format t "pwned") ("';
    await pool.synthesize(text, 1.5);
    expect((await logged()).find((e) => e.text)).toEqual({ text, rate: 1.5 });
  });

  it('replaces a hung process and fails the job after one retry, then serves the next job', async () => {
    const pool = festival({ command: await fake(), jobTimeoutMs: () => 300 });
    const error = await pool.synthesize('please hang', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechRejectedError);
    expect((error as Error).message).toMatch(/failed twice.*did not answer within 300 ms/);
    expect((await pool.synthesize('fine', 1)).samples.length).toBe(640);
    expect(await starts()).toBe(3);
  });

  it('fails a job whose process was stopped by SIGTERM as unavailable, without a retry or a warning', async () => {
    const warnings: unknown[] = [];
    const logger = createLogger('test', 'warn', {
      write: (line: string) => void warnings.push(JSON.parse(line)),
    });
    const pool = festival({ command: await fake(), logger });
    const error = await pool.synthesize('sigterm now', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechUnavailableError);
    expect((error as Error).message).toMatch(/festival was stopped by SIGTERM from outside/);
    expect((await logged()).filter((e) => e.text)).toHaveLength(1);
    expect(warnings).toEqual([]);
    // The next job starts a fresh process.
    expect((await pool.synthesize('fine', 1)).samples.length).toBe(640);
    expect(await starts()).toBe(2);
  });

  it('retries a job whose process crashed on a fresh process', async () => {
    const pool = festival({ command: await fake() });
    expect((await pool.synthesize('crash-once', 1)).samples.length).toBe(1600);
    expect(await starts()).toBe(2);
  });

  it('says which packages to install when festival is missing', async () => {
    const pool = festival({ command: join(directory, 'no-such-festival') });
    const error = await pool.synthesize('hello', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechUnavailableError);
    expect((error as Error).message).toMatch(/festvox-us-slt-hts/);
  });

  it('refuses to run without the HTS voice', async () => {
    const pool = festival({ command: await fake('kal_diphone') });
    const error = await pool.synthesize('hello', 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechUnavailableError);
    expect((error as Error).message).toMatch(/no voice cmu_us_slt_arctic_hts/);
  });

  it('fails queued jobs and ends its processes on close', async () => {
    const pool = festival({ command: await fake() });
    await pool.synthesize('warm', 1);
    const [pid] = (await logged()).flatMap((e) => (e.start ? [e.start] : []));
    const running = pool.synthesize('please hang', 1).catch((e: unknown) => e);
    const queued = pool.synthesize('queued', 1).catch((e: unknown) => e);
    await pool.close();
    expect(await queued).toBeInstanceOf(SpeechUnavailableError);
    expect(await running).toBeInstanceOf(SpeechUnavailableError);
    expect(() => process.kill(pid!, 0)).toThrow();
  });
});

describe('the real Festival', () => {
  it('speaks English with the HTS voice at 32 kHz, faster with a higher rate', async () => {
    const pool = festival({});
    const text = 'The committee met on Monday and agreed to publish the report next week.';
    const normal = await pool.synthesize(text, 1);
    const fast = await pool.synthesize(text, 2);
    expect(normal.sampleRate).toBe(32_000);
    // 13 words at 120 to 220 words a minute, with the engine's own leading and trailing silence.
    expect(durationMs(normal)).toBeGreaterThan((13 / 220) * 60_000);
    expect(durationMs(normal)).toBeLessThan((13 / 120) * 60_000 + 1000);
    expect(durationMs(normal) / durationMs(fast)).toBeGreaterThan(1.6);
    expect(rmsDbfs(normal)).toBeGreaterThan(-40);
    // Text that would close the string and run code, were it not escaped, is simply spoken.
    const tricky = await pool.synthesize('He said ") (quit) (" and \\ left.', 1);
    expect(durationMs(tricky)).toBeGreaterThan(1000);
  }, 20_000);
});
