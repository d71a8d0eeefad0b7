import { describe, expect, it } from 'vitest';
import { figuresIn } from './figures.ts';
import { parseSentences } from './sentences.ts';

const figures = (text: string) => figuresIn(parseSentences(text)[0]!);

describe('figuresIn', () => {
  it('finds money, percentages and counts as written', () => {
    expect(figures('Profits jumped 76% to $1.13bn (£600m), and it lost 464,000 subscribers.')).toEqual([
      { text: '76%', kind: 'percent' },
      { text: '$1.13bn', kind: 'money' },
      { text: '£600m', kind: 'money' },
      { text: '464,000', kind: 'count' },
    ]);
  });

  it('reads "per cent" and amounts named in words', () => {
    expect(figures('Sales rose 3.5 per cent to 5bn euros.')).toEqual([
      { text: '3.5 per cent', kind: 'percent' },
      { text: '5bn euros', kind: 'money' },
    ]);
  });

  it('does not count a year as a figure', () => {
    expect(figures('The plant opened in 2005.')).toEqual([]);
  });
});
