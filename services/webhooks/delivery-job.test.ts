import { describe, expect, it } from 'vitest';
import { pendingJob } from './delivery-job.ts';

describe('pendingJob', () => {
  it('keeps what identifies the job and starts its schedule: attempt 1, pending, due now', () => {
    const identity = {
      delivery_id: 'msg_1',
      webhook_id: 'wh_1',
      tenant_id: 'ten_1',
      event_type: 'news.alert',
      event_id: 'al_1',
      payload_json: '{"event":"news.alert"}',
    };
    expect(pendingJob(identity, 1_700_000_000_000)).toEqual({
      ...identity,
      attempt: 1,
      due_at: 1_700_000_000_000,
      status: 'pending',
      last_http_status: null,
      last_error: null,
      occurred_at: 1_700_000_000_000,
    });
  });
});
