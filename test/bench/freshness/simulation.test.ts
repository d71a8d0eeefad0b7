// What bench:freshness counts: its feeds answer as a feed server would, and a run's requests, delays
// and misses are those of the polls it simulates.
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../../services/feeds/parser/parse-feed.ts';
import { defaultIntervalSettings } from '../../../services/poller/poll-interval.ts';
import { mulberry32 } from '../../support/mulberry32.ts';
import { answer, feedWindow, itemOfGuid, simulatedFeeds, type SimulatedFeed } from './simulated-feeds.ts';
import { simulate } from './simulation.ts';

const minute = 60_000;
const day = { from: Date.UTC(2026, 10, 2), until: Date.UTC(2026, 10, 3) };

const feed = (published: number[], overrides: Partial<SimulatedFeed> = {}): SimulatedFeed => ({
  index: 0,
  url: 'https://feed-0.bench.example/rss',
  meanGapMs: 60 * minute,
  published,
  dated: true,
  ttlMinutes: null,
  syHourly: false,
  freshForMs: null,
  failureRate: 0,
  ...overrides,
});

describe('the simulated feeds', () => {
  it('are the same for the same seed, from every few minutes to weekly, each with a full window at the start', () => {
    const feeds = simulatedFeeds(200, mulberry32(7), day.from, day.until);
    expect(simulatedFeeds(200, mulberry32(7), day.from, day.until)).toEqual(feeds);
    expect(Math.min(...feeds.map((f) => f.meanGapMs))).toBeLessThan(30 * minute);
    expect(Math.max(...feeds.map((f) => f.meanGapMs))).toBeGreaterThan(2 * 24 * 60 * minute);
    for (const f of feeds) {
      expect(f.published.filter((at) => at < day.from).length).toBeGreaterThanOrEqual(feedWindow);
      expect(f.published).toEqual([...f.published].sort((a, b) => a - b));
    }
  });

  it('answer with the latest items as RSS the parser reads, then 304 for the same ETag', () => {
    const f = feed(
      Array.from({ length: 40 }, (_, k) => day.from + k * minute),
      { ttlMinutes: 30, syHourly: true, freshForMs: 0 },
    );
    const at = day.from + 35 * minute;
    const first = answer(f, { url: f.url }, at, () => 0.5);
    if (first.kind !== 'ok') throw new Error(first.kind);
    expect(first.hints.freshForMs).toBe(0);
    const parsed = parseFeed(first.body, first.contentType, { baseUrl: f.url });
    expect(parsed.items.map((i) => itemOfGuid(i.guid)!.item)).toEqual(
      Array.from({ length: feedWindow }, (_, i) => 35 - i),
    );
    expect(parsed.items[0]!.published!.getTime()).toBe(day.from + 35 * minute);
    expect(parsed.hints).toMatchObject({ ttlSeconds: 1800, updateIntervalSeconds: 3600 });
    expect(answer(f, { url: f.url, etag: first.etag }, at, () => 0.5).kind).toBe('not_modified');
    expect(answer(f, { url: f.url, etag: first.etag }, at + minute, () => 0.5).kind).toBe('ok');
  });
});

describe('a simulated run', () => {
  it('counts the requests of the day, and each article found from its publication to the poll that appended it', async () => {
    // An item every 10 minutes through the day, polled every 30 minutes (±10%).
    const published = Array.from(
      { length: 24 * 6 + 30 },
      (_, k) => day.from - 30 * 10 * minute + k * 10 * minute,
    );
    const run = await simulate(
      [feed(published)],
      day,
      { intervals: { ...defaultIntervalSettings, adaptive: false }, configuredSeconds: 1800 },
      1,
    );
    expect(run.requests).toBeGreaterThanOrEqual(44);
    expect(run.requests).toBeLessThanOrEqual(54);
    expect(run.byStatus.ok + run.byStatus.not_modified).toBe(run.requests);
    expect(run.delays).toHaveLength(24 * 6);
    expect(run.missed).toBe(0);
    expect(run.delays[0]).toBeGreaterThanOrEqual(0);
    expect(run.delays.at(-1)).toBeLessThanOrEqual(1.1 * 30 * minute);
    expect(run.lastPolls[0]).toMatchObject({ poll_interval_seconds: 1800 });
  });

  it('counts the articles that left the window before a poll as missed', async () => {
    // 40 items in a minute, the day's first poll within 10 s of midnight, a window of 30.
    const published = Array.from({ length: 40 }, (_, k) => day.from + 5 * minute + k * 1000);
    const run = await simulate(
      [feed(published)],
      day,
      { intervals: { ...defaultIntervalSettings, adaptive: false }, configuredSeconds: 3600 },
      1,
    );
    expect(run.delays).toHaveLength(feedWindow);
    expect(run.missed).toBe(10);
  });
});
