// The fuzzer's only source of randomness: a seeded PRNG (sfc32), one stream per request derived from
// the run's seed and the request's number, so request N is the same whatever ran before it, and
// `FUZZ_SEED=… FUZZ_REPLAY=N` regenerates it alone.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: [[weight, value], …]. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T;
}

/** A 32-bit seed from text (a number as given, or a hash of any other text). */
export function parseSeed(text: string): number {
  if (/^\d+$/.test(text)) return Number(BigInt(text) % 4294967296n);
  return hash32(text);
}

export const randomSeed = () => Math.floor(Math.random() * 4294967296);

function hash32(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The generator of one request: the run's seed and the request's number, mixed. */
export function requestRng(seed: number, index: number): Rng {
  return createRng(seed, Math.imul(index + 1, 0x9e3779b1) >>> 0);
}

export function createRng(seed: number, stream = 0): Rng {
  let a = seed >>> 0;
  let b = stream >>> 0;
  let c = 0x6a09e667;
  let d = 1;
  const next32 = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next32();
  const next = () => next32() / 4294967296;
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [weight]) => sum + weight, 0);
      let at = next() * total;
      for (const [weight, value] of choices) {
        at -= weight;
        if (at < 0) return value;
      }
      return choices[choices.length - 1]![1];
    },
  };
  return rng;
}
