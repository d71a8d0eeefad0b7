// How keywords are counted and ranked, whatever the method that finds them (keywords.ts for English,
// plain-keywords.ts for other languages): weighted by position, since news signals what matters by
// putting it first, and kept only when the article comes back to them.

/** Weight of one occurrence: the headline counts three times, then earlier sentences more. */
export function positionWeight(sentenceIndex: number, inTitle: boolean): number {
  return inTitle ? 3 : 1 + 1 / (1 + sentenceIndex / 3);
}

export interface KeywordTally {
  add: (term: string, weight: number) => void;
  /** The best `max` terms, best first. */
  ranked: (max: number) => string[];
}

export function keywordTally(): KeywordTally {
  const scores = new Map<string, number>();
  const counts = new Map<string, number>();
  return {
    add: (term, weight) => {
      scores.set(term, (scores.get(term) ?? 0) + weight);
      counts.set(term, (counts.get(term) ?? 0) + 1);
    },
    ranked: (max) => {
      return (
        [...scores.entries()]
          // A keyword recurs: a word the article uses once is not what it is about.
          .filter(([term]) => (counts.get(term) ?? 0) >= 2)
          // A phrase made of its parts is worth more than either part alone.
          .map(([term, score]) => [term, term.includes(' ') ? score * 1.5 : score] as const)
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, max)
          .map(([term]) => term)
      );
    },
  };
}
