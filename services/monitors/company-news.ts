// Whether the words after a name that opens a sentence are a company's news (rule 2g of
// mention-evidence.ts): "Next reported a 5% rise in sales", "Orange said on Tuesday it would cut
// jobs". At the start of a sentence every word is capitalised, so for a name that is also an English
// word ("Next week the council meets", "Orange is the colour of the season") the capital says nothing
// and the words around it have to.
//
// - A verb of speech right after the name is enough ("Orange said", "Shell warned", "Apple told
//   analysts"): a common word does not speak, and these verbs never stand before a noun the way a past
//   participle does ("Total reported cases rose" is a total).
// - Any other verb of company news ("Next reported", "Orange confirmed", "Next to close"), an auxiliary
//   ("Orange has", "Next will"), a copula before a verb ("Orange is cutting", "Next is to close") or a
//   possessive ("Next's") makes the name the subject of its sentence. That counts when the sentence
//   also speaks of a company: shares, profits, sales, stores, jobs, a chief executive. Neither alone is
//   enough: a copula describes ("Orange is the colour"), a participle modifies ("Total confirmed cases
//   rose"), and common words open sentences about business too ("Next year, sales will rise", "Total
//   sales rose"), where no verb follows the word, so those never count.
// Between the name and its verb may stand adverbs, auxiliaries and a day: "Orange also said", "Next on
// Thursday reported", "Orange has said". Words are folded, as token keys are. Only English is read;
// in another language nothing here is found, and the name needs the other evidence.
import type { Span } from './mention-evidence.ts';
import type { Token } from './tokens.ts';

const speechVerbs = new Set([
  'admits',
  'admitted',
  'argued',
  'argues',
  'explained',
  'explains',
  'insisted',
  'insists',
  'said',
  'says',
  'tells',
  'told',
  'warned',
  'warns',
]);

/** What companies are reported doing, in the past and the present ("reported", "reports"). */
const companyVerbs = new Set([
  'acquired',
  'acquires',
  'agreed',
  'agrees',
  'announced',
  'announces',
  'appointed',
  'bought',
  'buys',
  'closed',
  'closes',
  'completed',
  'confirmed',
  'confirms',
  'cut',
  'cuts',
  'declined',
  'delivered',
  'denied',
  'denies',
  'employs',
  'expects',
  'forecast',
  'forecasts',
  'hired',
  'invested',
  'issued',
  'launched',
  'launches',
  'lifted',
  'lifts',
  'lost',
  'missed',
  'opened',
  'opens',
  'paid',
  'plans',
  'posted',
  'raised',
  'raises',
  'recorded',
  'rejected',
  'reported',
  'reports',
  'signed',
  'sold',
  'sells',
  'sued',
  'unveiled',
  'unveils',
  'won',
]);

/** "Orange to cut 2,000 jobs": a headline's future, never "Next to the station". */
const headlineVerbs = new Set([
  'acquire',
  'axe',
  'buy',
  'close',
  'cut',
  'hire',
  'invest',
  'launch',
  'merge',
  'open',
  'raise',
  'sell',
  'shut',
]);

const auxiliaries = new Set([
  'can',
  'could',
  'did',
  'does',
  'had',
  'has',
  'have',
  'may',
  'might',
  'must',
  'should',
  'will',
  'would',
]);

/** British English makes a company plural ("Next are to close"). */
const copulas = new Set(['are', 'is', 'was', 'were']);

const adverbs = new Set([
  'again',
  'already',
  'also',
  'now',
  'previously',
  'recently',
  'still',
  'today',
  'yesterday',
]);

const weekdays = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);

/** A word that may stand between a name and its verb: "also", "yesterday", "on Tuesday". */
const standsBetween = (word: Token, next: Token | undefined) =>
  adverbs.has(word.key) || weekdays.has(word.key) || (word.key === 'on' && weekdays.has(next?.key ?? ''));

/** "is cutting", "was fined", "are expected": a verb after a copula, not a description. */
const verbForm = /^\p{L}{3,}(?:ing|ed)$/u;

/** What a sentence about a company speaks of ("chief executive" by its second word). */
const companyNouns = new Set([
  'boss',
  'branches',
  'brand',
  'ceo',
  'chairman',
  'chairwoman',
  'company',
  'contracts',
  'customers',
  'dividend',
  'earnings',
  'employees',
  'executive',
  'executives',
  'factories',
  'factory',
  'firm',
  'investors',
  'jobs',
  'merger',
  'operator',
  'profit',
  'profits',
  'redundancies',
  'results',
  'retailer',
  'revenue',
  'revenues',
  'sales',
  'shareholders',
  'shares',
  'shops',
  'staff',
  'stake',
  'stores',
  'subscribers',
  'takeover',
  'turnover',
  'workers',
]);

/** Most words the name and its verb may be apart: "Orange has also said" is two. */
const maxBetween = 3;
const spaceOnly = /^[ \t\u00a0]+$/;

/**
 * Whether the words after `span` (a name opening a sentence: mention-evidence.ts decides that) make it a
 * company: followed by a verb of speech, or its sentence's subject in a sentence about a company.
 */
export function opensCompanyNews(tokens: readonly Token[], span: Span): boolean {
  const role = roleAfter(tokens, span);
  if (role === 'speaker') return true;
  if (role !== 'subject') return false;
  const { sentence } = tokens[span.first]!;
  for (let i = span.last + 1; tokens[i]?.sentence === sentence; i += 1)
    if (companyNouns.has(tokens[i]!.base)) return true;
  return false;
}

function roleAfter(tokens: readonly Token[], span: Span): 'speaker' | 'subject' | null {
  const name = tokens[span.last]!;
  // Only in the same sentence and after nothing but spaces: "Next, the council said" and "Ford-owned"
  // are not the name's verbs.
  const wordAt = (i: number) => {
    const token = tokens[i];
    return token?.sentence === name.sentence && spaceOnly.test(token.gap) ? token : undefined;
  };
  if (name.base !== name.key) return 'subject';
  let subject = false;
  for (let i = span.last + 1; i <= span.last + 1 + maxBetween; i += 1) {
    const word = wordAt(i);
    if (!word) break;
    const next = wordAt(i + 1);
    if (speechVerbs.has(word.key)) return 'speaker';
    if (companyVerbs.has(word.key)) return 'subject';
    if (word.key === 'to') return subject || (next && headlineVerbs.has(next.key)) ? 'subject' : null;
    if (auxiliaries.has(word.key)) {
      subject = true;
    } else if (copulas.has(word.key)) {
      // "Orange is the colour" describes; "Orange is cutting", "is to close", "is said to" report.
      if (!next || !(next.key === 'to' || verbForm.test(next.key) || speechVerbs.has(next.key))) break;
      subject = true;
    } else if (!standsBetween(word, next)) {
      break;
    }
  }
  return subject ? 'subject' : null;
}
