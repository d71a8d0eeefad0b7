// Enriched articles -> news.alert events: every active monitor whose company (or an alias) the
// article mentions raises one alert. The alert id is derived from monitor and article, so a
// re-enrichment or a replay raises the same alert again (the read model and receivers dedupe on it)
// rather than a second one.
import { createHash } from 'node:crypto';
import type { Alert, ArticleEnriched, Monitor } from '../runtime/events/types.generated.ts';
import { compileMonitors, type CompanyMatcher } from './company-matcher.ts';
import type { ArticlePublisher } from '../feeds/normalise/article-publisher.ts';

/** What the read model knows of an article when its enrichment arrives. */
export interface ArticleFacts {
  articleId: string;
  title: string;
  url: string;
  summary: string;
  content: string;
  /** Whether the read model has a narration outcome (any status) for it. */
  narrated: boolean;
  audioUrl: string | null;
  /** Audio store key of that narration (the dispatcher signs a URL for it). */
  audioKey: string | null;
  sourceId: string;
  sourceName: string;
  /** The outlet an aggregator's item names (RSS or Atom <source>); null when the source published it. */
  publisher: ArticlePublisher | null;
  /** Milliseconds since the epoch. */
  publishedAt: number;
  /** When it was first discovered (ms since the epoch). */
  discoveredAt: number;
  /** The feed's category and language (the enrichment may say otherwise). */
  category: string;
  language: string | null;
  /** The revision of the article the read model shows (ArticleDiscovered.revision). */
  revision: number;
}

/**
 * Whether the article was already old when it was found: a feed added with years of archive, or an
 * item a feed dug out again, is no news of a monitored company. Measured at discovery, not now, so an
 * alert held up (a matcher down for a day, a replay) is still raised. `maxAgeMs` 0: no limit.
 */
export function oldWhenFound(article: Pick<ArticleFacts, 'publishedAt' | 'discoveredAt'>, maxAgeMs: number) {
  return maxAgeMs > 0 && article.discoveredAt - article.publishedAt > maxAgeMs;
}

export const alertIdFor = (monitorId: string, articleId: string) =>
  `alr_${createHash('sha256').update(`${monitorId}\n${articleId}`).digest('hex').slice(0, 32)}`;

/** The monitors compiled once per change of the monitor table, not once per article. */
export class MonitorSet {
  private matcher: CompanyMatcher | undefined;
  private byId = new Map<string, Monitor>();

  constructor(private readonly source: () => Iterable<Monitor>) {}

  /** The monitor table changed: compile again before the next match. */
  invalidate(): void {
    this.matcher = undefined;
  }

  current(): { matcher: CompanyMatcher; byId: ReadonlyMap<string, Monitor> } {
    if (!this.matcher) {
      const active = [...this.source()].filter((m) => m.active);
      this.byId = new Map(active.map((m) => [m.monitor_id, m]));
      this.matcher = compileMonitors(
        active.map((m) => ({ monitorId: m.monitor_id, company: m.company, aliases: m.aliases })),
      );
    }
    return { matcher: this.matcher, byId: this.byId };
  }
}

export function alertsFor(
  enrichment: ArticleEnriched,
  article: ArticleFacts,
  monitors: MonitorSet,
  now: number,
): Alert[] {
  const { matcher, byId } = monitors.current();
  const organizations = enrichment.entities.filter((e) => e.type === 'organization').map((e) => e.name);
  const matches = matcher.match({
    title: article.title,
    text: [article.summary, article.content].filter(Boolean).join('\n\n'),
    organizations,
    language: enrichment.language ?? article.language,
  });
  return matches.flatMap(({ monitorId, matchedTerms }) => {
    const monitor = byId.get(monitorId);
    if (!monitor) return [];
    return [
      {
        alert_id: alertIdFor(monitorId, article.articleId),
        tenant_id: monitor.tenant_id,
        monitor_id: monitorId,
        contact_id: monitor.contact_id,
        company: monitor.company,
        article_id: article.articleId,
        article_title: article.title,
        article_url: article.url,
        // Empty when the article was not in the read model yet (matched on its enrichment alone).
        article_source_name: article.sourceName || null,
        article_publisher_name: article.publisher?.name ?? null,
        article_publisher_url: article.publisher?.url ?? null,
        // As the source's name: unknown when the article was not in the read model yet.
        article_published_at: article.sourceName ? article.publishedAt : null,
        news_summary: enrichment.summary ?? article.summary,
        audio_url: article.audioUrl,
        audio_key: article.audioKey,
        matched_terms: matchedTerms,
        occurred_at: now,
      },
    ];
  });
}
