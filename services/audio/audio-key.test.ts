import { describe, expect, it } from 'vitest';
import { audioKey, formatOfKey, isAudioKey } from './audio-key.ts';

describe('audioKey', () => {
  it('is the same for the same identity and format, and differs when any part differs', () => {
    const identity = ['embedded', 'en-US-slt-hts', 'en', 1, 'Hello.'];
    const key = audioKey('mp3', identity);
    expect(audioKey('mp3', [...identity])).toBe(key);
    expect(audioKey('ogg', identity)).not.toBe(key);
    expect(audioKey('mp3', ['embedded', 'en-US-slt-hts', 'en', 1.5, 'Hello.'])).not.toBe(key);
    expect(audioKey('mp3', ['embedded', 'en-US-slt-hts', 'en', 1, 'Hello!'])).not.toBe(key);
  });

  it('cannot be made ambiguous by moving text between parts', () => {
    expect(audioKey('mp3', ['a,b', 'c'])).not.toBe(audioKey('mp3', ['a', 'b,c']));
  });

  it('names its format, and only keys of that shape pass isAudioKey', () => {
    const key = audioKey('ogg', ['x']);
    expect(key).toMatch(/^[0-9a-f]{40}\.ogg$/);
    expect(isAudioKey(key)).toBe(true);
    expect(formatOfKey(key)).toBe('ogg');
    for (const bad of ['../etc/passwd', `${key}/..`, key.replace('.ogg', '.exe'), key.toUpperCase(), ''])
      expect(isAudioKey(bad)).toBe(false);
  });
});
