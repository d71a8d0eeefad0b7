// A partition assigner that gives every partition to one member of the group (the first by member
// id) and none to the others, which wait as hot standbys. For a consumer whose work is one sequence
// of decisions over the whole stream (the story clusterer: every article must be compared with every
// open story), so it cannot be split by partition; the group still gives it what a group gives: when
// the active member stops or dies, the next rebalance hands everything to a standby.
import kafkajs, { type PartitionAssigner } from 'kafkajs';

const { AssignerProtocol } = kafkajs;
const none = Buffer.alloc(0);

export const singleMemberAssigner: PartitionAssigner = ({ cluster }) => ({
  name: 'SingleMemberAssigner',
  version: 0,
  async assign({ members, topics }) {
    const [active, ...standbys] = members.map((m) => m.memberId).sort();
    if (active === undefined) return [];
    const assignment: Record<string, number[]> = {};
    for (const topic of topics)
      assignment[topic] = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
    return [
      {
        memberId: active,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment,
          userData: none,
        }),
      },
      ...standbys.map((memberId) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment: {},
          userData: none,
        }),
      })),
    ];
  },
  protocol({ topics }) {
    return {
      name: 'SingleMemberAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: none }),
    };
  },
});
