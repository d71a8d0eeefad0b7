import { describe, expect, it } from 'vitest';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { discoveredArticle } from '../../test/support/discovered-article.ts';
import {
  boundedHeld,
  decodeHeld,
  encodeHeld,
  heldAtPoll,
  heldLimits,
  type HeldRevision,
} from './held-revisions.ts';

const at = Date.UTC(2026, 11, 7, 12);

const article = (id: string, fields: Partial<ArticleDiscovered> = {}) => discoveredArticle(id, at, fields);

const held = (id: string, notBefore: number, fields: Partial<ArticleDiscovered> = {}): HeldRevision => ({
  article: article(id, fields),
  dated: true,
  notBefore,
});

describe('heldAtPoll', () => {
  it('drops what the feed still lists, releases what left it once due, and keeps the rest', () => {
    const entries = [held('listed', at - 1), held('due', at), held('early', at + 1)];
    const { due, kept } = heldAtPoll(entries, new Set(['listed', 'other']), at);
    expect(due.map((h) => h.article.article_id)).toEqual(['due']);
    expect(kept.map((h) => h.article.article_id)).toEqual(['early']);
  });
});

describe('boundedHeld', () => {
  it('keeps the latest listing of an article, the soonest due first', () => {
    const kept = boundedHeld([
      held('a', at + 9, { title: 'First fix' }),
      held('b', at + 5),
      held('a', at + 7, { title: 'Second fix' }),
    ]);
    expect(kept.map((h) => [h.article.article_id, h.article.title, h.notBefore])).toEqual([
      ['b', 'Minister resigns', at + 5],
      ['a', 'Second fix', at + 7],
    ]);
  });

  it(`keeps at most ${heldLimits.count} entries and ${heldLimits.bytes} bytes, leaving out those due last`, () => {
    const many = Array.from({ length: heldLimits.count + 10 }, (_, i) => held(`a${i}`, at + 100 - i));
    const byCount = boundedHeld(many);
    expect(byCount).toHaveLength(heldLimits.count);
    expect(byCount[0]!.notBefore).toBe(at + 100 - (heldLimits.count + 9));
    const long = 'x'.repeat(40_000);
    const big = Array.from({ length: 10 }, (_, i) => held(`b${i}`, at + i, { content: long }));
    const byBytes = boundedHeld(big);
    expect(byBytes.map((h) => h.article.article_id)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
    expect(encodeHeld(byBytes).length).toBeLessThanOrEqual(heldLimits.bytes);
  });
});

describe('encodeHeld and decodeHeld', () => {
  it('read back what was written, and nothing as the empty field', () => {
    const entries = [held('a', at + 1, { author: 'Ann', category: 'politics' })];
    expect(decodeHeld(encodeHeld(entries))).toEqual(entries);
    expect(encodeHeld([])).toBe('');
    expect(decodeHeld('')).toEqual([]);
    expect(decodeHeld(undefined)).toEqual([]);
  });

  it('leave out what is not a held update the topic would take, and read nothing from what is not JSON', () => {
    const good = held('a', at + 1);
    const stored = JSON.stringify([
      good,
      { ...good, notBefore: 'soon' },
      { ...good, dated: 1 },
      { ...good, article: { ...good.article, revision: '2' } },
      { ...good, article: { article_id: 'b', title: 'No more fields' } },
      null,
      'text',
    ]);
    expect(decodeHeld(stored)).toEqual([good]);
    expect(decodeHeld('{"not": "a list"}')).toEqual([]);
    expect(decodeHeld('[{"article": ')).toEqual([]);
  });
});
