import { describe, expect, it } from 'vitest';
import { extractKeywords } from './keywords.ts';
import { parseSentences } from './sentences.ts';
import { isMostlyHanOrKana } from './unspaced-keywords.ts';

const keywords = (title: string, text: string) =>
  extractKeywords(parseSentences(title), parseSentences(text));

const reserveCut = {
  title: '中国人民银行宣布下调存款准备金率',
  text:
    '中国人民银行周五宣布，将下调金融机构存款准备金率0.5个百分点。这是央行今年第二次降准。' +
    '分析人士认为，降准将释放长期资金约1万亿元，有助于支持实体经济发展。' +
    '央行表示，此次降准不包括已执行5%存款准备金率的金融机构。' +
    '市场预计，央行还可能在下月下调贷款市场报价利率。',
};

const toyotaResults = {
  title: 'トヨタ自動車、過去最高益を更新',
  text:
    'トヨタ自動車は8日、2024年3月期の連結決算を発表した。営業利益は前期比96%増の5兆3529億円となり、' +
    '過去最高を更新した。円安が追い風となったほか、ハイブリッド車の販売が好調だった。' +
    'トヨタ自動車の佐藤恒治社長は記者会見で「電動化への投資を続ける」と述べた。' +
    'ハイブリッド車の需要は北米で特に強い。',
};

describe('keywords of Chinese and Japanese', () => {
  it('keeps the phrases a Chinese article repeats, whole, however finely ICU cuts them', () => {
    const found = keywords(reserveCut.title, reserveCut.text);
    expect(found.slice(0, 2).sort()).toEqual(['中国人民银行', '存款准备金率']);
    expect(found).toEqual(expect.arrayContaining(['金融机构', '央行', '降准', '下调']));
    // Pieces that only ever occur inside a kept phrase give way to it.
    for (const piece of ['人民银行', '中国人民', '准备金', '准备金率', '存款准备'])
      expect(found).not.toContain(piece);
  });

  it('leaves out function words, reporting verbs and what the article says once', () => {
    const found = keywords(reserveCut.title, reserveCut.text);
    for (const word of ['表示', '认为', '今年', '宣布', '的', '释放', '贷款'])
      expect(found).not.toContain(word);
  });

  it('finds Japanese noun compounds between the particles', () => {
    const found = keywords(toyotaResults.title, toyotaResults.text);
    expect(found[0]).toBe('トヨタ自動車');
    expect(found.slice(1, 3).sort()).toEqual(['ハイブリッド車', '過去最高']);
    for (const word of ['トヨタ', '自動車', '発表', '記者会見', 'の', '円'])
      expect(found).not.toContain(word);
  });

  it('weighs the headline three times and caps the list', () => {
    // 手机 twice in the text, 电池 once there and once in the headline.
    const text = '手机销量大增。电池需求旺盛。手机出口增长。';
    expect(keywords('电池', text).slice(0, 2)).toEqual(['电池', '手机']);
    const products = [
      '手机',
      '电脑',
      '芯片',
      '电池',
      '光伏',
      '钢铁',
      '煤炭',
      '石油',
      '天然气',
      '稀土',
      '粮食',
      '大豆',
    ];
    const found = keywords('', products.map((p) => `${p}产量增长。${p}出口增长。`).join(''));
    expect(found).toHaveLength(10);
  });

  it('tells Chinese and Japanese text from text that only quotes a name in them', () => {
    expect(isMostlyHanOrKana(reserveCut.text)).toBe(true);
    expect(isMostlyHanOrKana(toyotaResults.text)).toBe(true);
    expect(isMostlyHanOrKana('Toyota (トヨタ自動車) posted record profits on Wednesday.')).toBe(false);
    expect(isMostlyHanOrKana('삼성전자가 실적을 발표했다')).toBe(false);
    expect(isMostlyHanOrKana('2024 — 5%')).toBe(false);
  });

  it('leaves English articles to the English method', () => {
    const text = [
      'The central bank raised interest rates on Thursday.',
      'Higher interest rates will slow borrowing at Toyota (トヨタ自動車).',
      'Economists expect interest rates to stay high.',
    ].join('\n');
    expect(keywords('', text)[0]).toBe('interest rate');
  });
});
