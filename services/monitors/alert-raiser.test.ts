import { describe, expect, it } from 'vitest';
import type { ArticleEnriched, Monitor } from '../runtime/events/types.generated.ts';
import { failedEnrichment } from '../intelligence/enrichment-event.ts';
import { alertIdFor, alertsFor, MonitorSet, type ArticleFacts } from './alert-raiser.ts';

const monitor = (id: string, company: string, overrides: Partial<Monitor> = {}): Monitor => ({
  monitor_id: id,
  tenant_id: `tenant-of-${id}`,
  contact_id: `contact-${id}`,
  company,
  aliases: [],
  alert_webhook: 'https://crm.example/hooks',
  active: true,
  created_at: 0,
  version: 1,
  occurred_at: 0,
  ...overrides,
});

/** An enrichment with this summary (none: a failed one), and nothing else extracted. */
const enrichment = (summary: string | null): ArticleEnriched => ({
  ...failedEnrichment('a1', '', { name: 'embedded', model: 'embedded-1' }, 0),
  status: summary ? 'succeeded' : 'failed',
  failure_reason: null,
  summary,
});

const article: ArticleFacts = {
  articleId: 'a1',
  title: 'Acme Corp cuts jobs',
  url: 'https://news.example/a1',
  summary: 'Feed summary.',
  content: 'Acme Corp said on Monday it would cut 500 jobs. Globex was not affected.',
  narrated: true,
  audioUrl: 'https://audio.example/a1.mp3',
  audioKey: `${'a'.repeat(40)}.mp3`,
  sourceId: 's1',
  sourceName: 'Google News: Acme',
  publisher: { name: 'Daily Example', url: 'https://daily.example/' },
  publishedAt: Date.UTC(2026, 0, 5, 8, 0),
  discoveredAt: Date.UTC(2026, 0, 5, 8, 5),
  category: 'business',
  language: 'en',
  revision: 1,
};

describe('alertsFor', () => {
  it('raises one alert per monitor the article mentions, with the interface payload fields', () => {
    const monitors = new MonitorSet(() => [
      monitor('m1', 'Acme Corporation'),
      monitor('m2', 'Initech'),
      monitor('m3', 'Globex Inc'),
    ]);
    const alerts = alertsFor(enrichment('Acme cuts 500 jobs.'), article, monitors, 42);
    expect(alerts.map((a) => a.monitor_id).sort()).toEqual(['m1', 'm3']);
    expect(alerts.find((a) => a.monitor_id === 'm1')).toEqual({
      alert_id: alertIdFor('m1', 'a1'),
      tenant_id: 'tenant-of-m1',
      monitor_id: 'm1',
      contact_id: 'contact-m1',
      company: 'Acme Corporation',
      article_id: 'a1',
      article_title: 'Acme Corp cuts jobs',
      article_url: 'https://news.example/a1',
      article_source_name: 'Google News: Acme',
      article_publisher_name: 'Daily Example',
      article_publisher_url: 'https://daily.example/',
      article_published_at: Date.UTC(2026, 0, 5, 8, 0),
      news_summary: 'Acme cuts 500 jobs.',
      audio_url: 'https://audio.example/a1.mp3',
      audio_key: `${'a'.repeat(40)}.mp3`,
      matched_terms: ['Acme Corporation'],
      occurred_at: 42,
    });
  });

  it('uses the feed summary when the enrichment has none, and skips paused monitors', () => {
    const monitors = new MonitorSet(() => [
      monitor('m1', 'Acme', { active: false }),
      monitor('m3', 'Globex'),
    ]);
    const alerts = alertsFor(enrichment(null), article, monitors, 1);
    expect(alerts.map((a) => [a.monitor_id, a.news_summary])).toEqual([['m3', 'Feed summary.']]);
  });

  it('derives the alert id from monitor and article, so matching again raises the same alert', () => {
    expect(alertIdFor('m1', 'a1')).toBe(alertIdFor('m1', 'a1'));
    expect(alertIdFor('m1', 'a1')).not.toBe(alertIdFor('m1', 'a2'));
    expect(alertIdFor('m1', 'a1')).toMatch(/^alr_[0-9a-f]{32}$/);
  });

  it('compiles the monitors again only after the table changed', () => {
    let reads = 0;
    const table = [monitor('m1', 'Acme')];
    const monitors = new MonitorSet(() => (reads++, table));
    alertsFor(enrichment('x'), article, monitors, 1);
    alertsFor(enrichment('x'), article, monitors, 1);
    expect(reads).toBe(1);
    table.push(monitor('m3', 'Globex'));
    monitors.invalidate();
    expect(alertsFor(enrichment('x'), article, monitors, 1)).toHaveLength(2);
    expect(reads).toBe(2);
  });
});
