import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../test/support/processes.ts';
import { attentionWorthy, startService, throttle, type ServiceProcess } from './service-process.ts';

const directories: string[] = [];
const started: ServiceProcess[] = [];
afterEach(() => {
  for (const service of started.splice(0)) service.kill();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function node(name: string, script: string, onAttention?: (line: string) => void): ServiceProcess {
  const logDirectory = mkdtempSync(path.join(tmpdir(), 'demo-service-'));
  directories.push(logDirectory);
  const service = startService({
    name,
    command: process.execPath,
    args: ['-e', script],
    cwd: logDirectory,
    env: process.env,
    logDirectory,
    ...(onAttention ? { onAttention } : {}),
  });
  started.push(service);
  return service;
}

describe('startService', () => {
  it('writes every output line to its log file and passes on only the warnings and errors', async () => {
    const seen: string[] = [];
    const service = node(
      'talker',
      `console.log(JSON.stringify({ level: 30, msg: 'polled' }));
       console.log(JSON.stringify({ level: 50, msg: 'poll failed', err: { message: 'ECONNREFUSED' } }));
       console.error('a library talking to the console');`,
      (line) => seen.push(line),
    );
    expect((await service.exited).code).toBe(0);
    expect(readFileSync(service.logFile, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(seen).toEqual(['error: poll failed: ECONNREFUSED']);
    expect(service.tail()).toHaveLength(3);
    expect(service.running).toBe(false);
  });

  it('stops a process that ignores SIGTERM with SIGKILL once the grace period is over', async () => {
    const service = node(
      'stubborn',
      `process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);`,
    );
    await waitForLine(service, 'ready');
    const exit = await service.stop(300);
    expect(exit.signal).toBe('SIGKILL');
    expect(isAlive(service.pid!)).toBe(false);
  });

  it('stops what the process started itself, too', async () => {
    const service = node(
      'parent',
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       console.log('child ' + child.pid);
       process.on('SIGTERM', () => {}); // leaves its child running: the group signal must reach it
       setInterval(() => {}, 1000);`,
    );
    const grandchild = Number((await waitForLine(service, 'child ')).split(' ')[1]);
    expect(isAlive(grandchild)).toBe(true);
    await service.stop(300);
    await expect.poll(() => isAlive(grandchild)).toBe(false);
  });

  it('reports a command that cannot be started instead of waiting for it forever', async () => {
    const logDirectory = mkdtempSync(path.join(tmpdir(), 'demo-service-'));
    directories.push(logDirectory);
    const service = startService({
      name: 'missing',
      command: path.join(logDirectory, 'no-such-command'),
      args: [],
      cwd: logDirectory,
      env: process.env,
      logDirectory,
    });
    expect((await service.exited).error).toBeInstanceOf(Error);
  });
});

async function waitForLine(service: ServiceProcess, prefix: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => (found = service.tail().find((line) => line.startsWith(prefix))), { timeout: 10_000 })
    .toBeDefined();
  return found!;
}

describe('attentionWorthy', () => {
  it('shortens JSON warnings and errors to level, message and error, and keeps quiet about the rest', () => {
    expect(attentionWorthy('{"level":40,"msg":"handler failed; retrying"}', false)).toBe(
      'warning: handler failed; retrying',
    );
    expect(attentionWorthy('{"level":60,"msg":"process failed","err":{"message":"boom"}}', false)).toBe(
      'fatal: process failed: boom',
    );
    expect(
      attentionWorthy(
        '{"level":40,"msg":"Response ListOffsets(key: 2, version: 3)","error":"This server is not the leader for that topic-partition"}',
        false,
      ),
    ).toBe(
      'warning: Response ListOffsets(key: 2, version: 3): This server is not the leader for that topic-partition',
    );
    expect(attentionWorthy('{"level":30,"msg":"poller started"}', true)).toBeNull();
  });

  it('passes plain lines on only when asked to', () => {
    expect(attentionWorthy('stack: kafka: already healthy', true)).toBe('stack: kafka: already healthy');
    expect(attentionWorthy('[ERROR][@clickhouse/client] Query failed', false)).toBeNull();
    expect(attentionWorthy('   ', true)).toBeNull();
  });
});

describe('throttle', () => {
  it('shows a burst, holds back the rest of the window, and says how many it held back', () => {
    let now = 0;
    const shown: [string, number][] = [];
    const pass = throttle((line, heldBack) => shown.push([line, heldBack]), {
      burst: 2,
      windowMs: 1_000,
      clock: () => now,
    });
    for (const line of ['a', 'b', 'c', 'd']) pass(line);
    now = 1_000;
    pass('e');
    pass('f');
    expect(shown).toEqual([
      ['a', 0],
      ['b', 0],
      ['e', 2],
      ['f', 0],
    ]);
  });
});
