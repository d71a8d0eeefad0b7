// Runs services/projector/main.ts as a real process, the way it is deployed:
// the live projector (no arguments) or a command such as `rebuild`.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ProjectorProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The last few kB it wrote (JSON logs on stdout, messages on stderr), for assertions and diagnosis. */
  output: () => string;
}

export function startProjector(env: Record<string, string>, args: string[] = []): ProjectorProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/projector/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return {
    child,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    output: () => output,
  };
}
