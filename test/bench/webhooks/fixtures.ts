// The benchmark's webhooks and alerts. Each webhook has a tenant of its own and a path of its own on the
// receiver, so an alert of tenant i fans out to exactly one webhook, i; the alerts go round the tenants.
// Ids carry the run, so nothing here can meet another run's (or a customer's) records.
import { alertPayload, deliveryId } from '../../../services/dispatcher/fan-out.ts';
import { NEWS_ALERT } from '../../../services/webhooks/event-types.ts';
import type { Alert, Webhook } from '../../../services/runtime/events/types.generated.ts';
import type { SecretBox } from '../../../services/webhooks/secret-box.ts';
import { generateWebhookSecret } from '../../../services/webhooks/signing.ts';

export class BenchFixtures {
  constructor(
    private readonly run: string,
    /** How many webhooks (and tenants). */
    readonly webhooks: number,
  ) {}

  webhookId = (i: number) => `wh_bench_${this.run}_${i}`;
  tenantId = (i: number) => `ten_bench_${this.run}_${i}`;
  path = (i: number) => `/bench/${i}`;

  /** Registration `i`, delivering `news.alert` to `url`, its secret sealed by `box`. */
  webhook(i: number, url: string, box: SecretBox, now: number): Webhook {
    return {
      webhook_id: this.webhookId(i),
      tenant_id: this.tenantId(i),
      url,
      events: [NEWS_ALERT],
      filter: null,
      secret_ref: box.seal(generateWebhookSecret()),
      previous_secret_ref: null,
      previous_secret_expires_at: null,
      active: true,
      disabled_reason: null,
      created_at: now,
      version: 1,
      occurred_at: now,
    };
  }

  /** Alert `n` of the phase `phase` (warm-up or measured), for webhook n mod webhooks. */
  alert(phase: string, n: number, occurredAt: number): Alert {
    const i = n % this.webhooks;
    return {
      alert_id: this.alertId(phase, n),
      tenant_id: this.tenantId(i),
      monitor_id: `mon_bench_${this.run}_${i}`,
      contact_id: `crm-contact-${i}`,
      company: 'Acme Widgets',
      article_id: `art_bench_${this.run}_${n}`,
      article_title: 'Acme Widgets opens a plant in Leeds, creating 300 jobs',
      article_url: `https://news.example/business/acme-widgets-leeds-plant-${n}`,
      article_source_name: 'Yorkshire Business Daily',
      article_publisher_name: null,
      article_publisher_url: null,
      article_published_at: null,
      news_summary:
        'Acme Widgets said on Monday it would open a plant in Leeds next spring, creating 300 jobs. ' +
        'The company, which makes parts for the car industry, expects the site to double its output.',
      audio_url: null,
      audio_key: null,
      matched_terms: ['Acme Widgets'],
      occurred_at: occurredAt,
    };
  }

  /** The webhook-id the receiver sees for alert `n` of `phase`: the dispatcher's delivery id. */
  deliveryIdOf(phase: string, n: number): string {
    return deliveryId(NEWS_ALERT, this.alertId(phase, n), this.webhookId(n % this.webhooks));
  }

  private alertId = (phase: string, n: number) => `al_bench_${this.run}_${phase}_${n}`;

  /** The body the dispatcher sends for a typical alert (what the baseline posts). */
  samplePayload(): string {
    return alertPayload(this.alert('sample', 0, Date.now()));
  }
}
