// What the benchmark asks Kafka about consumer groups: whether the dispatcher under test has joined its
// groups (its "dispatcher started" line is an info log, and the bench runs it at warn: one info line per
// delivery attempt would cost it more than some of what is measured).
import kafkajs, { type Admin, type GroupDescription } from 'kafkajs';

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
