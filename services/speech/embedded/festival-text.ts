// A text as Festival's English voice can read it: ASCII. Festival takes its input as bytes, one
// character each, so every letter beyond ASCII reached it as two or three bytes of nonsense: "Zürich" was
// spelt out as "Z", noise and "r-i-c-h", "it’s" as "I-T-S", "Müller" as "M-L-L-E-R", and "£53m" as "five
// three em" (the pound sign lost, the "m" read as a letter). So, before the text is handed over:
// - Latin letters lose their accents ("Zürich", "Erdoğan", "Łódź" as "Zurich", "Erdogan", "Lodz"), and the
//   letters that are no base letter with a mark are written as English writes them (ß as "ss", æ as "ae":
//   runtime/latin-letters.ts);
// - typographic quotes, dashes, ellipses and spaces become their ASCII forms;
// - an amount of money is written out as Festival reads it well ("£53m" as "53 million pounds", "$1.5bn"
//   as "1.5 billion dollars"): it reads "$53" itself, but not a symbol it does not know nor a multiplier;
// - what is left beyond ASCII (another script's words, symbols) is left out, as Festival spoke it: as
//   silence or noise. A text with nothing left to read is unreadable (festivalUnreadable).
import { withoutDiacritics } from '../../runtime/latin-letters.ts';

/** Typography with an ASCII form that reads the same. */
const marks: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u02bc': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': ' - ',
  '\u2014': ' - ',
  '\u2015': ' - ',
  '\u2212': '-',
  '\u2026': '...',
  '\u00b0': ' degrees',
  '\u00bd': ' and a half',
  '\u00bc': ' and a quarter',
  '\u00be': ' and three quarters',
};

/** The currencies news writes with a symbol, in the plural and the singular. */
const currencies: Record<string, readonly [string, string]> = {
  $: ['dollars', 'dollar'],
  US$: ['US dollars', 'US dollar'],
  A$: ['Australian dollars', 'Australian dollar'],
  C$: ['Canadian dollars', 'Canadian dollar'],
  NZ$: ['New Zealand dollars', 'New Zealand dollar'],
  HK$: ['Hong Kong dollars', 'Hong Kong dollar'],
  S$: ['Singapore dollars', 'Singapore dollar'],
  '£': ['pounds', 'pound'],
  '€': ['euros', 'euro'],
  '¥': ['yen', 'yen'],
  '₹': ['rupees', 'rupee'],
  '₽': ['roubles', 'rouble'],
  '₩': ['won', 'won'],
  '₺': ['lira', 'lira'],
  '₦': ['naira', 'naira'],
  '₴': ['hryvnias', 'hryvnia'],
  '₪': ['shekels', 'shekel'],
  '₱': ['pesos', 'peso'],
  '฿': ['baht', 'baht'],
};

const multipliers: Record<string, string> = {
  k: 'thousand',
  m: 'million',
  mn: 'million',
  million: 'million',
  b: 'billion',
  bn: 'billion',
  billion: 'billion',
  tn: 'trillion',
  trillion: 'trillion',
};

const symbols = Object.keys(currencies)
  .sort((a, b) => b.length - a.length)
  .map((s) => s.replace(/\$/g, '\\$'))
  .join('|');
/** "£53m", "$1.5bn", "US$ 2 billion", "€10": a symbol, an amount, perhaps a multiplier. */
const money = new RegExp(
  `(?<![\\p{L}\\p{N}])(${symbols})\\s?(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?(k|mn|m|bn|b|tn|million|billion|trillion)(?![\\p{L}\\p{N}]))?`,
  'giu',
);

function sayMoney(symbol: string, amount: string, multiplier: string | undefined): string {
  const [plural, singular] = currencies[symbol.toUpperCase()] ?? currencies[symbol]!;
  const scale = multiplier === undefined ? '' : ` ${multipliers[multiplier.toLowerCase()]}`;
  return `${amount}${scale} ${amount === '1' && scale === '' ? singular : plural}`;
}

const nonAscii = /[^\x20-\x7e\n\t]/gu;

export function festivalText(text: string): string {
  const written = text
    .replace(money, (_, symbol: string, amount: string, multiplier?: string) =>
      sayMoney(symbol, amount, multiplier),
    )
    .replace(/°\s?([CF])(?![\p{L}\p{N}])/gu, (_, scale: string) =>
      scale === 'C' ? ' degrees Celsius' : ' degrees Fahrenheit',
    )
    .replace(/[^\p{ASCII}]/gu, (c) => marks[c] ?? c);
  return withoutDiacritics(written)
    .replace(/\u00a0|[\u2000-\u200a\u202f\u205f\u3000]/gu, ' ')
    .replace(nonAscii, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * Why Festival cannot read a text, or null when it can: once made ASCII, nothing is left to say where
 * the text has letters (Russian, Chinese or Arabic alone), which the voice read as silence.
 */
export function festivalUnreadable(text: string): string | null {
  if (!/\p{L}/u.test(text) || /[A-Za-z0-9]/.test(festivalText(text))) return null;
  return 'the English voice reads only Latin letters and this text has none; give a voice of its language (GET /v1/voices)';
}
