// A webhook's signing secrets across a rotation: which sealed secrets sign an attempt, and what a rotation
// or a later change writes about the previous one. Pure: the caller passes the clock.
//
// A rotation keeps the secret it replaces for a grace period (a day by default, at most a week), during
// which every delivery carries two `v1,` signatures (signing.ts), so a receiver verifying with either
// accepts it while it deploys the new one. Only the immediately previous secret is kept: rotating again
// inside the grace period drops the older one at once, which is what a tenant rotating because of a
// leak wants. Expiry is a comparison at the moment of each attempt, not a state written when it passes:
// a retry queued before the rotation and attempted after it reads the webhook as it is then.
import type { Webhook } from '../runtime/events/types.generated.ts';

/** How long the previous secret keeps signing when the rotation does not say (one day). */
export const DEFAULT_PREVIOUS_SECRET_SECONDS = 86_400;
/** The longest grace period a rotation may ask for (seven days). */
export const MAX_PREVIOUS_SECRET_SECONDS = 604_800;

/** The secret fields of a webhook state. */
export type SecretFields = Pick<Webhook, 'secret_ref' | 'previous_secret_ref' | 'previous_secret_expires_at'>;

/**
 * The sealed secrets that sign an attempt made at `now`: the current one first, then the previous one
 * while its grace period lasts (it ends at previous_secret_expires_at, exclusive).
 */
export function signingSecretRefs(webhook: SecretFields, now: number): string[] {
  const { secret_ref, previous_secret_ref, previous_secret_expires_at } = webhook;
  if (previous_secret_ref === null || previous_secret_expires_at === null) return [secret_ref];
  if (now >= previous_secret_expires_at || previous_secret_ref === secret_ref) return [secret_ref];
  return [secret_ref, previous_secret_ref];
}

/**
 * The secret fields after a rotation at `now` from `current` to the sealed `newRef`, keeping the secret
 * in use for `graceSeconds` (0: not at all). The expiry is rounded up to a whole second, what the read
 * model keeps (the API re-states a webhook from it), so the grace period is never shorter than asked.
 */
export function rotatedSecrets(
  current: Pick<Webhook, 'secret_ref'>,
  newRef: string,
  graceSeconds: number,
  now: number,
): SecretFields {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_PREVIOUS_SECRET_SECONDS)
    throw new RangeError(
      `the grace period is 0 to ${MAX_PREVIOUS_SECRET_SECONDS} seconds, not ${graceSeconds}`,
    );
  if (graceSeconds === 0)
    return { secret_ref: newRef, previous_secret_ref: null, previous_secret_expires_at: null };
  return {
    secret_ref: newRef,
    previous_secret_ref: current.secret_ref,
    previous_secret_expires_at: Math.ceil((now + graceSeconds * 1000) / 1000) * 1000,
  };
}

/**
 * The secret fields a later change of the webhook (a PATCH, a monitor joining) writes at `now`: the same,
 * but without a previous secret whose grace period is over, so a sealed secret that signs nothing any
 * more is not carried from state to state.
 */
export function carriedSecrets(current: SecretFields, now: number): SecretFields {
  if (signingSecretRefs(current, now).length > 1) return { ...current };
  return { secret_ref: current.secret_ref, previous_secret_ref: null, previous_secret_expires_at: null };
}
