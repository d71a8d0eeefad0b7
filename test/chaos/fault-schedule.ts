// The faults of a chaos run, one after another: each is done, held for its pause, undone; then the run
// waits until the pipeline has caught up (freshness back under the warm-up's p99) before the next, so
// each recovery is measured on its own. The default schedule kills each service in turn; the short one
// (CI) does one fault of each kind with shorter pauses.
import type { Admin } from 'kafkajs';
import type { ChaosService, ServiceFleet } from './service-fleet.ts';
import { chaosServices } from './service-fleet.ts';
import {
  brokerComponents,
  componentPid,
  killComponent,
  listeningPorts,
  redisPid,
  stackUp,
} from './stack-faults.ts';

export interface Fault {
  name: string;
  /** What the fault models, for the report and docs/reliability.md. */
  models: string;
  /** Does the fault; resolves once it is in effect. */
  start(): Promise<void>;
  /** How long it is held. */
  pauseMs: number;
  /** Undoes it; resolves once the system has what it needs back (a process restarted, a component up). */
  end(): Promise<void>;
}

export interface FaultContext {
  fleet: ServiceFleet;
  admin: Admin;
  /** The run's topic prefix: the broker fault picks the leader of the most of the run's partitions. */
  topicPrefix: string;
  redisPort: number;
  log: (line: string) => void;
}

function serviceKill(context: FaultContext, services: readonly ChaosService[], pauseMs: number): Fault {
  const { fleet } = context;
  return {
    name: services.length === 1 ? `SIGKILL ${services[0]}` : `SIGKILL ${services.join(', ')}`,
    models: 'a process crash (OOM kill, node failure): no chance to commit, flush or leave its group',
    pauseMs,
    start: async () => {
      await Promise.all(
        services.flatMap((s) => fleet.instances(s)).map((instance) => fleet.kill(instance, 'SIGKILL')),
      );
    },
    end: async () => {
      for (const s of services) if (fleet.instances(s).length === 0) fleet.start(s);
    },
  };
}

/** The broker leading the most of the run's partitions, and its stack component. */
async function busiestBroker(
  context: FaultContext,
): Promise<{ component: string; leads: number; of: number }> {
  const components = brokerComponents();
  if (components.length === 1) return { component: components[0]!, leads: -1, of: -1 };
  const topics = (await context.admin.listTopics()).filter((t) => t.startsWith(context.topicPrefix));
  const metadata = await context.admin.fetchTopicMetadata({ topics });
  const leads = new Map<number, number>();
  let of = 0;
  for (const topic of metadata.topics)
    for (const p of topic.partitions) {
      of++;
      leads.set(p.leader, (leads.get(p.leader) ?? 0) + 1);
    }
  const [nodeId, count] = [...leads].sort((a, b) => b[1] - a[1])[0]!;
  const { brokers } = await context.admin.describeCluster();
  const port = brokers.find((b) => b.nodeId === nodeId)?.port;
  const component = components.find((c) => port !== undefined && listeningPorts(componentPid(c)).has(port));
  if (!component) throw new Error(`no stack component listens on broker ${nodeId}'s port ${port}`);
  return { component, leads: count, of };
}

function brokerKill(context: FaultContext, pauseMs: number): Fault {
  const single = brokerComponents().length === 1;
  return {
    name: single ? 'SIGKILL the Kafka broker' : 'SIGKILL the broker leading the most partitions',
    models: single
      ? 'the only broker crashing: a full Kafka outage until it is back (no failover with one broker)'
      : 'a broker crash: its partitions elect new leaders among the other brokers',
    pauseMs,
    start: async () => {
      const broker = await busiestBroker(context);
      const pid = await killComponent(broker.component, 'SIGKILL');
      context.log(
        `    killed ${broker.component} (pid ${pid})` +
          (broker.leads >= 0 ? `, leader of ${broker.leads} of the run's ${broker.of} partitions` : ''),
      );
    },
    end: stackUp,
  };
}

function componentStop(component: 'clickhouse' | 'registry', label: string, pauseMs: number): Fault {
  return {
    name: `${label} stopped ${Math.round(pauseMs / 1000)} s`,
    models: `${label} down (SIGTERM, restarted by stack.sh up): a restart or an outage, not a crash`,
    pauseMs,
    start: async () => void (await killComponent(component, 'SIGTERM')),
    end: stackUp,
  };
}

function redisFreeze(context: FaultContext, pauseMs: number): Fault {
  let pid = 0;
  return {
    name: `Redis frozen ${Math.round(pauseMs / 1000)} s`,
    models:
      'Redis unreachable (SIGSTOP, then SIGCONT): connections stay open and nothing answers, as in a ' +
      'network partition; its data is kept (it shares the stack with others and does not persist)',
    pauseMs,
    start: async () => {
      pid = redisPid(context.redisPort);
      process.kill(pid, 'SIGSTOP');
    },
    end: async () => {
      process.kill(pid, 'SIGCONT');
    },
  };
}

function twoCopies(context: FaultContext, pauseMs: number): Fault {
  const { fleet } = context;
  const services = ['poller', 'dispatcher'] as const;
  return {
    name: `two pollers and two dispatchers for ${Math.round(pauseMs / 1000)} s, then one stopped`,
    models: 'a rolling deploy or a scale-out and back: partitions move to the new copy and back',
    pauseMs,
    start: async () => {
      await Promise.all(services.map((s) => fleet.ready(fleet.start(s))));
    },
    end: async () => {
      // The older copy stops (SIGTERM), as a rolling deploy retires the old one.
      await Promise.all(services.map((s) => fleet.kill(fleet.instances(s)[0]!, 'SIGTERM')));
    },
  };
}

export function faultSchedule(context: FaultContext, short: boolean): Fault[] {
  if (short)
    return [
      serviceKill(context, chaosServices, 5_000),
      brokerKill(context, 5_000),
      componentStop('clickhouse', 'ClickHouse', 20_000),
      redisFreeze(context, 10_000),
      componentStop('registry', 'the schema registry', 10_000),
      twoCopies(context, 20_000),
    ];
  return [
    ...chaosServices.map((s) => serviceKill(context, [s], 10_000)),
    brokerKill(context, 10_000),
    componentStop('clickhouse', 'ClickHouse', 60_000),
    redisFreeze(context, 30_000),
    componentStop('registry', 'the schema registry', 30_000),
    twoCopies(context, 60_000),
  ];
}

/** Undoes what a fault interrupted mid-way may have left: Redis thawed, the stack's components up. */
export async function restoreStack(redisPort: number): Promise<void> {
  try {
    process.kill(redisPid(redisPort), 'SIGCONT');
  } catch {
    // no Redis process found: stackUp below reports it
  }
  await stackUp();
}
