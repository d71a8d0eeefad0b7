// Seeded random inputs for tests that compare our encoders with KafkaJS's: text that mixes ASCII, other
// BMP characters, astral characters and lone surrogates (which UTF-8 encoders treat specially), from a
// generator that replays the same values for a seed.

/** A generator of numbers in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
}

/** Up to `max` UTF-16 units of mixed text, lone surrogates included. */
export function randomText(random: () => number, max: number): string {
  const length = Math.floor(random() * max);
  let text = '';
  for (let i = 0; i < length; i++) {
    const pick = random();
    if (pick < 0.7) text += String.fromCharCode(32 + Math.floor(random() * 95));
    else if (pick < 0.85) text += String.fromCharCode(0xa0 + Math.floor(random() * 0x700));
    else if (pick < 0.95) text += String.fromCodePoint(0x1f300 + Math.floor(random() * 0x300));
    else text += String.fromCharCode(0xd800 + Math.floor(random() * 0x800)); // lone surrogates too
  }
  return text;
}
