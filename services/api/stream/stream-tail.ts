// The API instance's one reader of the stream topics (not one per connection): it follows their ends,
// turns each record into a stream event, keeps the latest ones in a bounded replay buffer, and hands each
// to the connections. Every entry knows the position right after it, which is the SSE event id a client
// in step with the tail is sent. Enrichments carry neither the article's text nor its source, so the
// tail remembers the articles it saw discovered (bounded) and asks the read model for the rest.
import type { Admin, Kafka } from 'kafkajs';
import type {
  Alert,
  ArticleDiscovered,
  ArticleEnriched,
  StoryEvent,
} from '../../runtime/events/types.generated.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { EventCodec } from '../../runtime/kafka/registry.ts';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import { PositionReader, topicHeads, type PositionedRecord } from './position-reader.ts';
import {
  alertEvent,
  breakingEvent,
  discoveredEvent,
  enrichedEvent,
  streamArticleOf,
  type StreamArticle,
  type StreamEvent,
} from './stream-events.ts';
import { ReplayBuffer, type StreamEntry } from './replay-buffer.ts';
import type { Position } from './stream-position.ts';

export type { StreamEntry };

/** Articles by id, from the read model, for enrichments of articles the tail did not see discovered. */
export type ArticleLookup = (ids: readonly string[]) => Promise<Map<string, StreamArticle>>;

export interface TailOptions {
  kafka: Kafka;
  codec: EventCodec;
  logger: Logger;
  groupPrefix: string;
  /** The topics read, in streamTopics' order (a benchmark's own); default streamTopics. */
  topics?: readonly string[];
  lookup: ArticleLookup;
  audio?: AudioUrls;
  /** Entries kept for reconnecting clients. */
  replayEntries: number;
  /** Articles remembered to describe their enrichments. */
  rememberedArticles: number;
}

const topicDiscovered = 0;
const topicEnriched = 1;
const topicAlerts = 2;
const topicStories = 3;

/** The articles whose facts a record's event needs. */
function articlesOf(record: PositionedRecord): string[] {
  if (record.topic === topicEnriched) return [(record.value as ArticleEnriched).article_id];
  if (record.topic === topicStories) {
    const story = record.value as StoryEvent;
    return story.type === 'breaking' ? story.article_ids : [];
  }
  return [];
}

export class StreamTail {
  private readonly buffer: ReplayBuffer;
  private readonly articles = new Map<string, StreamArticle>();
  /** The story of each article the tail saw placed (news.stories.v1), newest placements kept. */
  private readonly storyOf = new Map<string, string>();
  private readonly listeners = new Set<(entry: StreamEntry) => void>();
  private reader: PositionReader | undefined;

  private constructor(
    private readonly options: TailOptions,
    readonly partitions: readonly number[],
    start: Position,
    private readonly admin: Admin,
  ) {
    this.buffer = new ReplayBuffer(options.replayEntries, start);
  }

  /** Starts following the topics from their current ends. */
  static async start(options: TailOptions): Promise<StreamTail> {
    const admin = options.kafka.admin();
    await admin.connect();
    try {
      const heads = await topicHeads(admin, options.topics);
      const tail = new StreamTail(
        options,
        heads.map((offsets) => offsets.length),
        heads,
        admin,
      );
      tail.reader = await PositionReader.start({
        kafka: options.kafka,
        codec: options.codec,
        logger: options.logger,
        groupPrefix: options.groupPrefix,
        ...(options.topics ? { topics: options.topics } : {}),
        from: heads,
        onRecords: (records) => tail.take(records),
      });
      return tail;
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.reader?.stop();
    await this.admin.disconnect().catch(() => undefined);
  }

  /** Where the tail stands: the next offset it will read of every partition. */
  get position(): Position {
    return this.buffer.position;
  }

  /** The ends of the tail's topics in Kafka now. */
  logEnd(): Promise<Position> {
    return topicHeads(this.admin, this.options.topics);
  }

  /** Position before the oldest entry the replay buffer still holds. */
  get replayStart(): Position {
    return this.buffer.replayStart;
  }

  get nextSequence(): number {
    return this.buffer.nextSequence;
  }

  get oldestSequence(): number {
    return this.buffer.oldestSequence;
  }

  /** The entry with this sequence number, if the replay buffer still holds it. */
  entry(seq: number): StreamEntry | undefined {
    return this.buffer.entry(seq);
  }

  /**
   * Whether the stream has announced this article lately (article.published or .updated read from Kafka):
   * the read model may not hold it yet, the projector writing a moment behind the tail.
   */
  announced(articleId: string): boolean {
    return this.articles.has(articleId);
  }

  onEntry(listener: (entry: StreamEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The events of records read from Kafka (also a catch-up's, which does not go through the ring). */
  async eventsOf(records: readonly PositionedRecord[]): Promise<(StreamEvent | null)[]> {
    const missing = records
      .flatMap((r) => (r.value ? articlesOf(r) : []))
      .filter((id) => !this.articles.has(id));
    const looked = missing.length > 0 ? await this.lookupArticles(missing) : new Map<string, StreamArticle>();
    return records.map((record) => {
      if (record.value === null) return null;
      if (record.topic === topicDiscovered) {
        const discovered = record.value as ArticleDiscovered;
        this.remember(streamArticleOf(discovered));
        return discoveredEvent(discovered, this.options.audio, this.storyOf.get(discovered.article_id));
      }
      if (record.topic === topicEnriched) {
        const enriched = record.value as ArticleEnriched;
        if (enriched.status !== 'succeeded') return null;
        const article = this.articles.get(enriched.article_id) ?? looked.get(enriched.article_id);
        return article
          ? enrichedEvent(enriched, article, this.options.audio, this.storyOf.get(enriched.article_id))
          : null;
      }
      if (record.topic === topicAlerts) return alertEvent(record.value as Alert, this.options.audio);
      const story = record.value as StoryEvent;
      this.place(story);
      if (story.type !== 'breaking') return null;
      // The story's articles were discovered moments ago: the tail remembers them, or the read model has them.
      const articles = story.article_ids.flatMap((id) => this.articles.get(id) ?? looked.get(id) ?? []);
      return articles.length > 0 ? breakingEvent(story, articles) : null;
    });
  }

  /** Articles an event is told with: an enrichment's, or a breaking story's. */
  private async lookupArticles(ids: string[]): Promise<Map<string, StreamArticle>> {
    try {
      return await this.options.lookup([...new Set(ids)]);
    } catch (error) {
      // The stream goes on without those enrichments rather than stalling every client on the read model.
      this.options.logger.warn(
        { err: error, articles: ids.length },
        'stream cannot read articles; skipping their enrichments',
      );
      return new Map();
    }
  }

  /**
   * Keeps where the clusterer placed articles, so a later revision's article.updated and an enrichment
   * name the story as GET /v1/articles does (an article's first sighting comes before its placing).
   */
  private place(story: StoryEvent): void {
    const placed =
      story.type === 'opened' || story.type === 'joined'
        ? story.article_id === null
          ? []
          : [[story.article_id, story.story_id] as const]
        : story.type === 'merged' && story.merged_into !== null
          ? story.article_ids.map((id) => [id, story.merged_into!] as const)
          : [];
    for (const [articleId, storyId] of placed) {
      this.storyOf.delete(articleId);
      this.storyOf.set(articleId, storyId);
      if (this.storyOf.size > this.options.rememberedArticles)
        this.storyOf.delete(this.storyOf.keys().next().value!);
    }
  }

  private remember(article: StreamArticle): void {
    // A resuming client's read-back brings older revisions past the tail: the newest known one stays.
    if ((this.articles.get(article.id)?.revision ?? -1) > article.revision) return;
    this.articles.delete(article.id);
    this.articles.set(article.id, article);
    if (this.articles.size > this.options.rememberedArticles) {
      this.articles.delete(this.articles.keys().next().value!);
    }
  }

  private async take(records: PositionedRecord[]): Promise<void> {
    const events = await this.eventsOf(records);
    records.forEach((record, i) => this.append(record, events[i]!));
  }

  private append(record: PositionedRecord, event: StreamEvent | null): void {
    const entry = this.buffer.append(record, event);
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch (error) {
        // One connection's failure must not stop the tail every other connection is fed from.
        this.options.logger.error({ err: error }, 'stream listener failed');
      }
    }
  }
}
