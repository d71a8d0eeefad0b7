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
