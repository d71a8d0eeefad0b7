import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../../test/support/random-text.ts';
import { crc32c, crc32cImplementation, crc32cTable } from './crc32c.ts';

const require = createRequire(import.meta.url);
const kafkajsCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as (b: Buffer) => number;

describe('crc32c', () => {
  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'uses the native checksum where the package has a binary (linux x64)',
    () => {
      expect(crc32cImplementation).toBe('native');
    },
  );

  it('computes the CRC-32C KafkaJS does, natively and by the tables, on every length up to 300', () => {
    const random = seeded(3);
    for (let length = 0; length < 300; length++) {
      const buf = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
      const expected = kafkajsCrc32c(buf);
      expect(crc32c(buf)).toBe(expected);
      expect(crc32cTable(buf)).toBe(expected);
    }
  });

  it('checksums only bytes [start, end), also of a view that starts inside its buffer', () => {
    const random = seeded(5);
    const whole = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256)));
    const view = whole.subarray(100, 3000); // byteOffset 100
    for (const [start, end] of [
      [0, view.length],
      [0, 0],
      [7, 8],
      [61, 2999 - 100],
      [1024, 2048],
    ] as const) {
      const expected = kafkajsCrc32c(Buffer.from(view.subarray(start, end)));
      expect(crc32c(view, start, end)).toBe(expected);
      expect(crc32cTable(view, start, end)).toBe(expected);
    }
  });
});
