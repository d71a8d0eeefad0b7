// What the feed server releases during a chaos run: one article at a time at a steady rate, round the
// run's feeds, each feed serving its newest items (as a news site's feed does). Every article is
// recorded with the moment it was released, which is where its freshness is measured from, and with the
// monitored company it names, if any: a known share of the articles name one, so the alerts the system
// owes are known in advance.
import type { FeedServer } from '../support/feed-server.ts';

/** The companies the run's monitors watch, and which articles name them (by sequence number). */
export const monitoredCompanies = [
  { key: 'acme', company: 'Acme Widgets Ltd', names: (seq: number) => seq % 4 === 0 },
  { key: 'globex', company: 'Globex Corporation', names: (seq: number) => seq % 6 === 3 },
] as const;

export type MonitorKey = (typeof monitoredCompanies)[number]['key'];

export interface ReleasedArticle {
  seq: number;
  feed: number;
  guid: string;
  url: string;
  title: string;
  /** Epoch ms when the feed server started serving it. */
  releasedAt: number;
  /** The monitor whose company it names; null for most. */
  mentions: MonitorKey | null;
}

/** Items a feed keeps: more than a feed's share of the articles released while its poller is down. */
const itemsPerFeed = 400;

const towns = ['Leeds', 'Bristol', 'Norwich', 'Cardiff', 'Dundee', 'Exeter', 'Preston', 'Bath'];
const topics = ['bus lanes', 'library hours', 'flood defences', 'school meals', 'park lighting'];

export function feedName(feed: number): string {
  return `chaos-${feed}`;
}

/** The title and text of article `seq`: plain local news, or news that names a monitored company. */
export function articleText(
  run: string,
  seq: number,
): { title: string; text: string; mentions: MonitorKey | null } {
  const town = towns[seq % towns.length]!;
  const named = monitoredCompanies.find((m) => m.names(seq));
  if (named) {
    return {
      mentions: named.key,
      title: `${named.company} opens a depot in ${town} (${run} #${seq})`,
      text:
        `${named.company} said on Tuesday it would open a depot in ${town}, creating ${40 + (seq % 60)} jobs. ` +
        `The company expects the site to be running by the spring. Local officials welcomed the news.`,
    };
  }
  const topic = topics[seq % topics.length]!;
  return {
    mentions: null,
    title: `${town} council debates ${topic} (${run} #${seq})`,
    text:
      `Councillors in ${town} met on Tuesday to discuss ${topic}. ` +
      `A decision is expected next month after ${10 + (seq % 90)} residents wrote in. The meeting lasted three hours.`,
  };
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function rss(
  title: string,
  base: string,
  items: readonly ReleasedArticle[],
  texts: Map<number, string>,
): string {
  const body = items
    .map(
      (a) => `<item><title>${escapeXml(a.title)}</title><link>${a.url}</link>
<guid isPermaLink="false">${a.guid}</guid><pubDate>${new Date(a.releasedAt).toUTCString()}</pubDate>
<description>${escapeXml(texts.get(a.seq)!)}</description></item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${escapeXml(title)}</title>
<link>${base}/</link><language>en-gb</language>${body}</channel></rss>`;
}

export interface ReleaseSchedule {
  /** Every article released so far, in order. */
  readonly released: readonly ReleasedArticle[];
  /** Releases one article per tick until `stop()`. */
  start(): void;
  stop(): void;
}

export function releaseSchedule(options: {
  server: FeedServer;
  run: string;
  feeds: number;
  ratePerSecond: number;
  now?: () => number;
}): ReleaseSchedule {
  const { server, run, feeds } = options;
  const now = options.now ?? Date.now;
  const released: ReleasedArticle[] = [];
  const byFeed = Array.from({ length: feeds }, () => [] as ReleasedArticle[]);
  const texts = new Map<number, string>();
  for (let f = 0; f < feeds; f++)
    server.setFeed(feedName(f), rss(`Chaos ${run} ${f}`, server.url, [], texts));
  let timer: NodeJS.Timeout | undefined;
  const releaseOne = () => {
    const seq = released.length;
    const feed = seq % feeds;
    const { title, text, mentions } = articleText(run, seq);
    const article: ReleasedArticle = {
      seq,
      feed,
      guid: `chaos-${run}-${seq}`,
      url: `${server.url}/chaos/${run}/${seq}`,
      title,
      releasedAt: now(),
      mentions,
    };
    texts.set(seq, text);
    released.push(article);
    const items = byFeed[feed]!;
    items.unshift(article);
    if (items.length > itemsPerFeed) items.pop();
    server.setFeed(feedName(feed), rss(`Chaos ${run} ${feed}`, server.url, items, texts));
  };
  return {
    released,
    start: () => {
      timer ??= setInterval(releaseOne, 1000 / options.ratePerSecond);
    },
    stop: () => {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/** The sequence number in an article's URL (as released, and as the alert payloads carry it). */
export function seqOfUrl(url: string, run: string): number | null {
  const match = new RegExp(`/chaos/${run}/(\\d+)$`).exec(url);
  return match ? Number(match[1]) : null;
}
