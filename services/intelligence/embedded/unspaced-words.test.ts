import { describe, expect, it } from 'vitest';
import { parseSentences } from './sentences.ts';

const tokens = (text: string) => parseSentences(text).flatMap((s) => s.tokens);
const words = (text: string) =>
  tokens(text)
    .filter((t) => t.kind === 'word' && !t.stopWord)
    .map((t) => t.stem);

describe('words of scripts written without spaces', () => {
  it('cuts Chinese into the words of ICU’s dictionary, its function words stop words', () => {
    expect(words('中国半导体产业的发展非常迅速。')).toEqual(['中国', '半导体', '产业', '发展', '迅速']);
    const all = tokens('中国半导体产业的发展非常迅速。');
    expect(all.find((t) => t.text === '的')).toMatchObject({ kind: 'word', stopWord: true });
    expect(all.at(-1)).toMatchObject({ text: '。', kind: 'punctuation' });
  });

  it('makes the particles of Japanese, written in Hiragana, stop words', () => {
    expect(words('トヨタ自動車は連結決算を発表した。')).toEqual(['トヨタ', '自動車', '連結', '決算']);
  });

  it('keeps a number a number and a Latin word inside the run a word', () => {
    const all = tokens('アップルは新型iPhoneを2024年に発売');
    expect(all.find((t) => t.text === '2024')).toMatchObject({ kind: 'number' });
    expect(all.find((t) => t.text === 'iPhone')).toMatchObject({ kind: 'word' });
    expect(words('アップルは新型iPhoneを2024年に発売')).toEqual(
      expect.arrayContaining(['アップル', '新型', '発売']),
    );
  });

  it('says which words had a space before them', () => {
    const all = tokens('半导体 银行');
    expect(all.map((t) => [t.text, t.spaced])).toEqual([
      ['半导体', false],
      ['银行', true],
    ]);
  });

  it('cuts Thai by its dictionary too', () => {
    expect(words('ธนาคารกรุงเทพประกาศผลกำไร')).toEqual(['ธนาคาร', 'กรุงเทพ', 'ประกาศ', 'ผล', 'กำไร']);
  });

  it('stems a Korean word by taking its particle off, when two syllables stay', () => {
    expect(words('삼성전자가 반도체를 국가에 공급했다.')).toEqual(['삼성전자', '반도체', '국가', '공급했다']);
    // 국가 ("nation") ends like the particle 가 but is one word.
    expect(words('국가 경제가')).toEqual(['국가', '경제']);
  });

  it('leaves English as wink tokenises it', () => {
    expect(words('Semiconductor exports grew.')).toEqual(['semiconductor', 'export', 'grew']);
  });
});
