// Which of our categories an article belongs to, by the words it uses: each word (and two-word
// phrase) found in a category's vocabulary votes for it, strong words three times as loud, the
// headline three times as loud as the body. The category with the most votes wins; when too few
// words vote at all the text says nothing about its subject and the answer is null.
import type { Category } from '../../runtime/categories.ts';
import { categoryVocabulary } from './category-vocabulary.ts';
import { parseSentences, type Sentence } from './sentences.ts';

const strongVote = 3;
const titleWeight = 3;
/** Fewer votes than this (e.g. one strong word, or three leaning ones) is no evidence. */
const minimumVotes = 4;

type Table = Map<string, [Category, number][]>;
let table: Table | null = null;

/** Vocabulary words as stems, each with the categories it votes for and how loudly. */
function votesTable(): Table {
  if (table) return table;
  const built: Table = new Map();
  for (const [category, vocabulary] of Object.entries(categoryVocabulary) as [
    Category,
    { strong: string[]; words: string[] },
  ][]) {
    const seen = new Set<string>();
    const add = (word: string, weight: number) => {
      const key = parseSentences(word)
        .flatMap((s) => s.tokens.map((t) => t.stem))
        .join(' ');
      if (seen.has(key)) return;
      seen.add(key);
      built.set(key, [...(built.get(key) ?? []), [category, weight]]);
    };
    vocabulary.strong.forEach((w) => add(w, strongVote));
    vocabulary.words.forEach((w) => add(w, 1));
  }
  table = built;
  return built;
}

export interface CategoryVotes {
  category: Category | null;
  votes: Partial<Record<Category, number>>;
}

export function classifyCategory(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
): Category | null {
  return categoryVotes(title, sentences).category;
}

/** The votes behind the decision, for the benchmark's confusion report and for tests. */
export function categoryVotes(title: readonly Sentence[], sentences: readonly Sentence[]): CategoryVotes {
  const votes = new Map<Category, number>();
  const lookup = votesTable();
  const count = (key: string, weight: number) => {
    for (const [category, vote] of lookup.get(key) ?? []) {
      votes.set(category, (votes.get(category) ?? 0) + vote * weight);
    }
  };
  const visit = (sentence: Sentence, weight: number) => {
    const words = sentence.tokens.filter((t) => t.kind === 'word');
    words.forEach((t, i) => {
      count(t.stem, weight);
      const next = words[i + 1];
      if (next) count(`${t.stem} ${next.stem}`, weight);
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
