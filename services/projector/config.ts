import { infrastructureEnv, integer, text } from '../runtime/config.ts';
import { opsEnv } from '../runtime/ops-server.ts';

/** The live projector's settings; `rebuild` reads only the shared ones. */
export const projectorEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  PROJECTOR_GROUP: text('projector').describe('Consumer group of the live projectors.'),
  PROJECTOR_INSERT_MAX_EVENTS: integer(100_000, 1, 10_000_000).describe(
    'Events one ClickHouse insert of the projector carries at most: the batches fetched while an insert is in flight go together as the next one, up to this many (a lone batch on a quiet topic goes at once).',
  ),
  PROJECTOR_INSERT_MAX_MIB: integer(256, 1, 4096).describe(
    'The same cap in MiB of the events as read from Kafka (Avro); with two inserts in flight and one gathering, the projector holds at most three such groups.',
  ),
};
