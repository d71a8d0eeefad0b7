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
// - another script's digits are written as 0-9 (a number reads the same in any script);
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

/**
 * Where each script's decimal digits start (its zero): Arabic-Indic, Extended Arabic-Indic (Persian,
 * Urdu), N'Ko, the Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian, fullwidth. A number is
 * a number in every script, and the English voice says it: "١٢٣٤٥" had been left out whole, and a text of
 * digits alone answered 200 with 100 ms of silence.
 */
const digitZeros = [
  0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0,
  0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0xff10,
];
const otherDigit = /(?![0-9])\p{Nd}/gu;

function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0)!;
  for (const zero of digitZeros) if (code >= zero && code < zero + 10) return String(code - zero);
  // Mathematical and other compatibility digits (𝟓) are a digit once composed.
  const composed = digit.normalize('NFKC');
  return /^[0-9]$/.test(composed) ? composed : digit;
}

export function festivalText(text: string): string {
  const written = text
    .replace(money, (_, symbol: string, amount: string, multiplier?: string) =>
      sayMoney(symbol, amount, multiplier),
    )
    .replace(/°\s?([CF])(?![\p{L}\p{N}])/gu, (_, scale: string) =>
      scale === 'C' ? ' degrees Celsius' : ' degrees Fahrenheit',
    )
    .replace(otherDigit, asciiDigit)
    .replace(/[^\p{ASCII}]/gu, (c) => marks[c] ?? c);
  return withoutDiacritics(written)
    .replace(/\u00a0|[\u2000-\u200a\u202f\u205f\u3000]/gu, ' ')
    .replace(nonAscii, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * Why Festival cannot read a text, or null when it can: once made ASCII, no letter or digit is left to
 * say (Russian, Chinese or Arabic alone; small capitals, superscripts), which the voice read as silence.
 */
export function festivalUnreadable(text: string): string | null {
  if (/[A-Za-z0-9]/.test(festivalText(text))) return null;
  return 'the English voice reads only Latin letters and digits and this text has none; give a voice of its language (GET /v1/voices)';
}
