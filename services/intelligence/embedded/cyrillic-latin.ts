// Cyrillic names spelled in Latin letters, to be looked up in the English lexicon's first and last
// names: "Мария" is Maria there, "Владимир" Vladimir, "Путин" Putin. English spells a Russian name in
// more than one way (Mariya and Maria, Andrey and Andrei), so two spellings are tried: the common
// one (BGN/PCGN-like: я ya, й y) and the one with i for й and for the y of я after и.
const letters: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  ђ: 'dj',
  џ: 'dz',
};

const cyrillic = /^[\p{sc=Cyrillic}]+$/u;

/** The Latin spellings of a lowercase Cyrillic word, most common first; none for any other word. */
export function latinSpellings(word: string): string[] {
  if (!cyrillic.test(word)) return [];
  const common = [...word].map((c) => letters[c] ?? c).join('');
  const softer = [...word.replace(/ия/gu, 'иа').replace(/й/gu, 'и')].map((c) => letters[c] ?? c).join('');
  return softer === common ? [common] : [common, softer];
}
