// The `data` of a news.alert: what a webhook receiver gets in the payload's `data` and a stream client in
// a news.alert event's `data` (services/api/stream), built in one place so the two never drift apart.
// The first four keys are the interface's, exactly as named; `audio_url` is always a URL (see below).
// The keys after them are ours, for receivers that want more than the interface promises:
// - `alert_id`: the alert (equal for every webhook it went to; the `webhook-id` header is per webhook);
// - `monitor_id`: the monitor that matched;
// - `article_id`, `article_title`, `article_url`: the article that mentions the company;
// - `article_published_at`: when it says it was published (ISO 8601), null when not known;
// - `matched_terms`: the company name and/or aliases found in it, as written in the monitor.
import { isoSecond } from '../runtime/iso-second.ts';
import { narrationUrl, type AudioUrls } from '../audio/audio-urls.ts';
import type { Alert } from '../runtime/events/types.generated.ts';
import { articlePublisher } from '../feeds/normalise/article-publisher.ts';

/**
 * `audio_url` is a signed URL of the stored narration when the alert has its key, else the signed URL of
 * the article's narration: the matcher waits only so long for the narrator, and an alert raised before
 * the narration was ready still carries audio that plays once it is (audio-urls.ts, narrationUrl).
 * Without `audio` (unit tests) it is the address the event carries, or null.
 */
export function alertData(alert: Alert, audio?: AudioUrls) {
  return {
    contact_id: alert.contact_id,
    company: alert.company,
    news_summary: alert.news_summary,
    audio_url: narrationUrl(
      { articleId: alert.article_id, audioKey: alert.audio_key, audioAddress: alert.audio_url },
      audio,
    ),
    alert_id: alert.alert_id,
    monitor_id: alert.monitor_id,
    article_id: alert.article_id,
    article_title: alert.article_title,
    article_url: alert.article_url,
    // Absent on alerts raised before the matcher recorded it: null, as for an article it did not know.
    article_published_at: alert.article_published_at == null ? null : isoSecond(alert.article_published_at),
    article_source: alert.article_source_name,
    article_publisher: articlePublisher(alert.article_publisher_name, alert.article_publisher_url),
    matched_terms: alert.matched_terms,
  };
}
