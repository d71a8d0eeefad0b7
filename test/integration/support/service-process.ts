// Runs one of our services as a real process, the way it is deployed (services/<name>/main.ts with
// its environment), keeping the tail of its output for assertions and diagnosis.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The last few kB it wrote (JSON logs on stdout, messages on stderr). */
  output: () => string;
  /** SIGTERM, and the exit code once it is gone. */
  stop: () => Promise<number | null>;
}

export function startServiceProcess(
  service: 'projector' | 'enricher' | 'narrator' | 'documentarian' | 'matcher' | 'clusterer' | 'dispatcher',
  env: Record<string, string>,
  args: string[] = [],
): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/main.ts`, ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The projector: live (no arguments) or a command such as `rebuild`. */
export const startProjector = (env: Record<string, string>, args: string[] = []) =>
  startServiceProcess('projector', env, args);

type ServiceName = Parameters<typeof startServiceProcess>[0];

/**
 * Starts a service at info level and resolves once its output shows `ready` (a log message), within
 * 90 s; otherwise fails with what it wrote. `services` collects it for the caller's clean-up.
 */
export async function startReadyService(
  name: ServiceName,
  env: Record<string, string>,
  ready: string,
  services: ServiceProcess[],
): Promise<ServiceProcess> {
  const service = startServiceProcess(name, { LOG_LEVEL: 'info', ...env });
  services.push(service);
  await waitFor(() => service.output().includes(ready), `the ${name} to start`, 90_000).catch(
    (error: Error) => {
      throw new Error(`${error.message}\n${name} output:\n${service.output()}`);
    },
  );
  return service;
}
