import { describe, expect, it } from 'vitest';
import { speakableText } from './speakable-text.ts';

describe('speakableText', () => {
  it('keeps ordinary text as it is, markup and an ellipsis included', () => {
    for (const text of [
      'The Bank of England raised rates to 5.25% on Thursday.',
      'Wait... what?! Prices rose by $3 (or €2.80).',
      'Read <b>this</b> at https://news.example/a?b=1&c=2',
      '"Yes," she said -- "now."',
    ])
      expect(speakableText(text)).toBe(text);
  });

  it('reads fullwidth letters and digits as the ASCII ones, and leaves fullwidth punctuation', () => {
    expect(speakableText('Ｈｅｌｌｏ ｗｏｒｌｄ, ｔｈｅ ｍａｒｋｅｔｓ ｒｏｓｅ.')).toBe(
      'Hello world, the markets rose.',
    );
    expect(speakableText('にほん ２０２６年（令和８年）！')).toBe('にほん 2026年（令和8年）！');
  });

  it('reads a run of marks as its first three, spaces between them or not', () => {
    expect(speakableText(`${'.'.repeat(4999)}g`)).toBe('...g');
    expect(speakableText('Really!!!!!!!! Yes.')).toBe('Really!!! Yes.');
    expect(speakableText('End . . . . . . of it')).toBe('End ... of it');
    expect(speakableText('a ----------- b')).toBe('a --- b');
  });

  it('leaves emoji out, and a keycap its digit', () => {
    expect(speakableText(`${'😀'.repeat(4999)}a`)).toBe('a');
    expect(speakableText('I ❤️ the news 👍🏽 today')).toBe('I the news today');
    expect(speakableText('Press 1️⃣ now 🇬🇧')).toBe('Press 1 now');
  });
});
