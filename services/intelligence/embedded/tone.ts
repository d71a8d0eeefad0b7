// The tone of a summary: 'professional' spells contractions out, 'casual' contracts the common
// pairs, 'neutral' leaves the article's words alone, 'executive' is professional wording as a list of
// points, most important first (the provider orders them). Only the narration changes: quoted speech
// is what someone said, so text inside quotation marks is never rewritten.
import type { SummaryTone } from '../provider.ts';
import { joinSentences } from './sentences.ts';

/** Contraction -> spelled out; the apostrophe may be straight or curly. */
const expansions: [RegExp, string][] = [
  [/\b(can)['’]t\b/gi, '$1not'],
  [/\b(w)on['’]t\b/gi, '$1ill not'],
  [/\b(sh)an['’]t\b/gi, '$1all not'],
  [/\b(\w+)n['’]t\b/gi, '$1 not'],
  [/\b(let)['’]s\b/gi, '$1 us'],
  [/\b(I)['’]m\b/g, '$1 am'],
  [/\b(\w+)['’]re\b/gi, '$1 are'],
  [/\b(\w+)['’]ve\b/gi, '$1 have'],
  [/\b(\w+)['’]ll\b/gi, '$1 will'],
  // "it's been" is "it has been"; otherwise "it's" is "it is".
  [/\b(it|that|there|what|who|he|she|here)['’]s(?=\s+(?:been|got)\b)/gi, '$1 has'],
  [/\b(it|that|there|what|who|he|she|here)['’]s\b/gi, '$1 is'],
  [/\b(I|you|we|they|he|she|it)['’]d(?=\s+(?:been|had)\b)/gi, '$1 had'],
  [/\b(I|you|we|they|he|she|it)['’]d\b/gi, '$1 would'],
];

/**
 * Pairs -> contraction. Only when a word follows: "that is what it is." must not become "what
 * it's.", which English does not allow at the end of a clause.
 */
const contractions: [RegExp, string][] = [
  [/\b(do|does|did|is|are|was|were|has|have|had|would|could|should|must) not\b/gi, "$1n't"],
  [/\b(w)ill not\b/gi, "$1on't"],
  [/\b(can)(?:not| not)\b/gi, "$1't"],
  [/\b(it|that|there|what|who|he|she) is(?=\s+\w)/gi, "$1's"],
  [/\b(I) am(?=\s+\w)/g, "$1'm"],
  [/\b(you|we|they) are(?=\s+\w)/gi, "$1're"],
  [/\b(I|you|we|they|he|she|it) will(?=\s+\w)/gi, "$1'll"],
  [/\b(let) us\b/gi, "$1's"],
];

export function applyTone(sentences: readonly string[], tone: SummaryTone): string {
  if (tone === 'neutral') return joinSentences(sentences);
  const rules = tone === 'casual' ? contractions : expansions;
  const worded = sentences.map((sentence) =>
    outsideQuotes(sentence, (narration) =>
      rules.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), narration),
    ),
  );
  return tone === 'executive' ? worded.map((s) => `- ${s}`).join('\n') : joinSentences(worded);
}

/** Applies `rewrite` to the text between quotations, leaving "..." and “...” as they are. */
function outsideQuotes(text: string, rewrite: (narration: string) => string): string {
  const parts = text.split(/("[^"]*"|“[^”]*”)/);
  return parts.map((part, i) => (i % 2 === 1 ? part : rewrite(part))).join('');
}
