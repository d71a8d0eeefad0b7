// On a Kafka cluster of three brokers (the native stack with KAFKA_BROKERS_LOCAL=3, docs/operations.md):
// provisioned topics have three replicas with min.insync.replicas 2, and writes with acks=all and reads
// go on while the broker that leads the most partitions is SIGKILLed, then take it back once
// `stack.sh up` restarts it. On a single broker there is nothing to prove, and the tests say they are
// skipped.
//
// The stack under test is the one the environment names (KAFKA_BROKERS, …; any one of its brokers is
// enough); the broker is killed and restarted through docker/stack/stack.sh of the stack in STACK_DIR
// (default .stack), so the kill is skipped too for a cluster the stack command did not start.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import kafkajs, { type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { createKafka } from '../../services/runtime/kafka/client.ts';
import { ConsumerRunner } from '../../services/runtime/kafka/consumer.ts';
import { clusterBrokers } from '../../services/runtime/kafka/replication.ts';
import { topicCatalog } from '../../services/runtime/kafka/topics.ts';
import { openTestTopic, readAll, sampleArticle, testKafka, type TopicFixture } from './support/kafka.ts';
import { testLogger } from './support/stack.ts';
import { waitFor } from './support/wait.ts';

const { ConfigResourceTypes } = kafkajs;
const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Runs the stack command on the stack under test (STACK_DIR from the environment); its stdout. */
async function stackCommand(...args: string[]): Promise<string> {
  const { stdout } = await run('bash', ['docker/stack/stack.sh', ...args], {
    cwd: root,
    env: process.env,
    timeout: 300_000,
  });
  return stdout.trim();
}

/** The pid of broker `id` if the stack command started it, else undefined. */
async function brokerPid(id: number): Promise<number | undefined> {
  const pid = await stackCommand('pid', `kafka-${id}`).catch(() => '');
  return /^\d+$/.test(pid) ? Number(pid) : undefined;
}

describe('a cluster of three brokers', () => {
  let admin: Admin;
  let brokers = 0;
  const skipReason = () =>
    `the Kafka under test has ${brokers} broker(s); start a cluster with KAFKA_BROKERS_LOCAL=3 bash docker/stack/stack.sh up (docs/operations.md) and point KAFKA_BROKERS at it`;

  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
    brokers = await clusterBrokers(admin);
  });
  afterAll(async () => admin?.disconnect());

  it('gives every provisioned topic three replicas and min.insync.replicas 2', async (ctx) => {
    if (brokers < 3) ctx.skip(skipReason());
    const catalog = topicCatalog();
    const metadata = await admin.fetchTopicMetadata({ topics: catalog.map((t) => t.name) });
    expect(metadata.topics).toHaveLength(catalog.length);
    for (const topic of metadata.topics)
      for (const p of topic.partitions) expect(p.replicas, `${topic.name}/${p.partitionId}`).toHaveLength(3);
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: catalog.map((t) => ({ type: ConfigResourceTypes.TOPIC, name: t.name })),
    });
    for (const resource of described.resources) {
      const minInsync = resource.configEntries.find((e) => e.configName === 'min.insync.replicas');
      expect(minInsync?.configValue, resource.resourceName).toBe('2');
    }
  });

  describe('while one broker is SIGKILLed', () => {
    let fixture: TopicFixture | undefined;
    let killed: number | undefined;
    let runner: ConsumerRunner<ArticleDiscovered> | undefined;

    afterAll(async () => {
      await runner?.stop();
      await fixture?.close();
      // Never leave the cluster short of a broker, whatever failed.
      if (killed !== undefined && (await brokerPid(killed)) === undefined) await stackCommand('up');
    });

    it('goes on writing with acks=all and reading, and takes the broker back after stack.sh up', async (ctx) => {
      if (brokers < 3) ctx.skip(skipReason());
      if ((await brokerPid(1)) === undefined)
        ctx.skip(
          `the brokers were not started by docker/stack/stack.sh of STACK_DIR=${process.env.STACK_DIR ?? '.stack'}, so this test cannot kill one`,
        );

      fixture = await openTestTopic('three-brokers', undefined, 6);
      const topic = fixture.topic.name;
      // A broker may not know a topic created a moment ago through another one: ask until it does.
      const partitions = () =>
        waitFor(
          async () => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions,
          `the partitions of ${topic}`,
        );
      for (const p of await partitions()) expect(p.replicas).toHaveLength(3);

      /** A step's error names the step: KafkaJS's stacks end in its socket code. */
      const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
        try {
          return await work();
        } catch (error) {
          throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
        }
      };
      let sent = 0;
      const send = async (count: number) => {
        for (let batch = 0; batch < count / 10; batch++) {
          await fixture!.sendArticles(Array.from({ length: 10 }, () => sampleArticle(sent++)));
        }
      };
      // A service's consumer, running through the kill as the enricher's or the projector's would.
      const seen = new Set<string>();
      runner = new ConsumerRunner<ArticleDiscovered>({
        kafka: fixture.kafka,
        codec: fixture.topic.codec,
        producer: fixture.producer,
        logger: testLogger,
        groupId: `three-brokers-${topic}`,
        topics: [topic],
        handler: async (event) => void seen.add(event.value!.article_id),
      });
      // Subscribing asks one broker for the topic's metadata, and it may not know the topic yet.
      await waitFor(async () => (await runner!.start(), true), 'the consumer to subscribe');
      const caughtUp = (description: string) =>
        waitFor(
          async () => seen.size === sent,
          `${description}: the running consumer to read all ${sent} articles`,
          120_000,
        );
      // And everything in the topic, read by a consumer that joins a group of its own now, by article id.
      const allRead = async (description: string) => {
        const read = await readAll(fixture!.kafka, topic, sent, 120_000);
        expect(new Set(read.map((m) => m.key)).size, `${description}: articles read`).toBe(sent);
      };

      await send(50);
      await allRead('before the kill');
      await caughtUp('before the kill');

      // The broker that leads the most partitions of the topic.
      const leads = new Map<number, number>();
      for (const p of await partitions()) leads.set(p.leader, (leads.get(p.leader) ?? 0) + 1);
      const victim = [...leads].sort((a, b) => b[1] - a[1])[0]![0];
      // Every broker's address, the victim's first: the bootstrap list of the service started below.
      const addresses = (await admin.describeCluster()).brokers
        .sort((a, b) => (a.nodeId === victim ? -1 : b.nodeId === victim ? 1 : a.nodeId - b.nodeId))
        .map((b) => `${b.host}:${b.port}`);
      const pid = await brokerPid(victim);
      expect(pid, `pid of kafka-${victim}`).toBeDefined();
      process.kill(pid!, 'SIGKILL');
      killed = victim;
      const killedAt = Date.now();

      // Writes (each acknowledged by the two replicas left) and reads go on without it.
      await step('writing 100 articles after the kill', () => send(100));
      const writtenAfter = Date.now() - killedAt;
      await caughtUp('with one broker down');
      const caughtUpAfter = Date.now() - killedAt;
      await step('reading all with a new consumer', () => allRead('with one broker down'));
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.info(
        `three brokers: broker ${victim} killed; 100 acks=all writes done ${seconds(writtenAfter)} after the kill, ` +
          `the running consumer caught up ${seconds(caughtUpAfter)} after it, a new one read all ${seconds(Date.now() - killedAt)} after it`,
      );
      // The controllers fence it: it leads nothing, and every partition is in sync on the other two.
      await waitFor(
        async () =>
          (await partitions()).every((p) => p.leader >= 0 && p.leader !== victim && p.isr.length === 2),
        `leadership and in-sync replicas to move off broker ${victim}`,
      );

      // A service whose first bootstrap broker is the dead one still starts: KafkaJS tries the next.
      const bootstrap = addresses;
      const late = createKafka({ brokers: bootstrap, clientId: 'three-brokers-late', logger: testLogger });
      const lateAdmin = late.admin();
      await step('connecting a new admin', () => lateAdmin.connect());
      const described = await step('describing the cluster', () => lateAdmin.describeCluster());
      expect(described.brokers.map((b) => b.nodeId)).not.toContain(victim);
      await lateAdmin.disconnect();
      expect(bootstrap).toHaveLength(3);

      // `stack.sh up` brings back the one broker that is missing, and it catches up.
      const up = await stackCommand('up');
      expect(up).toContain(`kafka-${victim}: starting`);
      expect(up).not.toMatch(/(registry|clickhouse|redis): starting/);
      expect(await brokerPid(victim)).toBeDefined();
      killed = undefined;
      await waitFor(
        async () => (await partitions()).every((p) => p.isr.length === 3),
        `broker ${victim} back in sync on every partition`,
        90_000,
      );

      await step('writing 50 articles after the restart', () => send(50));
      await caughtUp('after the restart');
      await allRead('after the restart');
      // Idempotence: retries during the failover wrote nothing twice.
      const offsets = await admin.fetchTopicOffsets(topic);
      expect(offsets.reduce((sum, p) => sum + Number(p.high), 0)).toBe(sent);
    }, 480_000);
  });
});
