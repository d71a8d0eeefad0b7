// Where the native stack (docker/stack/stack.sh) keeps its state and its fetched jars, as stack.sh
// itself decides: STACK_DIR (default <repo>/.stack) for pid files, data and logs; STACK_LIB_DIR for
// the jars, from the environment, else as `stack.sh up` recorded it in $STACK_DIR/stack.env, else
// $STACK_DIR/lib. The benchmarks and tests that read pid files or run the stack's Java tools use these
// rather than <repo>/.stack, which is wrong for a stack under another STACK_DIR (bench:ingest's
// ProducerPerformance failed there, and bench:webhooks silently measured no Kafka CPU).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

export function stackDir(env: NodeJS.ProcessEnv = process.env, root = repositoryRoot): string {
  return path.resolve(env.STACK_DIR || path.join(root, '.stack'));
}

export function stackLibDir(env: NodeJS.ProcessEnv = process.env, root = repositoryRoot): string {
  if (env.STACK_LIB_DIR) return path.resolve(env.STACK_LIB_DIR);
  const dir = stackDir(env, root);
  return recordedSetting(dir, 'STACK_LIB_DIR') ?? path.join(dir, 'lib');
}

/**
 * A setting `stack.sh up` recorded in <dir>/stack.env (`NAME=value` lines; the last one counts, as
 * stack.sh reads it), if it is there.
 */
function recordedSetting(dir: string, name: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'stack.env'), 'utf8');
  } catch {
    return undefined; // never brought up here
  }
  let value: string | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}=`)) value = line.slice(name.length + 1).trim() || undefined;
  }
  return value;
}
