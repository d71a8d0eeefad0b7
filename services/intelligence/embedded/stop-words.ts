// Words that say nothing of what a text is about, in the languages other than English (wink knows
// English's). The lists are the `stopword` package's (Snowball's and others', 60 languages, kept up by
// its maintainers): better than lists of our own for languages none of us reads. To them we add what
// news writes in every story and the lists lack: the verbs of reporting and being (dijo, según, fue,
// заявил), which would otherwise be any Spanish or Russian article's first keywords.
import stopword from 'stopword';

type ListName = Exclude<keyof typeof stopword, 'removeStopwords'>;

/** ISO 639-1 to the package's ISO 639-3 list names; Brazilian Portuguese has a list of its own. */
const listNames: Record<string, ListName[]> = {
  af: ['afr'],
  ar: ['ara'],
  bg: ['bul'],
  bn: ['ben'],
  ca: ['cat'],
  cs: ['ces'],
  da: ['dan'],
  de: ['deu'],
  el: ['ell'],
  es: ['spa'],
  et: ['est'],
  eu: ['eus'],
  fa: ['fas'],
  fi: ['fin'],
  fr: ['fra'],
  ga: ['gle'],
  gl: ['glg'],
  gu: ['guj'],
  ha: ['hau'],
  he: ['heb'],
  hi: ['hin'],
  hr: ['hrv'],
  hu: ['hun'],
  hy: ['hye'],
  id: ['ind'],
  it: ['ita'],
  ku: ['kur'],
  la: ['lat'],
  lt: ['lit'],
  lv: ['lav'],
  mr: ['mar'],
  ms: ['msa'],
  nb: ['nob'],
  nl: ['nld'],
  no: ['nob'],
  pa: ['panGu'],
  pl: ['pol'],
  pt: ['por', 'porBr'],
  ro: ['ron'],
  ru: ['rus'],
  sk: ['slk'],
  sl: ['slv'],
  so: ['som'],
  st: ['sot'],
  sv: ['swe'],
  sw: ['swa'],
  th: ['tha'],
  tl: ['tgl'],
  tr: ['tur'],
  uk: ['ukr'],
  ur: ['urd'],
  vi: ['vie'],
  yo: ['yor'],
  zu: ['zul'],
};

/** News's own function words the lists leave out: reporting, being and having, time and place words. */
const newsWords: Record<string, string> = {
  es: 'este esta estos estas esto fue fueron han son ser sido está están estaba entre tras dijo dijeron según afirmó aseguró añadió explicó señaló había hay será puede pueden año años',
  fr: 'fait selon après dont ainsi aussi peut entre dit déclaré indiqué affirmé ajouté expliqué lors avant depuis année ans',
  de: 'sagte sagten erklärte teilte mitteilte laut sei seien jahr jahren prozent',
  it: 'stato stata stati state dopo secondo detto ha dichiarato spiegato aggiunto essere anno anni',
  pt: 'foi foram são ser sido está estão disse afirmou segundo após pode podem ter tem têm ano anos',
  nl: 'volgens tussen zegt jaar jaren procent',
  hi: 'करेगा करेगी करेंगे करेंगी करती करेगें होगा होगी होंगे होंगी गई गए गये गयी दी दिए दिये ली लिया रही रहीं सकती सकें सकेंगे जाएगा जाएगी जाएंगे जाएँगे जाता जाती जाते जाने जाना चाहिए थीं हुईं वाली वाला बताया बताते बताती कहना कहती कही अनुसार साल वर्ष प्रतिशत',
  ru: 'это заявил заявила заявили сообщил сообщила сообщили также года году лет которые который которая которое будет будут время',
};

const cache = new Map<string, ReadonlySet<string> | null>();

/**
 * The stop words of a language (ISO 639-1, or a locale: pt-BR is pt), lowercase; null for English
 * (wink's) and for a language with no list.
 */
export function stopWordsFor(language: string | null | undefined): ReadonlySet<string> | null {
  const code = (language ?? '').split(/[-_]/u)[0]!.toLowerCase();
  if (code === '' || code === 'en') return null;
  if (!cache.has(code)) {
    const names = listNames[code];
    const words = names ? names.flatMap((name) => stopword[name]) : [];
    const extra = newsWords[code]?.split(' ') ?? [];
    cache.set(
      code,
      words.length + extra.length > 0 ? new Set([...words, ...extra].map((w) => w.toLowerCase())) : null,
    );
  }
  return cache.get(code)!;
}

/**
 * The stop words of the alphabets wink does not read, whatever the language: a word of Cyrillic or
 * Arabic script is in one of a few languages, whose function words do not collide with each other's
 * content words often enough to matter (и, в, на; في, من, على; के, की).
 */
export const otherScriptStopWords: ReadonlySet<string> = new Set(
  ['ru', 'uk', 'bg', 'el', 'ar', 'fa', 'ur', 'he', 'hi', 'mr', 'bn', 'hy', 'gu', 'pa']
    .flatMap((language) => [...(stopWordsFor(language) ?? [])])
    .filter((word) => /[\u0250-\u{10ffff}]/u.test(word)),
);
