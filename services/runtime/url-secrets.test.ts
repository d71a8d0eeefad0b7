import { describe, expect, it } from 'vitest';
import { isCredentialName, textWithoutUrlSecrets, withoutUrlSecrets } from './url-secrets.ts';

describe('a feed URL without its credentials', () => {
  it('hides the values of parameters named as credentials, and leaves the others as written', () => {
    expect(withoutUrlSecrets('https://example.com/feed?format=rss&token=s3cr3t&cat=a%20b')).toBe(
      'https://example.com/feed?format=rss&token=redacted&cat=a%20b',
    );
    expect(
      withoutUrlSecrets('https://example.com/rss?api_key=1&access_token=2&X-Amz-Signature=3&sig=4'),
    ).toBe(
      'https://example.com/rss?api_key=redacted&access_token=redacted&X-Amz-Signature=redacted&sig=redacted',
    );
    expect(withoutUrlSecrets('https://example.com/rss?Password=x&auth=y&session_id=z')).toBe(
      'https://example.com/rss?Password=redacted&auth=redacted&session_id=redacted',
    );
  });

  it('hides a user and password before the host', () => {
    expect(withoutUrlSecrets('https://ann:hunter2@example.com/feed.xml')).toBe(
      'https://redacted@example.com/feed.xml',
    );
    expect(withoutUrlSecrets('https://ann@example.com/feed.xml')).toBe(
      'https://redacted@example.com/feed.xml',
    );
  });

  it('returns a URL without credentials, and what is not a URL, exactly as given', () => {
    for (const url of [
      'https://example.com/feed?format=rss&page=2',
      'https://example.com/feed?keywords=ai&keyid=1&hashtag=x',
      'https://example.com/feed?token=',
      'not a url',
      'HTTPS://Example.com/a b',
    ])
      expect(withoutUrlSecrets(url)).toBe(url);
  });

  it('names credentials by how they end or by a telling part, not by any word that contains "key"', () => {
    for (const name of [
      'token',
      'key',
      'api-key',
      'user.pass',
      'mySecretToken',
      'private_token',
      'jwt',
      'code',
      // Ending in the word with nothing between (found by an outside audit: these were shown).
      'authkey',
      'mykey',
      'privatekey',
      'accessKey',
      'hmacsig',
      'authcode',
    ])
      expect(isCredentialName(name), name).toBe(true);
    for (const name of ['keywords', 'keyid', 'hashtag', 'format', 'passage', 'authors', 'signup'])
      expect(isCredentialName(name), name).toBe(false);
  });

  it('redacts every URL in a text, keeping the punctuation after it', () => {
    expect(
      textWithoutUrlSecrets(
        'the feed moved permanently: polled at https://b.example/rss?token=new from now on (it was at https://a.example/rss?token=old).',
      ),
    ).toBe(
      'the feed moved permanently: polled at https://b.example/rss?token=redacted from now on (it was at https://a.example/rss?token=redacted).',
    );
    expect(textWithoutUrlSecrets('HTTP 404 from https://a.example/feed')).toBe(
      'HTTP 404 from https://a.example/feed',
    );
  });
});
