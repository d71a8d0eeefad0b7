// ClickHouse's cityHash64: CityHash64 as of CityHash 1.0.2, the version ClickHouse froze (later CityHash
// releases hash differently). The search index keys its postings by the cityHash64 of each word and of
// each article's id (services/projector/posting-rows.ts), computed here, so an analyst can find a word's
// postings with `term = cityHash64('word')` in SQL; test/integration/city-hash.test.ts checks this
// against ClickHouse itself.
//
// The projector hashes a few dozen words per article, so the arithmetic is done on 32-bit halves
// (Math.imul and 16-bit partial products) rather than BigInt, which allocates on every operation. Each
// 64-bit step leaves its result in the register pair R below; the code reads as the C it follows, one
// operation a line.

/** A 64-bit hash as its two 32-bit halves (unsigned). */
export interface Hash64 {
  hi: number;
  lo: number;
}

// Result registers of the 64-bit operations (hi, lo). A typed array, not two variables: a module's
// variable holding a number above 2^30 would box it in a fresh heap object on every write.
const R = new Uint32Array(2);

// The constants of CityHash 1.0.2.
const k0h = 0xc3a5c85c;
const k0l = 0x97cb3127;
const k1h = 0xb492b66f;
const k1l = 0xbe98f273;
const k2h = 0x9ae16a3b;
const k2l = 0x2f90404f;
const k3h = 0xc949d7c7;
const k3l = 0x509e6557;
const kMulH = 0x9ddfea08;
const kMulL = 0xeb382d69;

/** a * b mod 2^64. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  R[1] = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  R[0] = (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** a + b mod 2^64. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  R[1] = lo >>> 0;
  R[0] = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

/** a - b mod 2^64. */
function sub(ah: number, al: number, bh: number, bl: number): void {
  const lo = al - bl;
  R[1] = lo >>> 0;
  R[0] = (ah - bh - (lo < 0 ? 1 : 0)) >>> 0;
}

/** Rotate right by 0 <= shift < 64. */
function rotate(h: number, l: number, shift: number): void {
  if (shift >= 32) {
    const t = h;
    h = l;
    l = t;
    shift -= 32;
  }
  if (shift === 0) {
    R[0] = h;
    R[1] = l;
    return;
  }
  R[1] = ((l >>> shift) | (h << (32 - shift))) >>> 0;
  R[0] = ((h >>> shift) | (l << (32 - shift))) >>> 0;
}

/** v ^ (v >> 47). */
function shiftMix(h: number, l: number): void {
  R[0] = h;
  R[1] = (l ^ (h >>> 15)) >>> 0;
}

/** Murmur-inspired mix of 128 bits down to 64 (Hash128to64). */
function hashLen16(uh: number, ul: number, vh: number, vl: number): void {
  mul((uh ^ vh) >>> 0, (ul ^ vl) >>> 0, kMulH, kMulL);
  shiftMix(R[0]!, R[1]!);
  mul((vh ^ R[0]!) >>> 0, (vl ^ R[1]!) >>> 0, kMulH, kMulL);
  shiftMix(R[0]!, R[1]!);
  mul(R[0]!, R[1]!, kMulH, kMulL);
}

const lo32 = (s: Uint8Array, i: number) =>
  (s[i]! | (s[i + 1]! << 8) | (s[i + 2]! << 16) | (s[i + 3]! << 24)) >>> 0;

/** Fetch64: the little-endian 64-bit word at i. */
function fetch64(s: Uint8Array, i: number): void {
  R[0] = lo32(s, i + 4);
  R[1] = lo32(s, i);
}

function hashLen0to16(s: Uint8Array, o: number, len: number): void {
  if (len > 8) {
    const ah = lo32(s, o + 4);
    const al = lo32(s, o);
    const bh = lo32(s, o + len - 4);
    const bl = lo32(s, o + len - 8);
    add(bh, bl, 0, len);
    rotate(R[0]!, R[1]!, len);
    hashLen16(ah, al, R[0]!, R[1]!);
    R[0] = (R[0]! ^ bh) >>> 0;
    R[1] = (R[1]! ^ bl) >>> 0;
    return;
  }
  if (len >= 4) {
    const a = lo32(s, o);
    // len + (a << 3)
    add(a >>> 29, (a << 3) >>> 0, 0, len);
    hashLen16(R[0]!, R[1]!, 0, lo32(s, o + len - 4));
    return;
  }
  if (len > 0) {
    const y = s[o]! + (s[o + (len >> 1)]! << 8);
    const z = len + (s[o + len - 1]! << 2);
    mul(0, y, k2h, k2l);
    const yh = R[0]!;
    const yl = R[1]!;
    mul(0, z, k3h, k3l);
    shiftMix((yh ^ R[0]!) >>> 0, (yl ^ R[1]!) >>> 0);
    mul(R[0]!, R[1]!, k2h, k2l);
    return;
  }
  R[0] = k2h;
  R[1] = k2l;
}

function hashLen17to32(s: Uint8Array, o: number, len: number): void {
  mul(lo32(s, o + 4), lo32(s, o), k1h, k1l);
  const ah = R[0]!;
  const al = R[1]!;
  const bh = lo32(s, o + 12);
  const bl = lo32(s, o + 8);
  mul(lo32(s, o + len - 4), lo32(s, o + len - 8), k2h, k2l);
  const ch = R[0]!;
  const cl = R[1]!;
  mul(lo32(s, o + len - 12), lo32(s, o + len - 16), k0h, k0l);
  const dh = R[0]!;
  const dl = R[1]!;
  // u = Rotate(a - b, 43) + Rotate(c, 30) + d
  sub(ah, al, bh, bl);
  rotate(R[0]!, R[1]!, 43);
  const r1h = R[0]!;
  const r1l = R[1]!;
  rotate(ch, cl, 30);
  add(r1h, r1l, R[0]!, R[1]!);
  add(R[0]!, R[1]!, dh, dl);
  const uh = R[0]!;
  const ul = R[1]!;
  // v = a + Rotate(b ^ k3, 20) + len - c
  rotate((bh ^ k3h) >>> 0, (bl ^ k3l) >>> 0, 20);
  add(ah, al, R[0]!, R[1]!);
  add(R[0]!, R[1]!, 0, len);
  sub(R[0]!, R[1]!, ch, cl);
  hashLen16(uh, ul, R[0]!, R[1]!);
}

function hashLen33to64(s: Uint8Array, o: number, len: number): void {
  // z = Fetch64(s + 24); a = Fetch64(s) + (len + Fetch64(s + len - 16)) * k0
  fetch64(s, o + 24);
  let zh = R[0]!;
  let zl = R[1]!;
  fetch64(s, o + len - 16);
  add(R[0]!, R[1]!, 0, len);
  mul(R[0]!, R[1]!, k0h, k0l);
  const th = R[0]!;
  const tl = R[1]!;
  fetch64(s, o + 0);
  add(R[0]!, R[1]!, th, tl);
  let ah = R[0]!;
  let al = R[1]!;
  // b = Rotate(a + z, 52); c = Rotate(a, 37)
  add(ah, al, zh, zl);
  rotate(R[0]!, R[1]!, 52);
  let bh = R[0]!;
  let bl = R[1]!;
  rotate(ah, al, 37);
  let ch = R[0]!;
  let cl = R[1]!;
  // a += Fetch64(s + 8); c += Rotate(a, 7); a += Fetch64(s + 16)
  fetch64(s, o + 8);
  add(ah, al, R[0]!, R[1]!);
  ah = R[0]!;
  al = R[1]!;
  rotate(ah, al, 7);
  add(ch, cl, R[0]!, R[1]!);
  ch = R[0]!;
  cl = R[1]!;
  fetch64(s, o + 16);
  add(ah, al, R[0]!, R[1]!);
  ah = R[0]!;
  al = R[1]!;
  // vf = a + z; vs = b + Rotate(a, 31) + c
  add(ah, al, zh, zl);
  const vfh = R[0]!;
  const vfl = R[1]!;
  rotate(ah, al, 31);
  add(bh, bl, R[0]!, R[1]!);
  add(R[0]!, R[1]!, ch, cl);
  const vsh = R[0]!;
  const vsl = R[1]!;
  // a = Fetch64(s + 16) + Fetch64(s + len - 32); z = Fetch64(s + len - 8)
  fetch64(s, o + 16);
  const s16h = R[0]!;
  const s16l = R[1]!;
  fetch64(s, o + len - 32);
  add(s16h, s16l, R[0]!, R[1]!);
  ah = R[0]!;
  al = R[1]!;
  fetch64(s, o + len - 8);
  zh = R[0]!;
  zl = R[1]!;
  // b = Rotate(a + z, 52); c = Rotate(a, 37)
  add(ah, al, zh, zl);
  rotate(R[0]!, R[1]!, 52);
  bh = R[0]!;
  bl = R[1]!;
  rotate(ah, al, 37);
  ch = R[0]!;
  cl = R[1]!;
  // a += Fetch64(s + len - 24); c += Rotate(a, 7); a += Fetch64(s + len - 16)
  fetch64(s, o + len - 24);
  add(ah, al, R[0]!, R[1]!);
  ah = R[0]!;
  al = R[1]!;
  rotate(ah, al, 7);
  add(ch, cl, R[0]!, R[1]!);
  ch = R[0]!;
  cl = R[1]!;
  fetch64(s, o + len - 16);
  add(ah, al, R[0]!, R[1]!);
  ah = R[0]!;
  al = R[1]!;
  // wf = a + z; ws = b + Rotate(a, 31) + c
  add(ah, al, zh, zl);
  const wfh = R[0]!;
  const wfl = R[1]!;
  rotate(ah, al, 31);
  add(bh, bl, R[0]!, R[1]!);
  add(R[0]!, R[1]!, ch, cl);
  const wsh = R[0]!;
  const wsl = R[1]!;
  // r = ShiftMix((vf + ws) * k2 + (wf + vs) * k0); return ShiftMix(r * k0 + vs) * k2
  add(vfh, vfl, wsh, wsl);
  mul(R[0]!, R[1]!, k2h, k2l);
  const ph = R[0]!;
  const pl = R[1]!;
  add(wfh, wfl, vsh, vsl);
  mul(R[0]!, R[1]!, k0h, k0l);
  add(ph, pl, R[0]!, R[1]!);
  shiftMix(R[0]!, R[1]!);
  mul(R[0]!, R[1]!, k0h, k0l);
  add(R[0]!, R[1]!, vsh, vsl);
  shiftMix(R[0]!, R[1]!);
  mul(R[0]!, R[1]!, k2h, k2l);
}

/** The 128-bit state of the long-input loop: WeakHashLen32WithSeeds' results (v and w). */
const state = new Uint32Array(8);

/** WeakHashLen32WithSeeds(s + i, a, b) into state[at .. at + 3] (first hi, lo, second hi, lo). */
function weakHashLen32WithSeeds(
  s: Uint8Array,
  i: number,
  ah: number,
  al: number,
  bh: number,
  bl: number,
  at: number,
): void {
  const wh = lo32(s, i + 4);
  const wl = lo32(s, i);
  const xh = lo32(s, i + 12);
  const xl = lo32(s, i + 8);
  const yh = lo32(s, i + 20);
  const yl = lo32(s, i + 16);
  const zh = lo32(s, i + 28);
  const zl = lo32(s, i + 24);
  // a += w; b = Rotate(b + a + z, 21); c = a; a += x; a += y; b += Rotate(a, 44)
  add(ah, al, wh, wl);
  ah = R[0]!;
  al = R[1]!;
  add(bh, bl, ah, al);
  add(R[0]!, R[1]!, zh, zl);
  rotate(R[0]!, R[1]!, 21);
  bh = R[0]!;
  bl = R[1]!;
  const ch = ah;
  const cl = al;
  add(ah, al, xh, xl);
  add(R[0]!, R[1]!, yh, yl);
  ah = R[0]!;
  al = R[1]!;
  rotate(ah, al, 44);
  add(bh, bl, R[0]!, R[1]!);
  bh = R[0]!;
  bl = R[1]!;
  // (a + z, b + c)
  add(ah, al, zh, zl);
  state[at] = R[0]!;
  state[at + 1] = R[1]!;
  add(bh, bl, ch, cl);
  state[at + 2] = R[0]!;
  state[at + 3] = R[1]!;
}

function hashLongerThan64(s: Uint8Array, o: number, len: number): void {
  const end = o + len;
  const lenH = Math.floor(len / 0x1_0000_0000);
  const lenL = len >>> 0;
  // x = Fetch64(s); y = Fetch64(s + len - 16) ^ k1; z = Fetch64(s + len - 56) ^ k0
  fetch64(s, o);
  let xh = R[0]!;
  let xl = R[1]!;
  fetch64(s, end - 16);
  let yh = (R[0]! ^ k1h) >>> 0;
  let yl = (R[1]! ^ k1l) >>> 0;
  fetch64(s, end - 56);
  let zh = (R[0]! ^ k0h) >>> 0;
  let zl = (R[1]! ^ k0l) >>> 0;
  // v = WeakHashLen32WithSeeds(s + len - 64, len, y); w = WeakHashLen32WithSeeds(s + len - 32, len * k1, k0)
  weakHashLen32WithSeeds(s, end - 64, lenH, lenL, yh, yl, 0);
  mul(lenH, lenL, k1h, k1l);
  weakHashLen32WithSeeds(s, end - 32, R[0]!, R[1]!, k0h, k0l, 4);
  // z += ShiftMix(v.second) * k1; x = Rotate(z + x, 39) * k1; y = Rotate(y, 33) * k1
  shiftMix(state[2]!, state[3]!);
  mul(R[0]!, R[1]!, k1h, k1l);
  add(zh, zl, R[0]!, R[1]!);
  zh = R[0]!;
  zl = R[1]!;
  add(zh, zl, xh, xl);
  rotate(R[0]!, R[1]!, 39);
  mul(R[0]!, R[1]!, k1h, k1l);
  xh = R[0]!;
  xl = R[1]!;
  rotate(yh, yl, 33);
  mul(R[0]!, R[1]!, k1h, k1l);
  yh = R[0]!;
  yl = R[1]!;
  // Whole 64-byte blocks from the start, as many as (len - 1) / 64.
  let p = o;
  for (let blocks = Math.floor((len - 1) / 64); blocks > 0; blocks--) {
    // x = Rotate(x + y + v.first + Fetch64(s + 16), 37) * k1
    add(xh, xl, yh, yl);
    add(R[0]!, R[1]!, state[0]!, state[1]!);
    const a1h = R[0]!;
    const a1l = R[1]!;
    fetch64(s, p + 16);
    add(a1h, a1l, R[0]!, R[1]!);
    rotate(R[0]!, R[1]!, 37);
    mul(R[0]!, R[1]!, k1h, k1l);
    xh = R[0]!;
    xl = R[1]!;
    // y = Rotate(y + v.second + Fetch64(s + 48), 42) * k1
    add(yh, yl, state[2]!, state[3]!);
    const a2h = R[0]!;
    const a2l = R[1]!;
    fetch64(s, p + 48);
    add(a2h, a2l, R[0]!, R[1]!);
    rotate(R[0]!, R[1]!, 42);
    mul(R[0]!, R[1]!, k1h, k1l);
    yh = R[0]!;
    yl = R[1]!;
    // x ^= w.second; y ^= v.first; z = Rotate(z ^ w.first, 33)
    xh = (xh ^ state[6]!) >>> 0;
    xl = (xl ^ state[7]!) >>> 0;
    yh = (yh ^ state[0]!) >>> 0;
    yl = (yl ^ state[1]!) >>> 0;
    rotate((zh ^ state[4]!) >>> 0, (zl ^ state[5]!) >>> 0, 33);
    zh = R[0]!;
    zl = R[1]!;
    // v = WeakHashLen32WithSeeds(s, v.second * k1, x + w.first)
    mul(state[2]!, state[3]!, k1h, k1l);
    const vah = R[0]!;
    const val = R[1]!;
    add(xh, xl, state[4]!, state[5]!);
    weakHashLen32WithSeeds(s, p, vah, val, R[0]!, R[1]!, 0);
    // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y)
    add(zh, zl, state[6]!, state[7]!);
    weakHashLen32WithSeeds(s, p + 32, R[0]!, R[1]!, yh, yl, 4);
    // swap(z, x)
    const sh = zh;
    const sl = zl;
    zh = xh;
    zl = xl;
    xh = sh;
    xl = sl;
    p += 64;
  }
  // HashLen16(HashLen16(v.first, w.first) + ShiftMix(y) * k1 + z, HashLen16(v.second, w.second) + x)
  hashLen16(state[0]!, state[1]!, state[4]!, state[5]!);
  const h1h = R[0]!;
  const h1l = R[1]!;
  shiftMix(yh, yl);
  mul(R[0]!, R[1]!, k1h, k1l);
  add(h1h, h1l, R[0]!, R[1]!);
  add(R[0]!, R[1]!, zh, zl);
  const uh = R[0]!;
  const ul = R[1]!;
  hashLen16(state[2]!, state[3]!, state[6]!, state[7]!);
  add(R[0]!, R[1]!, xh, xl);
  hashLen16(uh, ul, R[0]!, R[1]!);
}

/** cityHash64 of bytes[offset, offset + length), into `out`. */
export function cityHash64Into(bytes: Uint8Array, offset: number, length: number, out: Hash64): Hash64 {
  if (length <= 16) hashLen0to16(bytes, offset, length);
  else if (length <= 32) hashLen17to32(bytes, offset, length);
  else if (length <= 64) hashLen33to64(bytes, offset, length);
  else hashLongerThan64(bytes, offset, length);
  out.hi = R[0]!;
  out.lo = R[1]!;
  return out;
}

const encoder = new TextEncoder();

/** cityHash64 of a text's UTF-8 bytes, as ClickHouse's cityHash64(text) returns it. */
export function cityHash64(text: string): Hash64 {
  const bytes = encoder.encode(text);
  return cityHash64Into(bytes, 0, bytes.length, { hi: 0, lo: 0 });
}

/** A hash as the decimal UInt64 literal SQL and JSON write. */
export const hashText = (h: Hash64): string => ((BigInt(h.hi) << 32n) | BigInt(h.lo)).toString();
