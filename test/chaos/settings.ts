// The chaos run's settings, from its environment and command line: how long the feed runs, the seed of
// everything random in it (the receiver's failures, the order of the service kills), and the short
// schedule CI runs. Read once at the start and printed, so a run can be repeated with its seed.
import { z } from 'zod';
import { mulberry32 } from '../support/mulberry32.ts';

const schema = z.object({
  CHAOS_MINUTES: z.coerce.number().positive().max(240).default(10),
  CHAOS_SHORT: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  CHAOS_SEED: z.coerce.number().int().nonnegative().max(0xffffffff).optional(),
  /** Articles released per second, spread over the run's feeds. */
  CHAOS_RATE: z.coerce.number().positive().max(50).default(1),
  /**
   * How long a fault may take to recover from before it counts as not recovered. Longer than the poller's
   * claim on an article (300 s, seen-articles.ts): a poller killed between claiming articles and appending
   * them leaves them to the claim's expiry, by design (a CI run's seed 3771608161 hit that window at 240).
   */
  CHAOS_RECOVERY_SECONDS: z.coerce.number().positive().max(3_600).default(360),
});

export interface ChaosSettings {
  short: boolean;
  /** How long articles are released, in ms (the short schedule: about 3 minutes). */
  releaseMs: number;
  seed: number;
  ratePerSecond: number;
  recoveryLimitMs: number;
}

export function chaosSettings(env: NodeJS.ProcessEnv, argv: readonly string[]): ChaosSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`chaos settings: ${issue.path.join('.')}: ${issue.message}`);
  }
  const short = parsed.data.CHAOS_SHORT || argv.includes('--short');
  const minutes = short && env.CHAOS_MINUTES === undefined ? 3 : parsed.data.CHAOS_MINUTES;
  return {
    short,
    releaseMs: Math.round(minutes * 60_000),
    seed: parsed.data.CHAOS_SEED ?? Math.floor(Math.random() * 0xffffffff),
    ratePerSecond: parsed.data.CHAOS_RATE,
    recoveryLimitMs: parsed.data.CHAOS_RECOVERY_SECONDS * 1000,
  };
}

/** The run's seeded generator (mulberry32): its random choices repeat with its seed. */
export const seededRandom = mulberry32;
