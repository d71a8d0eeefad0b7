import { describe, expect, it } from 'vitest';
import { cityHash64, hashText } from './city-hash.ts';

// What ClickHouse 18.16 answers to SELECT cityHash64(s), for inputs that take each of CityHash 1.0.2's
// paths (0, 1-3, 4-8, 9-16, 17-32, 33-64 and more than 64 bytes, one and two 64-byte blocks).
const clickhouse: [string, string][] = [
  ['', '11160318154034397263'],
  ['a', '2603192927274642682'],
  ['ab', '1725057946192985918'],
  ['abc', '4220206313085259313'],
  ['abcd', '17823623939509273229'],
  ['world', '3839149080076100810'],
  ['abcdefgh', '4864636163090995991'],
  ['abcdefghi', '7406163328168016081'],
  ['interest', '16129723707924472691'],
  ['über', '11553103551263864949'],
  ['straße', '2959803768788611868'],
  ['東京', '2773762478580858133'],
  ['abcdefghijklmnop', '13242281798114038465'],
  ['abcdefghijklmnopq', '237482408704357350'],
  ['art_5ea204d5be0206d0212598c2f9b5e5a3', '7256345705952765059'],
  ['abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01', '6144595113434342607'],
  ['abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz012', '7244930889322273401'],
  [
    'The quick brown fox jumps over the lazy dog, and then some more words to pass one hundred and twenty-eight bytes of text in all.',
    '7293363150725809827',
  ],
];

describe('cityHash64', () => {
  it.each(clickhouse)('of %j is what ClickHouse answers', (text, expected) => {
    expect(hashText(cityHash64(text))).toBe(expected);
  });
});
