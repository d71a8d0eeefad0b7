import { describe, expect, it } from 'vitest';
import { StoryClusterer, type StoryDecision } from './story-clusterer.ts';
import { storyDecision, storyEvent } from './story-events.ts';

const at = Date.parse('2026-03-02T08:00:00Z');

describe('story events', () => {
  it('record every kind of decision exactly, and read back as the same decision', () => {
    const decisions: StoryDecision[] = [
      {
        type: 'opened',
        storyId: 's1',
        similarity: null,
        articleId: 'a1',
        sourceId: 'bbc',
        language: 'en',
        category: 'business',
        at,
        vector: [
          ['e:fed', 0.7071067811865475],
          ['taper', 0.7071067811865476],
        ],
        terms: ['e:fed', 'taper'],
      },
      {
        type: 'joined',
        storyId: 's1',
        similarity: 0.412345,
        articleId: 'a2',
        sourceId: 'cnn',
        language: null,
        category: null,
        at: at + 1,
        vector: [['taper', 1]],
        terms: ['taper'],
      },
      { type: 'merged', storyId: 's2', into: 's1', articleIds: ['a3', 'a4'], at: at + 2 },
      { type: 'closed', storyId: 's1', at: at + 3 },
      { type: 'breaking', storyId: 's1', articleIds: ['a1', 'a2'], at: at + 4 },
    ];
    for (const d of decisions) expect(storyDecision(storyEvent(d, at + 10))).toEqual(d);
  });

  it('reads an event type it does not know as nothing to apply', () => {
    const event = storyEvent({ type: 'closed', storyId: 's1', at }, at);
    expect(storyDecision({ ...event, type: 'unknown' })).toBeNull();
  });

  it('refuses a joined event without its article', () => {
    const event = storyEvent(
      {
        type: 'joined',
        storyId: 's1',
        similarity: 0.5,
        articleId: 'a',
        sourceId: 'x',
        language: 'en',
        category: null,
        at,
        vector: [],
        terms: [],
      },
      at,
    );
    expect(() => storyDecision({ ...event, article_id: null })).toThrow(/has no article/);
  });

  it('rebuilds a clusterer from the events of another that gives the same next decision', () => {
    const original = new StoryClusterer();
    const log = [];
    const article = (id: string, title: string, minutes: number) => ({
      id,
      sourceId: id,
      language: 'en',
      at: at + minutes * 60_000,
      title,
      lead: '',
      entities: ['Federal Reserve'],
      keywords: [],
    });
    for (const a of [
      article('a1', 'Federal Reserve holds rates steady', 0),
      article('a2', 'Federal Reserve keeps rates on hold', 5),
      article('a3', 'Storm floods coastal towns', 9),
    ])
      for (const d of original.decide(a)) {
        original.apply(d);
        log.push(storyEvent(d, at));
      }
    const rebuilt = new StoryClusterer();
    for (const e of log) rebuilt.apply(storyDecision(e)!);
    const next = article('a4', 'Federal Reserve rates decision: hold', 12);
    expect(rebuilt.decide(next)).toEqual(original.decide(next));
    expect(rebuilt.storyOf('a2')).toBe(original.storyOf('a2'));
  });
});
