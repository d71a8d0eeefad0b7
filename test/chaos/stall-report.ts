// What a chaos run prints when a fault is not recovered from within its limit: the oldest articles and
// alerts still owed (for an alert: its row in the read model, its delivery log, what the receiver saw),
// each consumer group's lag and members, and a digest of the services' warnings and errors since the
// fault began. The run goes on afterwards; this only makes the failure explain itself in CI's output.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Admin } from 'kafkajs';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { inList, sql } from '../../services/runtime/clickhouse/literal.ts';
import type { Delivery } from './flaky-receiver.ts';
import type { FreshnessTracker } from './freshness.ts';
import { digest, formatDigest, parseLogLines, type LogLine } from './log-digest.ts';
import type { ReleasedArticle } from './release-schedule.ts';

export interface StallFacts {
  faultName: string;
  faultStartedAt: number;
  released: readonly ReleasedArticle[];
  articles: FreshnessTracker;
  alerts: FreshnessTracker;
  deliveries: readonly Delivery[];
  clickhouse: ClickHouse;
  admin: Admin;
  topicPrefix: string;
  /** The directory the fleet writes `<service>-<pid>.log` in. */
  logDir: string;
  log: (line: string) => void;
}

const shown = 5;

/** Logs the report and returns its lines. */
export async function reportStall(facts: StallFacts): Promise<string[]> {
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    facts.log(line);
  };
  const now = Date.now();
  const age = (t: number) => `${((now - t) / 1000).toFixed(0)} s ago`;
  log(`    not recovered from "${facts.faultName}": what is owed, and what the services said`);

  const missingArticles = facts.released.filter((a) => !facts.articles.visibleAt.has(a.seq));
  log(
    `    articles not in the projection: ${missingArticles.length}` +
      (missingArticles.length > 0
        ? ` (oldest: ${missingArticles
            .slice(0, shown)
            .map((a) => `#${a.seq} released ${age(a.releasedAt)}`)
            .join(', ')})`
        : ''),
  );

  const owed = facts.released.filter((a) => a.mentions !== null && !facts.alerts.visibleAt.has(a.seq));
  log(`    alerts not delivered: ${owed.length}`);
  const oldest = owed.slice(0, shown);
  const rows = await alertTrail(
    facts.clickhouse,
    oldest.map((a) => a.url),
  ).catch((error: unknown) => {
    log(`      (the read model could not be asked: ${(error as Error).message})`);
    return null;
  });
  for (const a of oldest) {
    const seen = facts.deliveries
      .filter((d) => d.articleUrl === a.url)
      .map((d) => `${d.answer} ${age(d.receivedAt)}`);
    const trail = rows?.get(a.url);
    log(
      `      #${a.seq} (${a.mentions}) released ${age(a.releasedAt)}; projected: ${facts.articles.visibleAt.has(a.seq) ? 'yes' : 'no'}; ` +
        `alert row: ${trail === undefined ? '?' : trail.alert ? 'yes' : 'no'}; ` +
        `delivery log: ${trail === undefined ? '?' : trail.deliveries.join(', ') || 'nothing'}; ` +
        `receiver saw: ${seen.join(', ') || 'nothing'}`,
    );
  }

  try {
    for (const line of await groupLags(facts.admin, facts.topicPrefix)) log(`    ${line}`);
  } catch (error) {
    log(`    (consumer groups could not be read: ${(error as Error).message})`);
  }

  const logged: LogLine[] = [];
  for (const file of (await readdir(facts.logDir)).filter((f) => f.endsWith('.log'))) {
    const service = file.slice(0, -'.log'.length);
    logged.push(...parseLogLines(service, await readFile(path.join(facts.logDir, file), 'utf8')));
  }
  const entries = digest(logged, facts.faultStartedAt, 20);
  log(`    warnings and errors since the fault began (service-pid, level, count, seconds after its start):`);
  for (const line of formatDigest(entries, facts.faultStartedAt)) log(`      ${line}`);
  return lines;
}

/** For each article URL: is there an alert row, and the delivery log of its alerts (attempt:status). */
async function alertTrail(
  clickhouse: ClickHouse,
  urls: readonly string[],
): Promise<Map<string, { alert: boolean; deliveries: string[] }>> {
  const trail = new Map<string, { alert: boolean; deliveries: string[] }>();
  if (urls.length === 0) return trail;
  for (const url of urls) trail.set(url, { alert: false, deliveries: [] });
  const alerts = await clickhouse.query<{ alert_id: string; article_url: string }>(
    sql`SELECT DISTINCT alert_id, article_url FROM alerts WHERE article_url IN ${inList([...urls])}`,
  );
  const urlOf = new Map<string, string>();
  for (const a of alerts) {
    trail.get(a.article_url)!.alert = true;
    urlOf.set(a.alert_id, a.article_url);
  }
  if (urlOf.size === 0) return trail;
  const deliveries = await clickhouse.query<{ event_id: string; attempt: number; status: string }>(
    sql`SELECT event_id, attempt, status FROM webhook_deliveries
        WHERE event_id IN ${inList([...urlOf.keys()])} ORDER BY event_id, attempt, status`,
  );
  for (const d of deliveries) trail.get(urlOf.get(d.event_id)!)!.deliveries.push(`${d.attempt}:${d.status}`);
  return trail;
}

/** Each of the run's groups: its state, members, and lag (end offset − committed) per topic. */
async function groupLags(admin: Admin, prefix: string): Promise<string[]> {
  const ids = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
  const described = await admin.describeGroups(ids);
  const ends = new Map<string, number>();
  const lines: string[] = ['consumer groups (lag: end offset − committed, per topic):'];
  for (const group of described.groups.sort((a, b) => a.groupId.localeCompare(b.groupId))) {
    const committed = await admin.fetchOffsets({ groupId: group.groupId });
    const lags: string[] = [];
    for (const { topic, partitions } of committed) {
      let lag = 0;
      for (const p of partitions) {
        const key = `${topic}/${p.partition}`;
        if (!ends.has(key))
          for (const o of await admin.fetchTopicOffsets(topic))
            ends.set(`${topic}/${o.partition}`, Number(o.high));
        const end = ends.get(key) ?? 0;
        lag += Number(p.offset) < 0 ? end : Math.max(0, end - Number(p.offset));
      }
      if (lag > 0) lags.push(`${topic.slice(prefix.length)} ${lag}`);
    }
    lines.push(
      `  ${group.groupId.slice(prefix.length)}: ${group.state}, ${group.members.length} member(s); ` +
        `lag ${lags.join(', ') || '0'}`,
    );
  }
  return lines;
}
