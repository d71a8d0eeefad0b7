import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.ts';
import { parseSentences } from './sentences.ts';

const entities = (title: string, text: string) =>
  extractEntities(parseSentences(title), parseSentences(text)).map((e) => [e.name, e.type]);

describe('entities of Chinese and Japanese', () => {
  it('finds a Chinese person after a title, however ICU cut the name', () => {
    const found = entities(
      '美国总统拜登会见乌克兰总统泽连斯基',
      '美国总统拜登周二在华盛顿会见了乌克兰总统泽连斯基。国家主席习近平同法国总统马克龙举行会谈。' +
        '外交部发言人毛宁说，中方反对单边制裁。国务院总理李强会见了世界银行行长。拜登表示将继续支持乌克兰。',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        ['拜登', 'person'],
        ['泽连斯基', 'person'],
        // A name of a common surname is three characters at most: not 习近平同, 马克龙举.
        ['习近平', 'person'],
        ['马克龙', 'person'],
        ['毛宁', 'person'],
        ['李强', 'person'],
        ['外交部', 'organization'],
        ['国务院', 'organization'],
        ['世界银行', 'organization'],
        ['美国', 'place'],
        ['乌克兰', 'place'],
        ['华盛顿', 'place'],
      ]),
    );
    expect(found.map(([name]) => name)).not.toContain('行长');
    expect(found[0]![0]).toMatch(/^(拜登|乌克兰)$/); // in the headline and said again
  });

  it('finds organisations by their last word and places by their administrative unit', () => {
    const found = entities(
      '中国人民银行宣布下调存款准备金率',
      '中国人民银行周五宣布，将下调金融机构存款准备金率。阿里巴巴集团的股价上涨。广东省深圳市的出口增长。' +
        '华为技术有限公司发布新机。',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        ['中国人民银行', 'organization'],
        ['阿里巴巴集团', 'organization'],
        ['广东省', 'place'],
        ['深圳市', 'place'],
      ]),
    );
    // Only a trade word is left before 有限公司 (华|为 has a stop word): no name rather than a wrong one.
    expect(found.map(([name]) => name)).not.toContain('技术有限公司');
    // The country inside the bank's name is not a place of its own.
    expect(found.map(([name]) => name)).not.toContain('中国');
  });

  it('finds a Japanese person before a title, and no person where the run before it is no name', () => {
    const found = entities(
      '日銀、マイナス金利を解除',
      '日銀の植田和男総裁は19日、記者会見した。岸田文雄首相は「歓迎する」と述べた。米国のバイデン大統領も声明を出した。' +
        '東京都の小池百合子知事は横浜市で講演した。ソフトバンクグループの孫正義会長は投資を発表した。' +
        'トヨタ自動車社長は欠席した。代表取締役社長が交代した。植田総裁は慎重だった。',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        ['日銀', 'organization'],
        ['植田和男', 'person'],
        ['岸田文雄', 'person'],
        ['バイデン', 'person'],
        ['小池百合子', 'person'],
        ['孫正義', 'person'],
        ['ソフトバンクグループ', 'organization'],
        ['トヨタ自動車', 'organization'],
        ['米国', 'place'],
        ['東京都', 'place'],
        ['横浜市', 'place'],
      ]),
    );
    const names = found.map(([name]) => name);
    // 植田 alone is 植田和男, counted there.
    expect(names).not.toContain('植田');
    expect(names).not.toContain('代表取締役');
    expect(names.filter((n) => n === 'トヨタ自動車')).toHaveLength(1);
  });

  it('counts a name’s mentions in the text and the headline', () => {
    const [first] = extractEntities(
      parseSentences('拜登访问日本'),
      parseSentences('美国总统拜登抵达东京。拜登会见了日本首相。拜登随后离开。'),
    );
    expect(first).toMatchObject({ name: '拜登', type: 'person', mentions: 4, salience: 1 });
    // A name the headline alone writes is mentioned once.
    const headlineOnly = extractEntities(
      parseSentences('拜登访问日本'),
      parseSentences('美国总统抵达东京。'),
    );
    expect(headlineOnly.find((e) => e.name === '拜登')?.mentions ?? 1).toBe(1);
  });
});
