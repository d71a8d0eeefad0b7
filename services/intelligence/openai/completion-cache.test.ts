import { describe, expect, it } from 'vitest';
import { completionCacheKey, type CompletionQuestion } from './completion-cache.ts';

const question: CompletionQuestion = {
  model: 'gpt-4o-mini',
  operation: 'summarize',
  promptVersion: 1,
  options: { length: 'short', tone: 'neutral' },
  title: 'Title',
  text: 'Text.',
  relatedArticleIds: [],
};

describe('completionCacheKey', () => {
  it('is a sha256 digest that ignores the order of options', () => {
    const key = completionCacheKey(question);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(completionCacheKey({ ...question, options: { tone: 'neutral', length: 'short' } })).toBe(key);
  });

  it.each<[string, Partial<CompletionQuestion>]>([
    ['model', { model: 'gpt-4o' }],
    ['operation', { operation: 'educate' }],
    ['prompt version', { promptVersion: 2 }],
    ['options', { options: { length: 'long', tone: 'neutral' } }],
    ['title', { title: 'Other' }],
    ['text', { text: 'Text!' }],
    ['related articles', { relatedArticleIds: ['a'] }],
  ])('changes with the %s', (_, change) => {
    expect(completionCacheKey({ ...question, ...change })).not.toBe(completionCacheKey(question));
  });
});
