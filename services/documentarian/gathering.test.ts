import { describe, expect, it } from 'vitest';
import { topicWords } from './gathering.ts';

describe('the words a topic is looked for by', () => {
  it.each([
    ['the week in semiconductors', ['week', 'semiconductor']],
    ['EU interest rates', ['eu', 'interest', 'rate']],
    ["Apple's chips", ['apple', 'chip']],
    ['a b', []],
    ['AI', ['ai']],
    // Written without spaces: ICU's words; Korean without its particle.
    ['半导体', ['半导体']],
    ['人工智能的发展', ['人工', '智能', '发展']],
    ['半導体の輸出規制', ['半導体', '輸出', '規制']],
    ['삼성전자의 반도체', ['삼성전자', '반도체']],
    [
      'oil gas coal wind solar nuclear hydro tidal wave geothermal',
      ['oil', 'gas', 'coal', 'wind', 'solar', 'nuclear', 'hydro', 'tidal'],
    ],
  ])('%s', (topic, words) => {
    expect(topicWords(topic)).toEqual(words);
  });
});
