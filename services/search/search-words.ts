// A text's words as search compares them: runs of letters and digits, each lowercased. The query
// parser (`q`) and the index the projector writes (article-terms.ts) both take words from here, so a
// word of a query is looked up exactly as the index filed it.
const wordPattern = /[\p{L}\p{N}]+/gu;

/**
 * Composed first (NFC): macOS and some input methods send "ç" as "c" and a combining cedilla, which is
 * not a letter, so "simulações" typed that way would be the words "simulac", "o" and "es" and find
 * nothing, where the articles, like nearly all text on the web, hold it composed.
 */
export function searchWords(text: string): string[] {
  return (text.normalize('NFC').match(wordPattern) ?? []).map((w) => w.toLowerCase());
}

/**
 * Longer words are not indexed (base64, run-together URLs and other junk would each become a posting
 * list of one); a query for one is still answered, by reading the text (article-query.ts).
 */
export const maxIndexedWordLength = 64;

export const isIndexed = (word: string) => word.length > 0 && word.length <= maxIndexedWordLength;
