import { describe, expect, it } from 'vitest';
import { joinSentences, parseSentences, splitSentences } from './sentences.ts';

describe('splitSentences', () => {
  it('does not split at abbreviations, initials or decimals', () => {
    expect(
      splitSentences(
        'Mr. Smith paid $3.5 million to the U.S. Treasury on Monday. Dr. J. R. Jones disagreed. Shares rose 2.5% to 10.25p.',
      ),
    ).toEqual([
      'Mr. Smith paid $3.5 million to the U.S. Treasury on Monday.',
      'Dr. J. R. Jones disagreed.',
      'Shares rose 2.5% to 10.25p.',
    ]);
  });

  it('keeps a quoted question with its speaker and splits after a closing quote', () => {
    expect(splitSentences('"Is this it?" she asked. He said: "We will win." Then he left.')).toEqual([
      '"Is this it?" she asked.',
      'He said: "We will win."',
      'Then he left.',
    ]);
  });

  it('treats every line as a boundary, even without a full stop', () => {
    expect(
      splitSentences('A headline without a stop\nThe body starts here. It goes on.\n\n  Last line.  '),
    ).toEqual(['A headline without a stop', 'The body starts here.', 'It goes on.', 'Last line.']);
  });

  it('does not break a domain name or a title ending in "!" off its sentence', () => {
    expect(
      splitSentences(
        'It links to Amazon.com when it finds a book. It was spoofed in Airplane!, starring Leslie Nielsen.',
      ),
    ).toEqual([
      'It links to Amazon.com when it finds a book.',
      'It was spoofed in Airplane!, starring Leslie Nielsen.',
    ]);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences(' \n\t\n')).toEqual([]);
  });
});

describe('parseSentences', () => {
  it('numbers sentences and paragraphs and annotates tokens', () => {
    const [first, second] = parseSentences('Their profits were not good.\nThe firm never fails.');
    expect(first!.index).toBe(0);
    expect(second!.index).toBe(1);
    expect(second!.paragraph).toBe(1);
    const good = first!.tokens.find((t) => t.normal === 'good')!;
    expect(good.negated).toBe(true);
    expect(first!.tokens.find((t) => t.normal === 'profits')!.lemma).toBe('profit');
    expect(second!.tokens.find((t) => t.normal === 'the')!.stopWord).toBe(true);
  });
});

describe('a token too long to be a word', () => {
  it('keeps its normal form as its stem, and the words beside it are stemmed as ever', () => {
    const long = 'É'.repeat(50_000);
    const [sentence] = parseSentences(`Markets ${long} rallied.`);
    const stems = sentence!.tokens.map((t) => t.stem);
    expect(stems).toContain('é'.repeat(50_000));
    expect(stems).toContain('ralli');
    expect(stems).toContain('market');
  });

  it('ends sentences at the full stops of Chinese, Japanese, Hindi, Burmese and Khmer, not inside 「quotes」', () => {
    expect(splitSentences('日銀は利上げを決めた。17年ぶりとなる！本当か？はい。')).toEqual([
      '日銀は利上げを決めた。',
      '17年ぶりとなる！',
      '本当か？',
      'はい。',
    ]);
    expect(
      splitSentences('総裁は「好循環が強まっている。今後も注視する。」と述べた。市場は下落した。'),
    ).toEqual(['総裁は「好循環が強まっている。今後も注視する。」と述べた。', '市場は下落した。']);
    expect(splitSentences('中国央行宣布降准。市场反应积极！')).toEqual([
      '中国央行宣布降准。',
      '市场反应积极！',
    ]);
    expect(splitSentences('भारत में बारिश हुई। लोग खुश हैं।')).toEqual(['भारत में बारिश हुई।', 'लोग खुश हैं।']);
    expect(splitSentences('ငလျင်လှုပ်ခဲ့သည်။ ပျက်စီးမှုမရှိပါ။')).toEqual(['ငလျင်လှုပ်ခဲ့သည်။', 'ပျက်စီးမှုမရှိပါ။']);
  });

  it('are put back together with a space, but none after a Chinese or Japanese full stop', () => {
    expect(joinSentences(['It rose.', 'It fell.'])).toBe('It rose. It fell.');
    expect(joinSentences(['決めた。', '17年ぶり。', 'It rose.'])).toBe('決めた。17年ぶり。It rose.');
    expect(joinSentences([])).toBe('');
  });
});

describe('parseSentences on runs too long to be words', () => {
  it('keeps a 100,000-character run verbatim, as one symbol, in its sentence', () => {
    const run = 'ab'.repeat(50_000);
    const [first, second, ...rest] = parseSentences(`Shares rose on Monday. See ${run} for more. The end.`);
    expect(rest).toHaveLength(1);
    expect(first!.text).toBe('Shares rose on Monday.');
    expect(second!.text).toBe(`See ${run} for more.`);
    const long = second!.tokens.find((t) => t.text.length > 1_000)!;
    expect(long).toMatchObject({ text: run, normal: run, stem: run, kind: 'symbol' });
    expect(second!.tokens.map((t) => t.text)).toEqual(['See', run, 'for', 'more', '.']);
  });

  it('puts several runs back in their order, and leaves runs of Chinese to be cut into words', () => {
    const one = `x${'1'.repeat(600)}`;
    const two = `y${'2'.repeat(600)}`;
    const [sentence] = parseSentences(`A ${one} and ${two} met.`);
    expect(sentence!.text).toBe(`A ${one} and ${two} met.`);
    expect(sentence!.tokens.filter((t) => t.kind === 'symbol').map((t) => t.text)).toEqual([one, two]);
    const chinese = '中国半导体产业发展迅速'.repeat(60);
    const [han] = parseSentences(`${chinese}。`);
    expect(han!.tokens.some((t) => t.text === '半导体')).toBe(true);
  });
});
