import { describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { apiPublicUrlSetting, audioAddress } from './audio-address.ts';

const publicUrl = (value: string | undefined) =>
  loadConfig({ API_PUBLIC_URL: apiPublicUrlSetting }, value === undefined ? {} : { API_PUBLIC_URL: value })
    .API_PUBLIC_URL;

describe('API_PUBLIC_URL', () => {
  it('is an http(s) URL, or empty for the local address', () => {
    expect(publicUrl('https://news.example/api/')).toBe('https://news.example/api/');
    expect(publicUrl(undefined)).toBe('');
    expect(publicUrl('')).toBe('');
    expect(audioAddress(publicUrl(''), 'a/b.mp3')).toBe('http://127.0.0.1:8080/v1/audio/a/b.mp3');
  });

  it('refuses what is not one: every audio_url would be built on it', () => {
    for (const value of ['notaurl', 'ftp://news.example', 'news.example/api'])
      expect(() => publicUrl(value)).toThrow(/API_PUBLIC_URL: expected an http\(s\) URL/);
  });
});
