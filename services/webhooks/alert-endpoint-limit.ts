// A plan limits a tenant's alert endpoints: its active webhooks that receive news.alert (a monitor's
// alert URL registers one). The decision is a pure function so that its unit test pins the very check
// the registry makes when a webhook or a monitor is created.
import { ApiError } from '../runtime/api-error.ts';

/**
 * The refusal of one more alert endpoint for a tenant that has `current` of them on a plan allowing
 * `limit` (null: no limit), or null when there is room.
 */
export function alertEndpointRefusal(current: number, limit: number | null): ApiError | null {
  if (limit === null || current < limit) return null;
  return new ApiError(
    'plan_limit_reached',
    `the plan allows ${limit} alert endpoints (active webhooks receiving news.alert; paused and disabled ones do not count) and ${current} are in use; delete or pause one, or change plans`,
  );
}
