// Figures in a sentence: amounts of money ("$1.13bn", "£600m", "5bn euros"), percentages ("76%",
// "3.5 per cent") and other counts ("464,000 subscribers"). Insights prefer sentences that carry
// them, questions ask what they mean. Years ("in 2005") are dates, not figures.
import type { Sentence, Token } from './sentences.ts';

export interface Figure {
  /** As written: "$1.13bn", "76%", "464,000". */
  text: string;
  kind: 'money' | 'percent' | 'count';
}

const scales = new Set(['m', 'bn', 'k', 'million', 'billion', 'trillion', 'tn', 'thousand']);
const currencyWords = /^(?:dollars?|pounds?|euros?|yen|yuan|rupees?|francs?|pence|cents?)$/;

export function figuresIn(sentence: Pick<Sentence, 'tokens'>): Figure[] {
  const tokens = sentence.tokens;
  const figures: Figure[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (t.kind === 'currency' && tokens[i + 1]?.kind === 'number') {
      const end = i + 2 + (scales.has(tokens[i + 2]?.normal ?? '') ? 1 : 0);
      figures.push({ text: joinTokens(tokens.slice(i, end)), kind: 'money' });
      i = end - 1;
      continue;
    }
    // Digits only: "ten times" is a manner of speaking more often than a figure worth quoting.
    if (t.kind !== 'number') continue;
    let end = i + 1;
    if (scales.has(tokens[end]?.normal ?? '')) end += 1;
    const after = tokens[end];
    if (
      after &&
      (after.text === '%' ||
        (after.normal === 'per' && tokens[end + 1]?.normal === 'cent') ||
        after.normal === 'percent')
    ) {
      end += after.normal === 'per' ? 2 : 1;
      figures.push({ text: joinTokens(tokens.slice(i, end)), kind: 'percent' });
    } else if (after && currencyWords.test(after.normal)) {
      figures.push({ text: joinTokens(tokens.slice(i, end + 1)), kind: 'money' });
      end += 1;
    } else if (!isYear(t.text) || end > i + 1) {
      figures.push({ text: joinTokens(tokens.slice(i, end)), kind: 'count' });
    }
    i = end - 1;
  }
  return figures;
}

function isYear(text: string): boolean {
  return /^(?:1[89]|20)\d\d$/.test(text);
}

/** Tokens back to text, spaced as they were written. */
export function joinTokens(tokens: readonly Token[]): string {
  return tokens.map((t, k) => (k > 0 && t.spaced ? ` ${t.text}` : t.text)).join('');
}
