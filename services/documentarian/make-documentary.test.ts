import { describe, expect, it } from 'vitest';
import type { Documentary } from '../runtime/events/types.generated.ts';
import { stepOf } from './make-documentary.ts';

const event = (overrides: Partial<Documentary>): Documentary => ({
  documentary_id: 'doc_1',
  tenant_id: 'ten_1',
  topic: 'chips',
  sources: ['news'],
  format: 'audio+transcript',
  status: 'requested',
  progress: 0,
  stage: null,
  audio_url: null,
  transcript_url: null,
  duration_ms: null,
  failure_reason: null,
  requested_at: 1,
  period_from: 0,
  period_to: 1,
  date_range: null,
  language: null,
  voice: null,
  script_writer: null,
  length: null,
  max_articles: null,
  articles: [],
  segments: [],
  audio_key: null,
  transcript_key: null,
  transcript_json_key: null,
  failure_code: null,
  occurred_at: 1,
  ...overrides,
});
const article = { article_id: 'a', title: 't', source_name: 's', url: 'u', published_at: 0, story: 0 };
const segment = {
  kind: 'intro',
  title: 'Introduction',
  sentences: ['Hi.'],
  article_ids: [],
  start_ms: null,
  end_ms: null,
};

describe('the step a documentary resumes at', () => {
  it.each<[string, Partial<Documentary>, string | null]>([
    ['a request', {}, 'gathering'],
    ['gathering under way', { status: 'progressed', stage: 'gathering' }, 'gathering'],
    [
      'scripting with its articles',
      { status: 'progressed', stage: 'scripting', articles: [article] },
      'scripting',
    ],
    ['scripting without them (an older writer)', { status: 'progressed', stage: 'scripting' }, 'gathering'],
    [
      'narrating with its script',
      { status: 'progressed', stage: 'narrating', articles: [article], segments: [segment] },
      'narrating',
    ],
    [
      'assembling: narrated again from the cache',
      { status: 'progressed', stage: 'assembling', segments: [segment] },
      'narrating',
    ],
    ['ready', { status: 'ready' }, null],
    ['failed', { status: 'failed' }, null],
    ['a status from a newer schema', { status: 'unknown' }, null],
  ])('%s', (_, overrides, step) => {
    expect(stepOf(event(overrides))).toBe(step);
  });
});
