// Which names are also ordinary English words ("Next", "Shell", "Apple", "Target", "Gap", "Ford"),
// and so need more than a matching word to count as a mention of the company.
//
// The word list is the lexicon of wink-eng-lite-web-model, the English model the enrichment
// pipeline already uses (services/intelligence/embedded/english.ts): about 85,000 lower-case word
// forms, inflections included, built from WordNet. It is broad on purpose. Guarding a word that is
// rarely used as a common noun ("nestle", "dell", "yahoo") costs little, since real mentions of a
// company are capitalised mid-sentence almost always; missing a common word would cost false
// alerts. It ships inside the npm package, so nothing is downloaded; it is read once, on first use.
import { createRequire } from 'node:module';

const modelPath = 'wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json';
const lowerCaseWord = /^[a-z]+$/;

let lexicon: ReadonlySet<string> | null = null;

/** Whether `word` (folded: lower case, no diacritics) is an English word in wink's lexicon. */
export function isEnglishWord(word: string): boolean {
  lexicon ??= loadLexicon();
  return lexicon.has(word);
}

function loadLexicon(): ReadonlySet<string> {
  const model: unknown = createRequire(import.meta.url)(modelPath);
  const list = lexemes(model);
  if (!list) throw new Error(`${modelPath}: no features.lexeme.list; has the model's format changed?`);
  return new Set(list.filter((w): w is string => typeof w === 'string' && lowerCaseWord.test(w)));
}

function lexemes(model: unknown): unknown[] | null {
  const features = field(model, 'features');
  const list = field(field(features, 'lexeme'), 'list');
  return Array.isArray(list) ? (list as unknown[]) : null;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
