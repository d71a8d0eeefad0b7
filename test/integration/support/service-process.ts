// Runs one of our services as a real process, the way it is deployed (services/<name>/main.ts with
// its environment), keeping the tail of its output for assertions and diagnosis.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeFlagsOf, serviceEnv } from '../../../services/runtime/node-flags.ts';
import { waitFor } from './wait.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** Each service exits within its 30 s grace (runtime/lifecycle.ts); a third of that is already slow. */
const slowStopMs = 10_000;

export interface ServiceProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The last few kB it wrote (JSON logs on stdout, messages on stderr). */
  output: () => string;
  /**
   * SIGTERM, and the exit code once it is gone. A stop that takes over 10 s prints what the service
   * wrote last, so a clean-up hook that runs out of time says which service held it and why.
   */
  stop: () => Promise<number | null>;
}

export function startServiceProcess(
  service: 'projector' | 'enricher' | 'narrator' | 'documentarian' | 'matcher' | 'clusterer' | 'dispatcher',
  env: Record<string, string>,
  args: string[] = [],
): ServiceProcess {
  const child = spawn(
    process.execPath,
    [...nodeFlagsOf(service), '--import', 'tsx', `services/${service}/main.ts`, ...args],
    {
      cwd: root,
      env: serviceEnv(service, { ...process.env, LOG_LEVEL: 'warn', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      const started = performance.now();
      child.kill('SIGTERM');
      const code = await exited;
      const ms = performance.now() - started;
      if (ms > slowStopMs)
        console.warn(
          `the ${service} took ${Math.round(ms)} ms to stop (exit code ${code}); its last output:\n` +
            output.slice(-3000),
        );
      return code;
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
