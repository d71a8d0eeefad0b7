import { describe, expect, it } from 'vitest';
import { topicWords } from './gathering.ts';

describe('the words a topic is looked for by', () => {
  it.each([
    ['the week in semiconductors', ['week', 'semiconductor']],
    ['EU interest rates', ['eu', 'interest', 'rate']],
    ["Apple's chips", ['apple', 'chip']],
    ['a b', []],
    ['AI', ['ai']],
    [
      'oil gas coal wind solar nuclear hydro tidal wave geothermal',
      ['oil', 'gas', 'coal', 'wind', 'solar', 'nuclear', 'hydro', 'tidal'],
    ],
  ])('%s', (topic, words) => {
    expect(topicWords(topic)).toEqual(words);
  });
});
