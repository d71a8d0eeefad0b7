// How many words a voice says for a text, to judge a speaking rate: written words, with numbers counted
// as they are read out ("$1.13bn" is "one point one three billion dollars", six words, not one). News
// copy is full of figures, and a rate that counted each as one word would call a normal voice slow.
// An estimate (English number names, one word per letter run, symbol or digit after a point), close
// enough for a range such as 120-220 words per minute.

/** Words of 0 < n < 100: "seven", "seventy", "seventy six". */
const tensAndUnits = (n: number) => (n === 0 ? 0 : n < 20 || n % 10 === 0 ? 1 : 2);

/** Words of 0 < n < 1000: "six hundred" adds two. */
const belowThousand = (n: number) => (n >= 100 ? 2 : 0) + tensAndUnits(n % 100);

/** Words of an integer as written ("464,000" is "four hundred sixty four thousand", five). */
export function integerWords(written: string): number {
  let n = Number(written.replace(/,/g, ''));
  if (!Number.isFinite(n)) return 1;
  if (n === 0) return 1;
  let words = 0;
  for (let scale = 0; n > 0; scale++, n = Math.floor(n / 1000)) {
    const group = n % 1000;
    if (group > 0) words += belowThousand(group) + (scale > 0 ? 1 : 0);
  }
  return words;
}

export function spokenWords(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    if (!/\d/.test(token)) {
      count++;
      continue;
    }
    for (const [, integer, decimals] of token.matchAll(/(\d[\d,]*\d|\d)(?:\.(\d+))?/g))
      count += integerWords(integer!) + (decimals ? 1 + decimals.length : 0);
    count += (token.match(/\p{L}+/gu) ?? []).length + (token.match(/[%$£€¥]/g) ?? []).length;
  }
  return count;
}
