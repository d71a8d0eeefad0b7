// What the benchmark asks Kafka about consumer groups: whether the dispatcher under test has joined its
// groups (its "dispatcher started" line is an info log, and the bench runs it at warn: one info line per
// delivery attempt would cost it more than some of what is measured), whether other dispatchers are
// running on the stack, and removing the groups of the run at the end.
import kafkajs, { type Admin, type GroupDescription } from 'kafkajs';
import { topicNames } from '../../../services/runtime/kafka/topics.ts';

const { AssignerProtocol } = kafkajs;

/** Topics assigned to the group's members (empty while it rebalances or has none). */
function assignedTopics(group: GroupDescription): Set<string> {
  const topics = new Set<string>();
  for (const member of group.members) {
    try {
      const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
      for (const topic of Object.keys(decoded?.assignment ?? {})) topics.add(topic);
    } catch {
      // no assignment yet
    }
  }
  return topics;
}

/** True once every group is Stable with at least one member that has partitions assigned. */
export async function groupsJoined(admin: Admin, groupIds: readonly string[]): Promise<boolean> {
  const { groups } = await admin.describeGroups([...groupIds]);
  return (
    groups.length === groupIds.length &&
    groups.every((g) => g.state === 'Stable' && g.members.length > 0 && assignedTopics(g).size > 0)
  );
}

/**
 * The running consumer groups that deliver webhooks, other than those starting with `except`: groups
 * with a retry topic of news.webhook-deliveries.v1 assigned, which only a dispatcher's delivery consumer
 * reads. Every dispatcher group delivers every job on those topics, so while one runs it would also POST
 * the bench's jobs, and the bench's dispatcher would POST its.
 */
export async function otherDispatchers(admin: Admin, except: string): Promise<string[]> {
  const { groups } = await admin.listGroups();
  const ids = groups
    .filter((g) => g.protocolType === 'consumer' && !g.groupId.startsWith(except))
    .map((g) => g.groupId);
  const found: string[] = [];
  for (let from = 0; from < ids.length; from += 50) {
    const { groups: described } = await admin.describeGroups(ids.slice(from, from + 50));
    for (const group of described) {
      const topics = [...assignedTopics(group)];
      if (topics.some((t) => t.startsWith(`${topicNames.webhookDeliveries}.retry-`)))
        found.push(group.groupId);
    }
  }
  return found;
}

/** Deletes the listed groups and any whose name starts with one of `prefixes`; returns those deleted. */
export async function deleteGroups(
  admin: Admin,
  groupIds: readonly string[],
  prefixes: readonly string[] = [],
): Promise<string[]> {
  const { groups } = await admin.listGroups();
  const existing = new Set(groups.map((g) => g.groupId));
  const doomed = [
    ...new Set([
      ...groupIds.filter((id) => existing.has(id)),
      ...[...existing].filter((id) => prefixes.some((p) => id.startsWith(p))),
    ]),
  ];
  const deleted: string[] = [];
  const failures: string[] = [];
  // One at a time: KafkaJS fails the whole call when one group cannot be deleted.
  for (const id of doomed) {
    try {
      await admin.deleteGroups([id]);
      deleted.push(id);
    } catch (error) {
      failures.push(`${id}: ${(error as Error).message}`);
    }
  }
  if (failures.length > 0) throw new Error(`could not delete group(s) ${failures.join('; ')}`);
  return deleted;
}
