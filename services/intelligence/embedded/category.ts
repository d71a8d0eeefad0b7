// Which of our categories an article belongs to, by the words it uses: each word (and two-word
// phrase) found in a category's vocabulary votes for it, strong words three times as loud, the
// headline three times as loud as the body. The category with the most votes wins; when too few
// words vote at all the text says nothing about its subject and the answer is null.
import type { Category } from '../../runtime/categories.ts';
import { categoryVocabulary, type CategoryVocabulary } from './category-vocabulary.ts';
import { withoutAccents } from './without-accents.ts';
import { parseSentences, type Sentence, type Token } from './sentences.ts';
import { withoutParticles } from './caseless-entities.ts';
import { translatedCategoryVocabulary } from './translated-category-vocabulary.ts';
import { stemmerFor } from './word-stems.ts';

const strongVote = 3;
const titleWeight = 3;
/** Fewer votes than this (e.g. one strong word, or three leaning ones) is no evidence. */
const minimumVotes = 4;

type Table = Map<string, [Category, number][]>;
/** A token's key in a table: English's Porter stem, another language's Snowball stem. */
type KeyOf = (token: Token) => string;

interface Classifier {
  table: Table;
  keyOf: KeyOf;
}

const classifiers = new Map<string, Classifier | null>();

/**
 * English's (for English and an undetected language) or another language's vocabulary
 * (translated-category-vocabulary.ts); null for a language without one.
 */
function classifierFor(language: string | null): Classifier | null {
  const code = language ?? 'en';
  if (!classifiers.has(code)) classifiers.set(code, buildClassifier(code));
  return classifiers.get(code)!;
}

function buildClassifier(language: string): Classifier | null {
  if (language === 'en') {
    const keyOf: KeyOf = (t) => t.stem;
    const keysOf = (word: string) => parseSentences(word).flatMap((s) => s.tokens.map(keyOf));
    return { table: votesTable(categoryVocabulary, keysOf), keyOf };
  }
  const vocabulary = translatedCategoryVocabulary[language];
  // Arabic has no stemmer here: its words are keyed without the particles written against them.
  const stem: ((word: string) => string) | null =
    stemmerFor(language) ?? (language === 'ar' ? (word) => withoutParticles(word, language) : null);
  if (!vocabulary || !stem) return null;
  // Stems without accents: Snowball's Spanish stems "elección" as itself and "elecciones" as
  // "eleccion", and a headline may be written without them.
  const key = (word: string) => withoutAccents(stem(word));
  return {
    table: votesTable(vocabulary, (word) => word.split(' ').map(key)),
    keyOf: (t) => key(t.normal),
  };
}

/** Vocabulary words as keys, each with the categories it votes for and how loudly. */
function votesTable(
  vocabularies: Partial<Record<Category, CategoryVocabulary>>,
  keysOf: (word: string) => string[],
): Table {
  const built: Table = new Map();
  for (const [category, vocabulary] of Object.entries(vocabularies) as [Category, CategoryVocabulary][]) {
    const seen = new Set<string>();
    const add = (word: string, weight: number) => {
      const key = keysOf(word).join(' ');
      if (seen.has(key)) return;
      seen.add(key);
      built.set(key, [...(built.get(key) ?? []), [category, weight]]);
    };
    vocabulary.strong.forEach((w) => add(w, strongVote));
    vocabulary.words.forEach((w) => add(w, 1));
  }
  return built;
}

export interface CategoryVotes {
  category: Category | null;
  votes: Partial<Record<Category, number>>;
}

/** `language`: ISO 639-1, null when unknown (read as English). */
export function classifyCategory(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null = null,
): Category | null {
  return categoryVotes(title, sentences, language).category;
}

/** The votes behind the decision, for the benchmark's confusion report and for tests. */
export function categoryVotes(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null = null,
): CategoryVotes {
  const classifier = classifierFor(language);
  if (!classifier) return { category: null, votes: {} };
  const votes = new Map<Category, number>();
  const { keyOf } = classifier;
  const count = (key: string, weight: number) => {
    for (const [category, vote] of classifier.table.get(key) ?? []) {
      votes.set(category, (votes.get(category) ?? 0) + vote * weight);
    }
  };
  const visit = (sentence: Sentence, weight: number) => {
    const words = sentence.tokens.filter((t) => t.kind === 'word');
    const keys = words.map(keyOf);
    keys.forEach((key, i) => {
      count(key, weight);
      const next = keys[i + 1];
      if (next !== undefined) count(`${key} ${next}`, weight);
    });
  };
  title.forEach((s) => visit(s, titleWeight));
  sentences.forEach((s) => visit(s, 1));

  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const best = ranked[0];
  return {
    category: best && best[1] >= minimumVotes ? best[0] : null,
    votes: Object.fromEntries(ranked),
  };
}
