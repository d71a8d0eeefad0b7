// The `data` of a news.alert: what a webhook receiver gets in the payload's `data` and a stream client in
// a news.alert event's `data` (services/api/stream), built in one place so the two never drift apart.
// The first four keys are the interface's, exactly as named; `audio_url` is null when the article has no
// narration. The keys after them are ours, for receivers that want more than the interface promises:
// - `alert_id`: the alert (equal for every webhook it went to; the `webhook-id` header is per webhook);
// - `monitor_id`: the monitor that matched;
// - `article_id`, `article_title`, `article_url`: the article that mentions the company;
// - `matched_terms`: the company name and/or aliases found in it, as written in the monitor.
import type { AudioUrls } from '../audio/audio-urls.ts';
import type { Alert } from '../runtime/events/types.generated.ts';

/**
 * `audio_url` is a signed URL of the stored narration when the alert has its key, else the address the
 * event carries (an alert written before narrations had keys), else null.
 */
export function alertData(alert: Alert, audio?: AudioUrls) {
  return {
    contact_id: alert.contact_id,
    company: alert.company,
    news_summary: alert.news_summary,
    audio_url: alert.audio_key && audio ? audio.urlFor(alert.audio_key) : (alert.audio_url ?? null),
    alert_id: alert.alert_id,
    monitor_id: alert.monitor_id,
    article_id: alert.article_id,
    article_title: alert.article_title,
    article_url: alert.article_url,
    matched_terms: alert.matched_terms,
  };
}
