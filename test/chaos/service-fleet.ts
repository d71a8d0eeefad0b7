// The run's services as real child processes (services/<name>/main.ts, as deployed), each with the
// run's environment. The fault schedule SIGKILLs them; a killed one is started again with the same
// environment. A process that exits when nobody stopped it (a crash on an outage, say) is started again
// after a pause, as an orchestrator would, and counted: the report names every such exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeFlagsOf, serviceEnv } from '../../services/runtime/node-flags.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const chaosServices = [
  'poller',
  'projector',
  'enricher',
  'narrator',
  'matcher',
  'dispatcher',
  'api',
] as const;
export type ChaosService = (typeof chaosServices)[number];

export interface ServiceInstance {
  service: ChaosService;
  child: ChildProcess;
  /** Set before the fleet kills or stops it, so its exit is not taken for a crash. */
  stopping: boolean;
  exited: Promise<void>;
  output(): string;
}

export interface UnexpectedExit {
  service: ChaosService;
  at: number;
  code: number | null;
  signal: string | null;
  tail: string;
}

/** What a service writes once it is serving: a log message, or (the API) an answering /readyz. */
const readyLine: Record<Exclude<ChaosService, 'api'>, string> = {
  poller: 'partitions assigned',
  projector: 'partitions assigned',
  enricher: 'partitions assigned',
  narrator: 'partitions assigned',
  matcher: 'partitions assigned',
  dispatcher: 'dispatcher started',
};

export class ServiceFleet {
  private readonly running = new Map<ChaosService, ServiceInstance[]>();
  readonly unexpectedExits: UnexpectedExit[] = [];
  private closed = false;

  constructor(
    private readonly env: (service: ChaosService) => Record<string, string>,
    private readonly logDir: string,
    private readonly apiUrl: string,
    private readonly log: (line: string) => void,
  ) {}

  instances(service: ChaosService): ServiceInstance[] {
    return this.running.get(service) ?? [];
  }

  start(service: ChaosService): ServiceInstance {
    const flags = nodeFlagsOf(service);
    const child = spawn(process.execPath, [...flags, '--import', 'tsx', `services/${service}/main.ts`], {
      cwd: root,
      env: serviceEnv(service, { ...process.env, LOG_LEVEL: 'info', ...this.env(service) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const file: WriteStream = createWriteStream(`${this.logDir}/${service}-${child.pid}.log`);
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-16_000);
      file.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const instance: ServiceInstance = {
      service,
      child,
      stopping: false,
      exited: new Promise((resolve) =>
        child.once('exit', (code, signal) => {
          file.end();
          this.running.set(
            service,
            this.instances(service).filter((i) => i !== instance),
          );
          if (!instance.stopping && !this.closed) {
            this.unexpectedExits.push({ service, at: Date.now(), code, signal, tail: tail.slice(-2000) });
            this.log(
              `  ! ${service} (pid ${child.pid}) exited by itself (${signal ?? code}); starting it again`,
            );
            setTimeout(() => {
              if (!this.closed && this.instances(service).length === 0) this.start(service);
            }, 2_000);
          }
          resolve();
        }),
      ),
      output: () => tail,
    };
    this.running.set(service, [...this.instances(service), instance]);
    return instance;
  }

  /** Starts a service and resolves once it serves (at most `timeoutMs`). */
  async startReady(service: ChaosService, timeoutMs = 120_000): Promise<ServiceInstance> {
    const instance = this.start(service);
    await this.ready(instance, timeoutMs);
    return instance;
  }

  async ready(instance: ServiceInstance, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (instance.child.exitCode !== null || instance.child.signalCode !== null)
        throw new Error(`${instance.service} exited while starting:\n${instance.output().slice(-3000)}`);
      const ready =
        instance.service === 'api'
          ? (await fetch(`${this.apiUrl}/readyz`).catch(() => null))?.ok === true
          : instance.output().includes(readyLine[instance.service]);
      if (ready) return;
      if (Date.now() > deadline)
        throw new Error(
          `${instance.service} not ready in ${timeoutMs} ms:\n${instance.output().slice(-3000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** SIGKILL (no chance to commit or leave its group) or SIGTERM (a graceful stop); resolves once gone. */
  async kill(instance: ServiceInstance, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    instance.stopping = true;
    instance.child.kill(signal);
    const timer = setTimeout(() => instance.child.kill('SIGKILL'), 30_000);
    await instance.exited;
    clearTimeout(timer);
  }

  /** Stops everything (SIGTERM, SIGKILL after 30 s) and starts nothing again. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()].flat();
    await Promise.all(all.map((i) => this.kill(i, 'SIGTERM')));
  }
}
