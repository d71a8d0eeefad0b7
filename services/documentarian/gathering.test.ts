import { describe, expect, it } from 'vitest';
import { gatherArticles, topicWords } from './gathering.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';

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
    // The British spelling as written: the dictionary form is the American one.
    ['Labour', ['labour', 'labor']],
    ['defence spending', ['defence', 'defense', 'spending']],
    ['city centre', ['city', 'centre', 'center']],
    // A written form the dictionary form is no part of.
    ['women in data and media', ['women', 'woman', 'data', 'datum', 'media', 'medium']],
    // Acronyms that are stop words in lower case, unless the whole topic is in capitals.
    ['US election', ['US', 'election']],
    ['WHO warns', ['WHO', 'warn']],
    ['THE US ELECTION', ['election']],
  ])('%s', (topic, words) => {
    expect(topicWords(topic)).toEqual(words);
  });
});

describe('the articles a documentary reads', () => {
  const read = async (topic: string) => {
    const statements: string[] = [];
    // A stand-in that records what would be asked of ClickHouse (the SQL is what is under test here).
    const clickhouse = { query: async (statement: string) => (statements.push(statement), []) };
    await gatherArticles(clickhouse as unknown as ClickHouse, {
      tenantId: 'tenant',
      topic,
      sources: ['news'],
      language: 'en',
      from: new Date(0),
      to: new Date(86_400_000),
      limit: 10,
    });
    return statements.join('\n');
  };

  it("are those of the category a topic names, besides those that mention the topic's words", async () => {
    const business = await read('Business news');
    expect(business).toMatch(
      /\(position\(lowerUTF8\(.*'business'\) > 0 OR .* OR category = 'business'\) AND /,
    );
    expect(await read('sport funding')).not.toContain('category = ');
  });
});
