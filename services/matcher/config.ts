import { boolean, infrastructureEnv, integer, text } from '../runtime/config.ts';
import { opsEnv } from '../runtime/ops-server.ts';

export const matcherEnv = {
  ...infrastructureEnv,
  ...opsEnv,
  MATCHER_GROUP: text('matcher').describe('Consumer group of the matchers.'),
  MATCHER_FROM_BEGINNING: boolean(false).describe(
    'Where a group with no committed offsets starts: false raises alerts for articles enriched from now ' +
      'on, not for the whole history; true matches every enrichment on the topic.',
  ),
  MATCHER_ARTICLE_WAIT_MS: integer(60_000, 0, 3_600_000).describe(
    'How long an enrichment waits for its article to reach the read model, counted from the enrichment or ' +
      'from the last failed read of ClickHouse, whichever is later; past that it is matched on what the ' +
      'enrichment says (its summary and entities, the URL and title of its article).',
  ),
  MATCHER_REPEATED_STORY_DAYS: integer(30, 0, 365).describe(
    'For this long after an article alerted a monitor, another article with the same page (the same canonical URL, or its http, www, AMP or ?ref= form; the ' +
      'same story from a second feed) raises no alert for that monitor; the claims are kept in Redis. ' +
      '0: every matching article alerts.',
  ),
  MATCHER_ALERT_MAX_AGE_HOURS: integer(168, 0, 100_000).describe(
    "An article published longer than this before it was first found (a new feed's archive, an old item " +
      'a feed lists again) raises no alert: it is not news of the company. Measured at discovery, so an ' +
      'alert held up by an outage or a replay is still raised. 0: no limit.',
  ),
  REDIS_KEY_PREFIX: text('').describe('Namespace of the Redis keys of the alert claims.'),
  MATCHER_NARRATION_WAIT_MS: integer(20_000, 0, 600_000).describe(
    'How long an alert waits (from the enrichment) for the narration of its article, so that ' +
      "data.audio_url can be the file's URL; past that the alert goes with the article's narration URL, " +
      'which leads to the file once it exists. 0 when no narrator runs.',
  ),
};
