// A word with its accents and other combining marks taken off: "María" -> "Maria", "ёлка" -> "елка".
// For comparing words that are written with and without them (a headline without accents, a Snowball
// stem that keeps them in one form and not in another, an English lexicon that never had them).
export function withoutAccents(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}
