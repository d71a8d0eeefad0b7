// The real API process (services/api/main.ts, or another entry that serves /readyz the same way) on a
// free loopback port, as a child the bench can measure (its pid) and must stop whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../integration/support/api-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/** Starts the API with `env` added to ours; resolves once /readyz answers 200. */
export async function startApi(
  root: string,
  env: Record<string, string>,
  entry = 'services/api/main.ts',
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), API_HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const api: ApiProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} while starting`);
    const ready = await fetch(`${api.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return api;
    await sleep(250);
  }
  await api.stop();
  throw new Error('the API was not ready within 60 s');
}
