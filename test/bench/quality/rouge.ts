// ROUGE (Lin 2004), the standard overlap measure of a summary against a reference: what the quality
// benchmark scores the embedded summarizer with. Only the benchmark measures with it, so it lives
// here; its tests run with the unit suite (vitest.config.ts). Tokens are lowercase runs of letters
// and digits, no stemming, no stop words removed (the plain "rouge-score" setting).

export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

export function rougeTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** ROUGE-N: clipped n-gram overlap. */
export function rougeN(candidate: string, reference: string, n: number): RougeScore {
  const cand = ngrams(rougeTokens(candidate), n);
  const ref = ngrams(rougeTokens(reference), n);
  let overlap = 0;
  for (const [gram, count] of cand.counts) overlap += Math.min(count, ref.counts.get(gram) ?? 0);
  return score(overlap, cand.total, ref.total);
}

/** ROUGE-L: longest common subsequence of the two texts taken as one token sequence each. */
export function rougeL(candidate: string, reference: string): RougeScore {
  const cand = rougeTokens(candidate);
  const ref = rougeTokens(reference);
  return score(lcsTable(cand, ref).at(-1)?.at(-1) ?? 0, cand.length, ref.length);
}

/**
 * Summary-level ROUGE-L ("ROUGE-Lsum"): for each reference sentence, the union of its LCS matches with
 * every candidate sentence. Unlike flat ROUGE-L it does not punish a summary for ordering its
 * sentences differently from the reference, which matters when references are not in text order.
 * Matches are clipped by how often a token occurs on either side, as rouge-score does.
 */
export function rougeLsum(candidate: readonly string[], reference: readonly string[]): RougeScore {
  const candSentences = candidate.map(rougeTokens);
  const refSentences = reference.map(rougeTokens);
  const candLeft = countTokens(candSentences.flat());
  const refLeft = countTokens(refSentences.flat());
  let hits = 0;
  for (const ref of refSentences) {
    const union = new Set<number>();
    for (const cand of candSentences) for (const i of lcsPositions(ref, cand)) union.add(i);
    for (const i of union) {
      const token = ref[i]!;
      if ((candLeft.get(token) ?? 0) > 0 && (refLeft.get(token) ?? 0) > 0) {
        hits += 1;
        candLeft.set(token, candLeft.get(token)! - 1);
        refLeft.set(token, refLeft.get(token)! - 1);
      }
    }
  }
  const candTotal = candSentences.reduce((sum, s) => sum + s.length, 0);
  const refTotal = refSentences.reduce((sum, s) => sum + s.length, 0);
  return score(hits, candTotal, refTotal);
}

function score(overlap: number, candidateTotal: number, referenceTotal: number): RougeScore {
  const precision = candidateTotal === 0 ? 0 : overlap / candidateTotal;
  const recall = referenceTotal === 0 ? 0 : overlap / referenceTotal;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function ngrams(tokens: string[], n: number): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  let total = 0;
  for (let i = 0; i + n <= tokens.length; i += 1) {
    const gram = tokens.slice(i, i + n).join(' ');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
    total += 1;
  }
  return { counts, total };
}

function countTokens(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

function lcsTable(a: readonly string[], b: readonly string[]): number[][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      table[i]![j] =
        a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table;
}

/** Positions in `a` of one longest common subsequence of `a` and `b`. */
function lcsPositions(a: readonly string[], b: readonly string[]): number[] {
  const table = lcsTable(a, b);
  const positions: number[] = [];
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    if (a[i - 1] === b[j - 1]) {
      positions.push(i - 1);
      i -= 1;
      j -= 1;
    } else if (table[i - 1]![j]! >= table[i]![j - 1]!) {
      i -= 1;
    } else {
      j -= 1;
    }
  }
  return positions.reverse();
}
