import { describe, expect, it } from 'vitest';
import { readingTimeSeconds, wordsPerMinute } from './reading-time.ts';

describe('readingTimeSeconds', () => {
  it('reads about 230 words a minute', () => {
    expect(readingTimeSeconds(Array.from({ length: wordsPerMinute }, () => 'word').join(' '))).toBe(60);
    expect(readingTimeSeconds(Array.from({ length: 115 }, () => 'word').join('\n'))).toBe(30);
  });

  it('takes at least a second for any text and nothing for none', () => {
    expect(readingTimeSeconds('Hi.')).toBe(1);
    expect(readingTimeSeconds('  \n - ')).toBe(0);
  });
});

describe('readingTimeSeconds in scripts without spaces', () => {
  it('counts Chinese and Japanese by their characters, Japanese faster', () => {
    expect(readingTimeSeconds('中'.repeat(255))).toBe(60);
    expect(readingTimeSeconds('日本の'.repeat(119))).toBe(60);
    // Latin words among them count as words.
    expect(
      readingTimeSeconds(`${'中'.repeat(255)} ${Array.from({ length: 230 }, () => 'word').join(' ')}`),
    ).toBe(120);
  });

  it('counts Thai, Lao, Khmer and Burmese in the words a dictionary finds', () => {
    // "ภาษาไทย" is two words (ภาษา, ไทย) to ICU: 115 times is 230 words, a minute.
    expect(readingTimeSeconds(Array.from({ length: 115 }, () => 'ภาษาไทย').join(''))).toBe(60);
  });
});
