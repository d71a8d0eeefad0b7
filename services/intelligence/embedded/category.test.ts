import { describe, expect, it } from 'vitest';
import { classifyCategory } from './category.ts';
import { cupFinalArticle, layoffsArticle } from '../../../test/support/sample-articles.ts';
import { parseSentences } from './sentences.ts';

const classify = (text: string, title = '') => classifyCategory(parseSentences(title), parseSentences(text));

describe('classifyCategory', () => {
  it('recognises business and sports news', () => {
    expect(classify(layoffsArticle.text, layoffsArticle.title)).toBe('business');
    expect(classify(cupFinalArticle.text, cupFinalArticle.title)).toBe('sports');
  });

  it('recognises politics, technology, entertainment, health and environment', () => {
    expect(
      classify('MPs voted on the bill in parliament.\nThe opposition party called for an election.'),
    ).toBe('politics');
    expect(classify('The new software update fixes a browser virus.\nUsers can download it online.')).toBe(
      'technology',
    );
    expect(classify('The film won an Oscar.\nThe actress thanked the director and the cast.')).toBe(
      'entertainment',
    );
    expect(
      classify('Doctors at the hospital treated patients for the disease.\nA vaccine is expected.'),
    ).toBe('health');
    expect(classify('Carbon emissions are driving climate change.\nPollution harms wildlife.')).toBe(
      'environment',
    );
  });

  it('weighs the headline above the body', () => {
    expect(classify('The team was in the news.', 'Parliament election called')).toBe('politics');
  });

  it('says null when nothing in the text speaks to a subject', () => {
    expect(classify('It was a quiet day.\nNothing much happened.')).toBeNull();
  });
});
