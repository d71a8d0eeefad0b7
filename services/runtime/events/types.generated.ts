// Generated from schemas/*.avsc by `npm run generate:events`. Do not edit.
// Timestamps (logicalType timestamp-millis) are epoch milliseconds.

/** One `news.alert` occurrence: an article mentions a monitored company. Stream keyed by alert_id. The dispatcher builds the news.alert webhook payload (event, timestamp, data.contact_id, data.company, data.news_summary, data.audio_url) from it. */
export interface Alert {
  /** Identifier of the alert, deterministic from monitor_id and article_id, so re-matching the same article never creates a second alert. Equals the Kafka key. */
  alert_id: string;
  /** Tenant that owns the monitor and therefore the alert. */
  tenant_id: string;
  /** Monitor that matched (Monitor.monitor_id). */
  monitor_id: string;
  /** CRM contact identifier copied from the monitor; becomes data.contact_id in the webhook payload. */
  contact_id: string;
  /** Company name copied from the monitor; becomes data.company in the webhook payload. */
  company: string;
  /** Article that mentions the company (ArticleDiscovered.article_id). */
  article_id: string;
  /** Title of the article, plain text. */
  article_title: string;
  /** Canonical URL of the article. */
  article_url: string;
  /** The name of the source (feed) the article was found in, as the read model had it when the alert was raised; null when the article was not in the read model yet, and on alerts raised before this field. */
  article_source_name: null | string;
  /** The outlet that first published the article, when its feed is an aggregator that names one (ArticleDiscovered.publisher_name: a Google News item's newspaper); null otherwise. */
  article_publisher_name: null | string;
  /** That outlet's home page (ArticleDiscovered.publisher_url); null when not given. */
  article_publisher_url: null | string;
  /** When the article says it was published (ArticleDiscovered.published_at, as the read model had it when the alert was raised); null when the article was not in the read model yet, and on alerts raised before this field. */
  article_published_at: null | number;
  /** Plain-text summary of the article (the enrichment summary, else the feed summary); becomes data.news_summary in the webhook payload. */
  news_summary: string;
  /** Unsigned address of the article's narration (see news.articles.narrated.v1 audio_url), if one existed when the alert was raised. Null if none. */
  audio_url: null | string;
  /** Audio store key of that narration; the dispatcher signs an expiring URL for it into data.audio_url. Null if none. */
  audio_key: null | string;
  /** The company name and/or aliases that were found in the article, as written in the monitor. */
  matched_terms: string[];
  /** When the match was found, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** An article as seen in a feed, normalised to plain text: its first sighting (revision 1, the article is published) and then one event for each later change of what a reader sees (revision 2, 3, ...: the article is updated). Stream keyed by article_id, so a key may appear more than once, once per revision, in revision order: the newest revision wins. Because article_id is deterministic, a re-poll or replay produces the same id and revision; consumers must treat a repeated (article_id, revision) as a duplicate. */
export interface ArticleDiscovered {
  /** Deterministic article identifier: a hash of source_id and the item guid, or of the canonical url when the item has no guid. Equals the Kafka key and the `id` in GET /v1/articles. */
  article_id: string;
  /** Source whose feed contained the article (Source.source_id). */
  source_id: string;
  /** Display name of the source at discovery time (Source.name); the `source` field of the Article API object. */
  source_name: string;
  /** Item identifier as given by the feed (RSS guid, Atom id, JSON Feed id), verbatim; null if the feed gave none. */
  guid: null | string;
  /** Canonical absolute URL of the article: redirects and tracking parameters (utm_* etc.) removed, host lowercased. */
  url: string;
  /** Article link exactly as it appeared in the feed item. */
  original_url: string;
  /** Article title as plain text (HTML tags removed, entities decoded, whitespace collapsed). */
  title: string;
  /** Summary or description from the feed as plain text; empty string if the feed gave none. Not AI-generated (see ArticleEnriched.summary). */
  summary: string;
  /** Full article text from the feed (content:encoded, Atom content, JSON Feed content_html/content_text) as plain text; empty string if the feed carried only a summary. */
  content: string;
  /** Author name(s) as given by the feed, plain text; null if none. */
  author: null | string;
  /** Publication time, UTC milliseconds since the Unix epoch: the item date from the feed; the discovery time when the feed gave none (on a later revision of such an item: the publication time of revision 1); clamped to discovered_at when it lay more than two hours after it (see published_at_clamped); a date up to two hours ahead of discovered_at is kept, as clocks and time zones are often a little off. */
  published_at: number;
  /** True if the feed gave a publication date more than two hours after discovered_at and published_at was clamped to discovered_at; false otherwise. */
  published_at_clamped: boolean;
  /** When the poller saw this revision of the item (revision 1: when it first saw the item), UTC milliseconds since the Unix epoch. */
  discovered_at: number;
  /** Language of the article: declared by the feed or item, else the source default. ISO 639-1 language code, two lowercase letters (e.g. "en"). Null if unknown. */
  language: null | string;
  /** Category from the feed item or the source default. News category as a lowercase slug (open set, e.g. "general", "business", "technology", "sports"). Null if unknown. */
  category: null | string;
  /** Absolute URL of the lead image (enclosure, media:content, JSON Feed image); null if none. */
  image_url: null | string;
  /** The outlet that first published the article, as an aggregator's feed names it (RSS <source>, Atom <source> title): Google News items name the newspaper here while source_name is the Google News feed. Plain text; null when the item names none (the source's own site published it) and on events written before the field existed. Not a reader-visible field: a change of it alone makes no revision. */
  publisher_name: null | string;
  /** The home page (or feed) of that outlet, an absolute http(s) URL as the item gives it (RSS <source url>, Atom <source> alternate link); null when the item gives none, when it is not an http(s) URL, and when it is an address of the source's own site (a feed naming itself in <source> names no other outlet). */
  publisher_url: null | string;
  /** Which revision of the article this is: 1 for its first sighting (the article is published), +1 for each later change of what a reader sees (title, summary, content, author, published_at, url; whitespace, tracking parameters and a link's scheme do not count) that the poller found (the article is updated). Events written before revisions existed read as 1. */
  revision: number;
  /** Which of title, summary, content, author, published_at and url changed against the previous revision, in that order; empty on revision 1. */
  changed_fields: string[];
  /** published_at of revision 1, UTC milliseconds since the Unix epoch: where the time-ordered read models keep the article whatever its later revisions say. Null on revision 1 (published_at is it) and on a revision whose poller did not know it (an article first emitted before revisions were tracked). */
  first_published_at: null | number;
  /** discovered_at of revision 1, UTC milliseconds since the Unix epoch. Null on revision 1 (discovered_at is it) and on a revision whose poller did not know it (an article first emitted before revisions were tracked). */
  first_discovered_at: null | number;
  /** When this revision of the article was discovered (normally equal to discovered_at), UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Result of AI enrichment of one article (summary, context, insights, sentiment, entities, classification). Stream keyed by article_id; a later enrichment of the same article supersedes an earlier one (the newest wins), but a failed one never supersedes a success: keep the latest succeeded enrichment, or the latest failure while none succeeded, as the read models and the API do. */
export interface ArticleEnriched {
  /** Article that was enriched (ArticleDiscovered.article_id); equals the Kafka key. */
  article_id: string;
  /** Outcome: `succeeded` the content fields below are filled; `failed` enrichment gave up (see failure_reason) and the content fields are null or empty. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  status: EnrichmentStatus;
  /** Human-readable reason when status is failed (e.g. "provider timeout", "empty article text"); null otherwise. */
  failure_reason: null | string;
  /** Generated summary of the article as plain text (the API's `ai_summary`); null if failed. */
  summary: null | string;
  /** Generated background context for the article as plain text (e.g. from related earlier articles); null if failed or none. */
  context: null | string;
  /** Ids of the related articles (ArticleDiscovered.article_id) the context cites, in the order cited; empty when there is no context. Every id was in the read model when the enrichment ran. */
  context_article_ids: string[];
  /** Generated key insights, one plain-text sentence each, most important first; empty if none. */
  insights: string[];
  /** Overall sentiment of the article; null if failed or not computed. */
  sentiment: null | Sentiment;
  /** Named entities found in the article, most salient first; empty if none or failed. */
  entities: ArticleEntity[];
  /** Keywords or key phrases, lowercase, most relevant first; empty if none. */
  keywords: string[];
  /** Category assigned by the classifier (may differ from the feed's). News category as a lowercase slug (open set, e.g. "general", "business", "technology", "sports"). Null if not classified. */
  category: null | string;
  /** Detected language of the article. ISO 639-1 language code, two lowercase letters (e.g. "en"). Null if not detected. */
  language: null | string;
  /** Estimated reading time of the full content in seconds; null if failed. */
  reading_time_seconds: null | number;
  /** Enrichment provider that produced this result (open set: "embedded" for the built-in methods, "openai" for an OpenAI-compatible server). */
  provider: string;
  /** Model or method version used by the provider, e.g. "gpt-4o-mini" or "embedded-1"; lets consumers compare or re-run enrichments. */
  model: string;
  /** When the provider finished (or gave up on) this enrichment, UTC milliseconds since the Unix epoch. */
  enriched_at: number;
  /** The revision of the article (ArticleDiscovered.revision) whose text was enriched. A revision that changed only its author or date is not enriched again, so the enrichment of an earlier revision stays the latest. Events written before revisions existed read as 1. */
  revision: number;
  /** Canonical URL of the article (ArticleDiscovered.url) in the revision enriched, so the event names its article without a join; null in events written before this field was added. */
  article_url: null | string;
  /** Title of the article (ArticleDiscovered.title) in the revision enriched; null in events written before this field was added. */
  article_title: null | string;
  /** When the enrichment result was recorded, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Outcome of an enrichment attempt. */
export type EnrichmentStatus = 'succeeded' | 'failed' | 'unknown';

/** Overall sentiment of an article. */
export interface Sentiment {
  /** Sentiment class: `mixed` means strong positive and negative statements together. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  label: SentimentLabel;
  /** Sentiment score in [-1, 1]: -1 most negative, 0 neutral, 1 most positive. */
  score: number;
}

/** Overall sentiment class. */
export type SentimentLabel = 'positive' | 'neutral' | 'negative' | 'mixed' | 'unknown';

/** A named entity mentioned in an article. */
export interface ArticleEntity {
  /** Normalised display name of the entity, e.g. "Acme Corp". */
  name: string;
  /** Kind of entity. `other` also is what a reader with an older schema sees for a kind added later (the enum default). */
  type: EntityType;
  /** Importance of the entity to the article in [0, 1]; 1 is central. */
  salience: number;
  /** Number of times the entity is mentioned in title, summary and content (>= 1). */
  mentions: number;
}

/** Kind of named entity. */
export type EntityType = 'person' | 'organization' | 'place' | 'other';

/** Result of text-to-speech narration of one article. Stream keyed by article_id; a later narration supersedes an earlier one (newest occurred_at wins). */
export interface ArticleNarrated {
  /** Article that was narrated (ArticleDiscovered.article_id); equals the Kafka key. */
  article_id: string;
  /** Outcome: `succeeded` audio is stored under audio_key (served at audio_url with a signature); `failed` the provider could not narrate it, see failure_reason; `skipped` nothing was narrated on purpose (no voice speaks the article's language, no text), see failure_reason. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  status: NarrationStatus;
  /** Human-readable reason when status is failed or skipped (e.g. "no voice speaks the language xh"); null otherwise. */
  failure_reason: null | string;
  /** Address of the audio file on the API that narrated it (`<API_PUBLIC_URL>/v1/audio/<audio_key>`), without a signature: the API answers it only with one, so API responses and webhook payloads carry signed, expiring URLs built from audio_key. Null unless succeeded. */
  audio_url: null | string;
  /** Key of the audio file in the audio store: a content address (40 hex characters and the format's extension), the same for the same text, voice, speed and format. Null unless succeeded. */
  audio_key: null | string;
  /** Voice id used, as listed by GET /v1/voices (locale-prefixed, e.g. "en-US-slt-hts" or "en-US-Neural2-F"); null if no voice was chosen. */
  voice: null | string;
  /** Audio format of the file at audio_url; null if failed. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  format: null | AudioFormat;
  /** Duration of the audio in milliseconds; null if failed. */
  duration_ms: null | number;
  /** Number of characters of text sent to the speech provider; null if failed before synthesis. */
  characters: null | number;
  /** Speech provider used (open set: "embedded", "google", "openai"). */
  provider: string;
  /** When the narration result was recorded, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Outcome of a narration attempt. */
export type NarrationStatus = 'succeeded' | 'failed' | 'unknown' | 'skipped';

/** Audio container/codec of a narration file. */
export type AudioFormat = 'mp3' | 'wav' | 'ogg' | 'unknown';

/** Current state of one API client (holder of an API key and/or OAuth client credentials). Compacted topic keyed by client_id; a null value (tombstone) means the client was removed. Never contains a key or secret in clear, only hashes. */
export interface Client {
  /** Stable identifier of the client; equals the Kafka key and the OAuth `client_id`. */
  client_id: string;
  /** Tenant the client belongs to; everything it creates is owned by this tenant. */
  tenant_id: string;
  /** Human-readable name of the client, e.g. "CRM integration (prod)". */
  name: string;
  /** Plan: essentials (1,000 calls/h, 5 live connections, 3 alert endpoints, 10 added sources), professional (10,000, 25, 10, 50), enterprise (custom). `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). Readers should apply the most restrictive limits to `unknown`. */
  plan: Plan;
  /** Custom limits overriding the plan defaults; null means plan defaults apply. */
  limits: null | ClientLimits;
  /** OAuth scopes granted (open set; known: "read:feeds", "write:sources", "write:monitors", "write:webhooks", "use:ai", "use:audio"). */
  scopes: string[];
  /** First characters of the API key, shown to users to recognise a key and used to narrow look-ups; not enough to authenticate. Null if the client has no API key. */
  api_key_prefix: null | string;
  /** One-way hash of the API key (never the key itself), self-describing as "<algorithm>$<encoded hash>", e.g. "sha256$<64 hex>"; the key is shown once at creation and only this hash is kept. Null if the client has no API key. */
  api_key_hash: null | string;
  /** One-way hash of the OAuth client secret (never the secret itself), same self-describing format as api_key_hash. Null if the client has no OAuth credentials. */
  client_secret_hash: null | string;
  /** True if every credential of this client is revoked: requests with them answer 401 and tokens are no longer issued. */
  revoked: boolean;
  /** When this client was first created, UTC milliseconds since the Unix epoch; repeated unchanged on every version so it survives log compaction. Null only if the producer did not know it. */
  created_at: null | number;
  /** Version of this client: 1 on creation, incremented by exactly one on every later change by the service that owns it. Read models keep the record with the highest version per key (e.g. ReplacingMergeTree version column), so replays and duplicates are harmless. */
  version: number;
  /** When this state of the client came into effect (created, changed, key rotated, revoked), UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Subscription plan that sets rate and connection limits. */
export type Plan = 'essentials' | 'professional' | 'enterprise' | 'unknown';

/** Per-client overrides of plan limits (used mainly for enterprise). A null field means "use the plan default". */
export interface ClientLimits {
  /** Maximum API calls per hour for this client; null for the plan default. */
  calls_per_hour: null | number;
  /** Maximum concurrent live (SSE) connections; null for the plan default (unlimited for enterprise). */
  live_connections: null | number;
  /** Maximum number of alert endpoints (webhooks and monitor alert URLs); null for the plan default (unlimited for enterprise). */
  alert_endpoints: null | number;
  /** Maximum number of sources the client's tenant added (feeds new to the catalog) and subscribes to; null for the plan default (unlimited for enterprise). */
  added_sources: null | number;
}

/** A lifecycle event of an audio documentary (POST /api/v1/documentaries): requested, then progressed through its steps (gathering, scripting, narrating, assembling), then ready or failed, unless its requester cancelled it first. Stream keyed by documentary_id; each event repeats the request fields and what earlier steps found, so the newest event per id is the current state. */
export interface Documentary {
  /** Identifier of the documentary; equals the Kafka key. */
  documentary_id: string;
  /** Tenant that requested the documentary. */
  tenant_id: string;
  /** Topic requested, verbatim from the request. */
  topic: string;
  /** Kinds of material requested (open set; values seen: "internal", "news", "social"). */
  sources: string[];
  /** Output format requested (open set; value seen: "audio+transcript"). */
  format: string;
  /** `requested` accepted, not started; `progressed` work under way (see progress, stage); `ready` audio_url (and transcript_url) available, the documentary.ready webhook is sent; `failed` see failure_reason and failure_code, the documentary.failed webhook is sent; `cancelled` its requester cancelled it before it was ready (POST /api/v1/documentaries/{id}/cancel): its work stops, nothing is made and no webhook is sent (the event carries the request, with no articles or script; the processor sees a cancel between its steps, so the step it was in may still report once, a progressed event after the cancelled one, and its own cancelled event follows). `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  status: DocumentaryStatus;
  /** Fraction of the work done in [0, 1]: 0 when requested, then as each step reports it, 1 when ready; null on failed and cancelled events. */
  progress: null | number;
  /** Name of the current step when status is progressed: "gathering" (finding and ranking the articles), "scripting" (writing the script from them), "narrating" (speaking it), "assembling" (one audio file, chapters, transcript); an open set. Null otherwise. */
  stage: null | string;
  /** Unsigned absolute address of the finished audio (<API_PUBLIC_URL>/v1/audio/<audio_key>); set when ready, null otherwise. The API hands out signed, expiring URLs for audio_key; this one is for reference. */
  audio_url: null | string;
  /** Unsigned absolute address of the WebVTT transcript; set when ready, null otherwise (see audio_url). */
  transcript_url: null | string;
  /** Duration of the finished audio in milliseconds; set when ready, null otherwise. */
  duration_ms: null | number;
  /** Human-readable reason when status is failed; null otherwise. failure_code says the same for programs. */
  failure_reason: null | string;
  /** When the documentary was requested (the requested event's occurred_at), repeated on every event; null in events written before this field existed. */
  requested_at: null | number;
  /** Start of the period whose articles the documentary covers (from the request's date_range, resolved when requested). */
  period_from: null | number;
  /** End of that period. */
  period_to: null | number;
  /** The request's date_range as given (e.g. "7d"), null for the default. */
  date_range: null | string;
  /** Language of the documentary and of the articles it draws on (ISO 639-1 or a locale); null: English. */
  language: null | string;
  /** Voice id (GET /v1/voices): the one requested, then, from narrating on, the one used; null: the language's default voice. */
  voice: null | string;
  /** Who wrote the script, from narrating on: "embedded" (the extractive writer) or "openai/<model>" (the enrichment provider's model, its script checked against the articles); null before. */
  script_writer: null | string;
  /** "short" (about 2 minutes), "medium" (about 5) or "long" (about 10); null: medium. An open set. */
  length: null | string;
  /** Most articles to cite; null: the length's default. */
  max_articles: null | number;
  /** The articles the documentary cites, set from gathering on (empty before). */
  articles: DocumentaryArticle[];
  /** The script, set from scripting on (empty before); with chapter times once ready. */
  segments: DocumentarySegment[];
  /** Audio-store key of the finished audio; set when ready. */
  audio_key: null | string;
  /** Audio-store key of the WebVTT transcript (one cue per sentence); set when ready. */
  transcript_key: null | string;
  /** Audio-store key of the JSON transcript (segments, their article ids and start times); set when ready. */
  transcript_json_key: null | string;
  /** Why it failed, for programs: "no_articles" (nothing on the topic in the period), "speech_failed", "invalid_request" or "internal" (an open set); null unless failed. */
  failure_code: null | string;
  /** When the documentary reached this status, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Lifecycle state of a documentary. */
export type DocumentaryStatus = 'requested' | 'progressed' | 'ready' | 'failed' | 'unknown' | 'cancelled';

/** An article a documentary cites. */
export interface DocumentaryArticle {
  /** Article id (GET /v1/articles/{id}). */
  article_id: string;
  /** Its headline. */
  title: string;
  /** Display name of its source. */
  source_name: string;
  /** Link to the article at its publisher. */
  url: string;
  /** When it was published, UTC milliseconds. */
  published_at: number;
  /** Index of the story (segment of kind story, from 0) it belongs to: articles telling the same story share one. */
  story: number;
}

/** One part of a documentary's script, and once assembled, a chapter of its audio. */
export interface DocumentarySegment {
  /** "intro", "story", "transition" or "outro" (an open set). */
  kind: string;
  /** Chapter title. */
  title: string;
  /** What is spoken, sentence by sentence. */
  sentences: string[];
  /** Articles the segment cites. */
  article_ids: string[];
  /** Where the chapter starts in the audio; null until assembled. */
  start_ms: null | number;
  /** Where it ends; null until assembled. */
  end_ms: null | number;
}

/** Outcome of one poll (conditional HTTP GET and parse) of a source's feed. Stream keyed by source_id, so the polls of one source are ordered. */
export interface FeedPoll {
  /** Unique identifier of this poll, generated by the poller (UUID); lets consumers deduplicate a re-delivered record. */
  poll_id: string;
  /** Source that was polled; equals the Kafka key and Source.source_id. */
  source_id: string;
  /** Feed URL requested, as configured on the source at poll time (before redirects). */
  feed_url: string;
  /** Result of the poll: `ok` feed fetched and parsed; `not_modified` server answered 304 to the conditional GET; `failed` network error, timeout, non-2xx status or unparseable feed (see error_reason); `refused` not fetched because the URL or a redirect target is a private, loopback or link-local address not on the allow-list. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  status: FeedPollStatus;
  /** HTTP status code of the final response (after redirects); null when no response was received (network error, timeout, refused). */
  http_status: null | number;
  /** Number of items parsed from the feed in this poll (0 when not_modified, failed or refused). */
  items_seen: number;
  /** Number of those items not seen before, i.e. for which an ArticleDiscovered event with revision 1 was published. */
  new_items: number;
  /** Value of the ETag response header, verbatim; sent back as If-None-Match on the next poll. Null if the server sent none. */
  etag: null | string;
  /** Value of the Last-Modified response header, verbatim (HTTP-date text, not parsed); sent back as If-Modified-Since on the next poll. Null if the server sent none. */
  last_modified: null | string;
  /** Wall-clock duration of the poll in milliseconds, from the start of the request to the end of parsing. */
  duration_ms: number;
  /** Human-readable reason when status is failed or refused (e.g. "timeout after 10000 ms", "HTTP 503", "invalid XML at line 3", "address 10.0.0.5 is private"); null otherwise. */
  error_reason: null | string;
  /** When the poll started (request sent), UTC milliseconds since the Unix epoch. */
  started_at: number;
  /** Polls of this source that failed or were refused in a row, including this one; 0 after a successful or not-modified poll. */
  consecutive_failures: number;
  /** False once consecutive_failures reaches the poller's threshold (POLLER_UNHEALTHY_AFTER, default 3). An unhealthy source keeps being polled, with backoff; it is never dropped. */
  healthy: boolean;
  /** When the poller plans to poll this source next (interval with jitter, or backoff after failures, or the server's Retry-After), UTC milliseconds since the Unix epoch. Null if not scheduled (source inactive or reassigned). */
  next_poll_at: null | number;
  /** Items in the feed that could not become articles (no usable link, neither title nor text), and changed items whose new revision the poller's bound held back for a later poll (POLLER_UPDATES_PER_DAY, POLLER_UPDATE_MIN_INTERVAL_SECONDS); they are counted here, never silently dropped. */
  skipped_items: number;
  /** Why items were skipped, one human-readable reason per skipped item naming it (at most 5; skipped_items has the full count). */
  skipped_reasons: string[];
  /** Items seen before whose reader-visible fields (title, summary, content, author, published_at, url) changed, for which a new revision of their ArticleDiscovered was published. A change held back by the poller's bound on revisions is not counted here but in skipped_items, with the reason. */
  updated_items: number;
  /** What did not stop the parse but is worth seeing (status stays ok): a declared charset that was ignored, a charset detected because none was declared, items the parse left out (a JSON Feed item without an id, a last item cut off in transfer; items the poller skipped are in skipped_reasons), XML that was not well-formed and was read leniently; and, first, a permanent redirect the source has not followed yet, or the move it led to. At most 5. */
  warnings: string[];
  /** The interval the poller chose for this source after this poll, before jitter and before any backoff or Retry-After (those are in next_poll_at): from the source's observed publishing rate, the publisher's ttl, sy:updatePeriod/sy:updateFrequency and Cache-Control/Expires, within the poller's bounds, or the long safety-net interval while a WebSub subscription is active (docs/operations.md, "Adaptive polling"). Null from pollers older than this field. */
  poll_interval_seconds: null | number;
  /** Why poll_interval_seconds is what it is, in words ("median gap 14 min between the last 20 items", "publisher ttl 60 min", "WebSub active: safety net"). Null from pollers older than this field. */
  interval_reason: null | string;
  /** What brought the feed's content: `poll` (the poller fetched it) or `websub` (the source's WebSub hub pushed it to the callback; http_status, etag and last_modified are then null). Readers should treat an unknown value like `poll`. */
  trigger: string;
  /** Where the feed answered, when redirects led away from feed_url (the URL of the final response, canonical form); null when the feed answered at feed_url itself, and when the poll failed or was refused (a redirect to an error, a loop, a refused address). */
  final_url: null | string;
  /** HTTP status of each redirect followed to reach final_url, in order (301, 302, 303, 307 or 308); empty when none was. A source moves to final_url only when all of them are permanent (301 or 308) on several polls in a row (docs/operations.md, "Feeds that move"). */
  redirect_statuses: number[];
  /** When the poll finished, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Result class of a feed poll. */
export type FeedPollStatus = 'ok' | 'not_modified' | 'failed' | 'refused' | 'unknown';

/** Current state of one CRM monitor: a tenant watching the news for a company on behalf of a contact (POST /api/v1/crm/monitor). Compacted topic keyed by monitor_id; a null value (tombstone) means the monitor was deleted. */
export interface Monitor {
  /** Stable identifier of the monitor; equals the Kafka key. */
  monitor_id: string;
  /** Tenant that owns the monitor (the tenant of the credential that created it). */
  tenant_id: string;
  /** Caller-chosen CRM contact identifier, verbatim from the request; echoed in alerts as data.contact_id. */
  contact_id: string;
  /** Company name to watch, verbatim from the request; echoed in alerts as data.company. */
  company: string;
  /** Further names that count as a mention of the company (e.g. "Alphabet" for "Google"); matching is case-insensitive on word boundaries. Empty if none. */
  aliases: string[];
  /** Absolute http(s) URL that receives this monitor's news.alert deliveries. Often a credential itself (a path or query the receiver checks, as Slack and Zapier URLs are): keep it where secrets are kept, log or copy it nowhere. */
  alert_webhook: string;
  /** True if the matcher should raise alerts for this monitor; false pauses it without deleting it. */
  active: boolean;
  /** When this monitor was first created, UTC milliseconds since the Unix epoch; repeated unchanged on every version so it survives log compaction. Null only if the producer did not know it. */
  created_at: null | number;
  /** Version of this monitor: 1 on creation, incremented by exactly one on every later change by the service that owns it. Read models keep the record with the highest version per key (e.g. ReplacingMergeTree version column), so replays and duplicates are harmless. */
  version: number;
  /** When this state of the monitor came into effect (created, changed, paused or resumed), UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Whether one tenant subscribes to one news source (POST /v1/sources subscribes, DELETE /v1/sources/{id}/subscription unsubscribes). Compacted topic keyed by "<tenant_id>/<source_id>"; the latest record per key is the state. */
export interface SourceSubscription {
  /** Tenant whose subscription this is (the tenant of the credential that made the request). */
  tenant_id: string;
  /** The subscribed source; equals `source_id` in news.sources.v1 and `id` in GET /v1/sources. */
  source_id: string;
  /** True while the tenant subscribes to the source; false after the subscription was deleted. */
  subscribed: boolean;
  /** When the tenant subscribed or unsubscribed, UTC milliseconds since the Unix epoch, from the API's clock. */
  occurred_at: number;
}

/** Current state of one news source (a feed the poller reads). Compacted topic keyed by source_id; a null value (tombstone) means the source was removed. */
export interface Source {
  /** Stable identifier of the source; equals the Kafka key and the `id` of the source in GET /v1/sources. */
  source_id: string;
  /** Display name of the source, e.g. "BBC News"; copied into articles as `source`/`source_name`. */
  name: string;
  /** Absolute http(s) URL of the feed (RSS, Atom, RDF or JSON Feed) the poller fetches. Changes only when the feed moved permanently (every redirect 301 or 308, the same new URL on several polls in a row with a feed read there; docs/operations.md, "Feeds that move"): the source keeps its source_id, and the URL it left is added to previous_urls. */
  feed_url: string;
  /** Feed URLs this source was polled at before its feed moved permanently, oldest first, canonical form; empty for a source that never moved. Adding any of them (or feed_url) as a new source finds this source instead of creating another. */
  previous_urls: string[];
  /** Absolute http(s) URL of the publisher's home page, if known. */
  site_url: null | string;
  /** Default category of articles from this source. News category as a lowercase slug (open set, e.g. "general", "business", "technology", "sports"). */
  category: string;
  /** Default language of articles from this source. ISO 639-1 language code, two lowercase letters (e.g. "en"). */
  language: string;
  /** Country the source publishes from. ISO 3166-1 alpha-2 country code, two lowercase letters (e.g. "gb"). */
  country: string;
  /** True if the poller should fetch this source; false pauses polling without removing the source (GET /v1/sources?active_only=true filters on it). */
  active: boolean;
  /** Target number of seconds between two polls of feed_url; the poller may poll less often (back-off after failures) but not more often. */
  poll_interval_seconds: number;
  /** tenant_id of the tenant that added this source through the API; null for sources from the built-in catalogue or operator configuration. */
  created_by_tenant: null | string;
  /** When this source was first created, UTC milliseconds since the Unix epoch; repeated unchanged on every version so it survives log compaction. Null only if the producer did not know it. */
  created_at: null | number;
  /** Version of this source: 1 on creation, incremented by exactly one on every later change by the service that owns it. Read models keep the record with the highest version per key (e.g. ReplacingMergeTree version column), so replays and duplicates are harmless. */
  version: number;
  /** When this state of the source came into effect (created, changed, paused or resumed), UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** A decision of the story clusterer (npm run clusterer): an article opened a story, an article joined one, a story was merged into another, a story closed after inactivity, or a story became breaking news. One partition, in the order the clusterer decided: replaying the topic in order rebuilds exactly the clusterer's state (and the read model's stories). Keyed by story_id. */
export interface StoryEvent {
  /** `opened`: article_id is the story's first article. `joined`: article_id was added to the story. `merged`: the story was folded into `merged_into`, with every article in `article_ids` (the story's id is not used again). `closed`: nothing joined the story for the clusterer's inactivity limit; it takes no more articles. `breaking`: the story reached the breaking-news rule (docs/stories.md#breaking-news): `article_ids` are its articles so far; at most once per story. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a type added later (the enum default). */
  type: StoryEventType;
  /** The story; equals the Kafka key. Derived from the id of the article that opened it. */
  story_id: string;
  /** For opened and joined: the article (ArticleDiscovered.article_id). Null otherwise. */
  article_id: null | string;
  /** For opened and joined: the article's source. */
  source_id: null | string;
  /** For opened and joined: the article's language (ISO 639-1), null when unknown. A story holds one language. */
  language: null | string;
  /** For opened and joined: the article's category (the enrichment's, else the feed's); a story's category is its first article's. Null otherwise, and in events written before this field. */
  category: null | string;
  /** For opened and joined: when the article reports (its published date, clamped to its discovery), to the whole second as the read model keeps it (a published_at with milliseconds is cut to its second). For merged and closed: the stream time of the decision. */
  article_at: number;
  /** For joined: the cosine similarity in [0, 1] of the article with the story when it joined. Null otherwise. */
  similarity: null | number;
  /** For opened and joined: the article's vector as weighed when it was assigned (what the story's centroid adds). Empty otherwise. */
  terms: StoryTerm[];
  /** For opened and joined: every distinct term of the article, sorted (what the clusterer's term statistics count). Empty otherwise. */
  distinct_terms: string[];
  /** For merged: the story that takes this story's articles. Null otherwise. */
  merged_into: null | string;
  /** For merged: the articles that moved to merged_into. For breaking: the story's articles so far, first first (at most 20). Empty otherwise. */
  article_ids: string[];
  /** When the clusterer made the decision (wall clock). */
  occurred_at: number;
}

/** What happened to the story. */
export type StoryEventType = 'opened' | 'joined' | 'merged' | 'closed' | 'breaking' | 'unknown';

/** One weighted term of an article's story vector. */
export interface StoryTerm {
  /** A stemmed word, or `e:` and an entity name. */
  term: string;
  /** Its weight in the unit-length vector. */
  weight: number;
}

/** A webhook delivery job or the outcome of one delivery attempt. Stream keyed by webhook_id, on the main topic and on the retry topics (`news.webhook-deliveries.v1.retry-<delay>`), which use this same schema. Records with status `pending` are jobs for the dispatcher; all other statuses report what happened to an attempt. */
export interface WebhookDelivery {
  /** Stable identifier of the delivery, the same for every attempt; sent as the `webhook-id` header so receivers can deduplicate. */
  delivery_id: string;
  /** Registration the delivery goes to (Webhook.webhook_id); equals the Kafka key. */
  webhook_id: string;
  /** Tenant that owns the webhook. */
  tenant_id: string;
  /** Event kind delivered (open set: "news.alert", "news.breaking", "article.published", "article.updated", "documentary.ready", "documentary.failed", and "webhook.test" for a test its owner asked for); the `event` field of the payload. */
  event_type: string;
  /** Identifier of the event that caused the delivery (e.g. Alert.alert_id, Documentary.documentary_id, ArticleDiscovered.article_id). */
  event_id: string;
  /** The JSON body to POST, UTF-8 text, as every attempt sends it except for its audio URLs (audio_url, transcript_url, transcript_json_url): they are stored as unsigned addresses (<API_PUBLIC_URL>/v1/audio/<key>, /v1/articles/<id>/audio), which answer 403, and each attempt signs them into the body it sends and signs (so no URL here opens another tenant's audio). Not re-serialised between attempts. Bodies stored by dispatchers before 2026-12-07 hold signed URLs. */
  payload_json: string;
  /** 1-based attempt number this record is about: for `pending`, the attempt to make at due_at; for every other status, the attempt that was just made. */
  attempt: number;
  /** When attempt `attempt` is (pending) or was (other statuses) due, UTC milliseconds since the Unix epoch; a retry-topic consumer waits until this instant before attempting. */
  due_at: number;
  /** `pending` attempt `attempt` is scheduled at due_at (a job); `succeeded` the endpoint answered 2xx; `failed_retrying` the attempt failed and a later attempt is scheduled on a retry topic; `dead_lettered` the last scheduled attempt failed and the job went to the DLQ; `disabled` not attempted because the webhook is inactive, deleted or no longer subscribed. `unknown` is never written by producers: it is what a reader with an older copy of this schema sees for a symbol added later (the enum default). */
  status: WebhookDeliveryStatus;
  /** HTTP status of the most recent attempt's response; null if no attempt has been made yet or no response was received. */
  last_http_status: null | number;
  /** Human-readable error of the most recent failed attempt (e.g. "HTTP 500", "timeout after 10000 ms", "connection refused"); null if none. */
  last_error: null | string;
  /** When this job was scheduled or this attempt finished, UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** State of a webhook delivery after an event in its life. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed_retrying' | 'dead_lettered' | 'disabled' | 'unknown';

/** Current state of one webhook registration (POST /api/v1/webhooks). Compacted topic keyed by webhook_id; a null value (tombstone) means the webhook was deleted. */
export interface Webhook {
  /** Stable identifier of the registration; equals the Kafka key. */
  webhook_id: string;
  /** Tenant that owns the registration. */
  tenant_id: string;
  /** Absolute http(s) URL that deliveries are POSTed to. Often a credential itself (a path or query the receiver checks, as Slack and Zapier URLs are): keep it where secrets are kept, log or copy it nowhere. */
  url: string;
  /** Event kinds the endpoint subscribes to (open set; known values: "news.alert", "news.breaking", "article.published", "article.updated", "documentary.ready", "documentary.failed"). Only these are delivered, and "webhook.test" when its owner asks for one (POST /api/v1/webhooks/{id}/test), which is never listed here. */
  events: string[];
  /** Filter applied to article-based events before delivery; null means no filter. */
  filter: null | WebhookFilter;
  /** The webhook's signing secret sealed (AES-256-GCM, `sb1:<kid>:<nonce>:<ciphertext>`) under a key of WEBHOOK_SECRET_KEYS, which the dispatcher opens to sign deliveries (Standard Webhooks HMAC-SHA256). Never the secret in clear, but it is the secret to whoever holds that key: with the public development key (WEBHOOK_SECRET_KEYS empty) anyone can open it, so treat this field as a credential and do not copy it out of the topic. */
  secret_ref: string;
  /** Opaque reference, sealed like secret_ref, to the signing secret this webhook had before its latest rotation (POST /api/v1/webhooks/{id}/secret/rotate). Until previous_secret_expires_at it signs every delivery too, beside secret_ref, so a receiver still verifying with it accepts them while it switches. Only the immediately previous secret is kept: a second rotation replaces it. Null when no rotation left one in force (never rotated, rotated without a grace period, or the grace period had ended when a later state was written). Never the secret itself. */
  previous_secret_ref: null | string;
  /** When previous_secret_ref stops signing deliveries, UTC milliseconds since the Unix epoch: an attempt made at or after this instant is signed with secret_ref alone. Compare it with the time of the attempt: a state is not rewritten when it passes. Null exactly when previous_secret_ref is null. */
  previous_secret_expires_at: null | number;
  /** True if deliveries are made; false if the tenant paused it or the service disabled it (see disabled_reason). */
  active: boolean;
  /** Why the service disabled the webhook (e.g. "endpoint failed every attempt for 24 h", "URL resolves to a private address"); null when active or paused by the tenant. */
  disabled_reason: null | string;
  /** When this webhook was first created, UTC milliseconds since the Unix epoch, to the whole second (the read model keeps seconds, and every later version repeats it from there, so all versions carry the same value; occurred_at of version 1 has the milliseconds); repeated unchanged on every version so it survives log compaction. Null only if the producer did not know it. */
  created_at: null | number;
  /** Version of this webhook registration: 1 on creation, incremented by exactly one on every later change by the service that owns it. Read models keep the record with the highest version per key (e.g. ReplacingMergeTree version column), so replays and duplicates are harmless. */
  version: number;
  /** When this state of the registration came into effect (created, changed, paused, disabled), UTC milliseconds since the Unix epoch. Set by the producer from its clock at the moment of the fact, not when Kafka received the record. */
  occurred_at: number;
}

/** Optional narrowing of which events reach a webhook. Every non-empty list must match (AND across lists, OR within a list); empty lists do not filter. */
export interface WebhookFilter {
  /** Deliver only articles in one of these categories. News category as a lowercase slug (open set, e.g. "general", "business", "technology", "sports"). */
  categories: string[];
  /** Deliver only articles from one of these sources (Source.source_id). */
  source_ids: string[];
  /** Deliver only articles in one of these languages. ISO 639-1 language code, two lowercase letters (e.g. "en"). */
  languages: string[];
  /** Deliver only articles whose title, summary or content contains one of these words or phrases (case-insensitive). */
  words: string[];
  /** For news.alert: deliver only alerts of these monitors (Monitor.monitor_id); empty means every alert of the tenant. Set when the endpoint is a monitor's alert_webhook. */
  monitor_ids: string[];
}

/** The value type carried by each topic that has a schema of its own. */
export interface EventsByTopic {
  'news.alerts.v1': Alert;
  'news.articles.discovered.v1': ArticleDiscovered;
  'news.articles.enriched.v1': ArticleEnriched;
  'news.articles.narrated.v1': ArticleNarrated;
  'news.clients.v1': Client;
  'news.documentaries.v1': Documentary;
  'news.feed-polls.v1': FeedPoll;
  'news.monitors.v1': Monitor;
  'news.source-subscriptions.v1': SourceSubscription;
  'news.sources.v1': Source;
  'news.stories.v1': StoryEvent;
  'news.webhook-deliveries.v1': WebhookDelivery;
  'news.webhooks.v1': Webhook;
}
