// Insights: three to five concrete statements from the article, the kind a reader would underline.
// A sentence qualifies by carrying a figure (money, a percentage, a count), a quotation with its
// speaker, or a named entity doing something as its subject; among those, sentences that matter to
// the article (its graph rank) win, and sentences the summary already gives lose, so insights add to
// the summary rather than repeat it. Each is trimmed to a plain statement: no leading "But" or
// "However", and a quotation is turned round to say who said it first.
import type { Entity } from '../provider.ts';
import { figuresIn } from './figures.ts';
import type { Sentence } from './sentences.ts';
import { isNotWriting } from './page-furniture.ts';

export const minInsights = 3;
export const maxInsights = 5;

/** A sentence carrying none of these is a statement of no particular substance. */
const weights = {
  money: 3,
  percent: 3,
  count: 1.5,
  quotation: 2.5,
  actor: 2,
  importance: 2,
  /** "It lost 464,000 subscribers": true, but whose? A pronoun subject needs the sentence before. */
  pronounSubject: -1.5,
};

const speechVerbs =
  /^(?:said|says|say|told|tells|added|adds|warned|warns|explained|insisted|argued|claimed|stated)$/;
const pronouns = /^(?:it|he|she|they|this|these|those|that|its|their|his|her)$/;

export interface InsightInput {
  sentences: readonly Sentence[];
  /** Importance of each sentence by index, 0..1 (the summary's graph rank). */
  importance: ReadonlyMap<number, number>;
  entities: readonly Entity[];
  /** Indexes of the sentences the summary uses. */
  inSummary: ReadonlySet<number>;
}

export function extractInsights(input: InsightInput): string[] {
  const scored = input.sentences
    // Never a call to subscribe or a blog's "appeared first on" footer (page-furniture.ts).
    .filter((s) => words(s) >= 6 && words(s) <= 60 && !isNotWriting(s.text))
    .map((s) => ({ sentence: s, ...assess(s, input) }))
    .sort((a, b) => b.score - a.score);
  const fresh = (c: (typeof scored)[number]) => !input.inSummary.has(c.sentence.index);
  // Statements of substance the summary does not already make; then, only to reach the minimum,
  // those it does make, and last the most important of the rest.
  const tiers = [
    scored.filter((c) => c.substantive && fresh(c)),
    scored.filter((c) => c.substantive && !fresh(c)),
    scored.filter((c) => !c.substantive),
  ];
  const chosen = tiers[0]!.slice(0, maxInsights);
  for (const tier of tiers.slice(1)) {
    if (chosen.length >= minInsights) break;
    chosen.push(...tier.slice(0, minInsights - chosen.length));
  }
  const statements: string[] = [];
  for (const c of chosen) {
    const statement = plainStatement(c.sentence.text);
    if (!statements.includes(statement)) statements.push(statement);
  }
  return statements;
}

function assess(s: Sentence, input: InsightInput): { score: number; substantive: boolean } {
  let score = weights.importance * (input.importance.get(s.index) ?? 0);
  const kinds = new Set(figuresIn(s).map((f) => f.kind));
  for (const kind of kinds) score += weights[kind];
  const quotation = isQuotation(s);
  if (quotation) score += weights.quotation;
  const actor = hasActorSubject(s, input.entities);
  if (actor) score += weights.actor;
  const first = s.tokens.find((t) => t.kind === 'word');
  if (first && pronouns.test(first.normal)) score += weights.pronounSubject;
  return { score, substantive: kinds.size > 0 || quotation || actor };
}

function words(s: Sentence): number {
  return s.tokens.filter((t) => t.kind === 'word' || t.kind === 'number').length;
}

function isQuotation(s: Sentence): boolean {
  return /["“”]/.test(s.text) && s.tokens.some((t) => speechVerbs.test(t.normal));
}

/** "TimeWarner posted ...", "Mr Blair said ...": a named entity, then its verb, opens the sentence. */
function hasActorSubject(s: Sentence, entities: readonly Entity[]): boolean {
  const opening = s.tokens
    .filter((t) => t.kind === 'word')
    .slice(0, 6)
    .map((t) => t.text);
  const verbAt = s.tokens
    .filter((t) => t.kind === 'word')
    .findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (verbAt <= 0) return false;
  const subject = opening.slice(0, verbAt).join(' ');
  return entities.some(
    (e) => e.type !== 'other' && (subject.includes(e.name) || subject.endsWith(lastWord(e.name))),
  );
}

function lastWord(name: string): string {
  return name.split(' ').at(-1) ?? name;
}

const discourseMarkers =
  /^(?:but|and|however|meanwhile|also|so|yet|still|indeed|in addition|moreover|furthermore|nevertheless|instead|now|then|overall)\b,?\s+/i;

/**
 * '"Our performance was strong," chairman Richard Parsons said.' ->
 * 'Chairman Richard Parsons said: "Our performance was strong."'
 */
export function plainStatement(sentence: string): string {
  const text = sentence.trim().replace(discourseMarkers, '');
  const quoted =
    /^["“](.+?)([,.!?]?)["”],?\s+(?:(said|says|added|told \p{L}+|warned|explained)\s+(.+?)|(.+?)\s+(said|says|added|told \p{L}+|warned|explained))\.?$/u.exec(
      text,
    );
  if (quoted) {
    const [, quote, mark, verbBefore, speakerAfter, speakerBefore, verbAfter] = quoted;
    const speaker = (speakerAfter ?? speakerBefore ?? '').trim();
    const verb = verbBefore ?? verbAfter ?? 'said';
    // The comma that led into the speaker tag ends the quotation with a full stop instead.
    const end = mark === '?' || mark === '!' ? mark : '.';
    if (speaker && speaker.split(/\s+/).length <= 10)
      return `${capitalise(speaker)} ${verb}: "${quote}${end}"`;
  }
  return capitalise(text);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
