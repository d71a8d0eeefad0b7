import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stackDir, stackLibDir } from './stack-dirs.ts';

describe('the stack directories, as docker/stack/stack.sh decides them', () => {
  const made: string[] = [];
  const directory = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stack-dirs-'));
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is <repo>/.stack with its lib/ unless STACK_DIR says otherwise', () => {
    expect(stackDir({}, '/repo/')).toBe('/repo/.stack');
    expect(stackLibDir({}, '/nonexistent-repo/')).toBe('/nonexistent-repo/.stack/lib');
    expect(stackDir({ STACK_DIR: '/srv/stack' }, '/repo/')).toBe('/srv/stack');
    expect(stackLibDir({ STACK_DIR: '/nonexistent-stack' }, '/repo/')).toBe('/nonexistent-stack/lib');
  });

  it('takes STACK_LIB_DIR from the environment first, then as `up` recorded it, the last line counting', () => {
    const dir = directory();
    writeFileSync(
      path.join(dir, 'stack.env'),
      '# Settings of the stack\nSTACK_LIB_DIR=/old/jars\nKAFKA_PORT=9092\nSTACK_LIB_DIR=/shared/jars\n',
    );
    expect(stackLibDir({ STACK_DIR: dir })).toBe('/shared/jars');
    expect(stackLibDir({ STACK_DIR: dir, STACK_LIB_DIR: '/env/jars' })).toBe('/env/jars');
    writeFileSync(path.join(dir, 'stack.env'), 'KAFKA_PORT=9092\n');
    expect(stackLibDir({ STACK_DIR: dir })).toBe(path.join(dir, 'lib'));
  });
});
