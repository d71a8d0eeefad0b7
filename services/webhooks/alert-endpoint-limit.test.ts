import { describe, expect, it } from 'vitest';
import { ApiError } from '../runtime/api-error.ts';
import { alertEndpointRefusal } from './alert-endpoint-limit.ts';

describe('alertEndpointRefusal', () => {
  it('admits alert endpoints up to the plan limit', () => {
    expect(alertEndpointRefusal(0, 3)).toBeNull();
    expect(alertEndpointRefusal(2, 3)).toBeNull();
  });

  it('refuses the one past the limit with plan_limit_reached, naming the limit and the count', () => {
    const refusal = alertEndpointRefusal(3, 3);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal?.code).toBe('plan_limit_reached');
    expect(refusal?.message).toContain('allows 3 alert endpoints');
    expect(refusal?.message).toContain('paused and disabled ones do not count) and 3 are in use');
    // A limit lowered below what a tenant already has still refuses new ones.
    expect(alertEndpointRefusal(5, 3)?.code).toBe('plan_limit_reached');
    expect(alertEndpointRefusal(0, 0)?.code).toBe('plan_limit_reached');
  });

  it('never refuses on a plan without a limit', () => {
    expect(alertEndpointRefusal(500, null)).toBeNull();
  });
});
