import { infrastructureEnv, text } from '../runtime/config.ts';

/** The live projector's settings; `rebuild` reads only the shared ones. */
export const projectorEnv = {
  ...infrastructureEnv,
  PROJECTOR_GROUP: text('projector').describe('Consumer group of the live projectors.'),
};
