// Questions to think about after reading: built from what the article says, not generic prompts.
// "Why did <actor> <do what the article says it did>?" from a sentence with a named subject, "What
// could <figure> mean for <entity>?" from a figure, then questions about the main keyword and the
// main entity's future, and what view is missing; general critical-reading questions make up the
// rest. Three to five, none repeated.
import type { Entity } from '../provider.ts';
import { figuresIn, joinTokens } from './figures.ts';
import type { Sentence, Token } from './sentences.ts';

export const minQuestions = 3;
export const maxQuestions = 5;

const speechVerbs = new Set([
  'say',
  'tell',
  'add',
  'warn',
  'explain',
  'insist',
  'argue',
  'claim',
  'state',
  'ask',
  'reply',
]);
/** Where an action's object ends: at a clause boundary. */
const clauseEnd = new Set([',', '.', ';', ':', '?', '!', '"', '“', '”', '(', ')', '-', '—']);
const maxObjectWords = 8;
/** Words that open a new clause ("... jobs | after its profits fell"), whatever the tagger calls them. */
const clauseOpeners = new Set([
  'after',
  'before',
  'because',
  'as',
  'while',
  'when',
  'since',
  'although',
  'though',
  'until',
  'unless',
  'if',
  'whereas',
  'which',
  'who',
  'that',
]);
const modals = new Set(['will', 'would', 'could', 'can', 'should', 'may', 'might', 'must']);

export interface QuestionInput {
  sentences: readonly Sentence[];
  entities: readonly Entity[];
  keywords: readonly string[];
}

export function questionsToThinkAbout(input: QuestionInput): string[] {
  const { sentences, entities, keywords } = input;
  // Who acts in a story: people and organisations before places.
  const actors = [
    ...entities.filter((e) => e.type === 'person' || e.type === 'organization'),
    ...entities.filter((e) => e.type === 'place'),
  ];
  const main = actors[0] ?? entities[0];
  const questions: string[] = [];
  const add = (q: string | null) => {
    if (q && !questions.includes(q) && questions.length < maxQuestions) questions.push(q);
  };
  add(whyQuestion(sentences, actors));
  add(figureQuestion(sentences, actors, main));
  const topic = keywords[0] ? `the ${surfaceForm(keywords[0], sentences)}` : null;
  const other = actors.find((e) => e !== main);
  if (topic && other) add(`How might ${topic} affect ${other.name}?`);
  if (main) add(`What happens next for ${main.name}?`);
  if (topic) add(`Whose view of ${topic} is missing from this account?`);
  add('What evidence does the article give for its main claim?');
  add('Who benefits from what the article describes, and who loses?');
  add('What would you want to know that the article does not say?');
  return questions.slice(0, maxQuestions);
}

/** Keywords are dictionary forms ("layoff"); a question reads better with the article's ("layoffs"). */
function surfaceForm(keyword: string, sentences: readonly Sentence[]): string {
  const words = keyword.split(' ');
  const head = words.at(-1)!;
  for (const s of sentences) {
    const t = s.tokens.find((token) => token.lemma === head && /^\p{Ll}/u.test(token.text));
    if (t) return [...words.slice(0, -1), t.normal].join(' ');
  }
  return keyword;
}

/**
 * "TimeWarner posted a profit of $3.36bn" -> "Why did TimeWarner post a profit of $3.36bn?";
 * "Acme Corp will cut 1,200 jobs" -> "Why will Acme Corp cut 1,200 jobs in Europe?"
 */
function whyQuestion(sentences: readonly Sentence[], actors: readonly Entity[]): string | null {
  for (const s of sentences) {
    const words = s.tokens.filter((t) => t.kind !== 'punctuation' || clauseEnd.has(t.text));
    const verbAt = words.findIndex((t) => t.pos === 'VERB');
    if (verbAt <= 0) continue;
    const verb = words[verbAt]!;
    // The subject is the clause right before the verb ("For the full year, | TimeWarner posted").
    const start = words.slice(0, verbAt).findLastIndex((t) => clauseEnd.has(t.text)) + 1;
    // "Acme Corp will cut": the modal moves to the front of the question.
    const modal =
      words[verbAt - 1]?.pos === 'AUX' && modals.has(words[verbAt - 1]!.normal) ? words[verbAt - 1]! : null;
    const subjectWords = words.slice(start, modal ? verbAt - 1 : verbAt);
    // "Unions in Germany condemned": the unions did, not Germany.
    if (speechVerbs.has(verb.lemma) || subjectWords.some((t) => t.pos === 'AUX' || t.pos === 'ADP')) continue;
    const subject = joinTokens(subjectWords);
    // The actor must be the subject itself ("The firm TimeWarner"), not a word inside a longer one
    // ("Quarterly profits at TimeWarner jumped": the profits jumped).
    const actor = actors.find(
      (e) =>
        subjectWords.length > 0 &&
        subjectWords.length <= e.name.split(' ').length + 2 &&
        (subject.endsWith(e.name) || subject.endsWith(e.name.split(' ').at(-1)!)),
    );
    if (!actor) continue;
    const tense = modal ? modal.normal : verbTense(verb);
    if (!tense) continue;
    const object = objectAfter(words, verbAt + 1);
    if (object.length < 2) continue;
    return `Why ${tense} ${actor.name} ${verb.lemma} ${joinTokens(object)}?`;
  }
  return null;
}

/** "did" for a past-tense verb, "does" for a present one; null when it is neither ("to go", "going"). */
function verbTense(verb: Token): 'did' | 'does' | null {
  if (verb.normal === verb.lemma || verb.normal.endsWith('ing')) return null;
  if (/s$/.test(verb.normal) && !/ss$/.test(verb.normal)) return 'does';
  return 'did';
}

function objectAfter(words: readonly Token[], from: number): Token[] {
  const object: Token[] = [];
  for (let i = from; i < words.length && object.length < maxObjectWords; i += 1) {
    const t = words[i]!;
    if (clauseEnd.has(t.text) || t.pos === 'SCONJ' || t.pos === 'CCONJ' || clauseOpeners.has(t.normal)) break;
    object.push(t);
  }
  // A question does not end on "of", "the" or "to".
  while (object.length && ['ADP', 'DET', 'PART', 'CCONJ', 'PRON'].includes(object.at(-1)!.pos)) object.pop();
  return object;
}

/** "What could $1.13bn mean for TimeWarner?": the first money or percentage figure, and who it concerns. */
function figureQuestion(
  sentences: readonly Sentence[],
  actors: readonly Entity[],
  main: Entity | undefined,
): string | null {
  for (const s of sentences) {
    const figure = figuresIn(s).find((f) => f.kind !== 'count');
    if (!figure) continue;
    const concerned = actors.find((e) => s.text.includes(e.name)) ?? main;
    return concerned
      ? `What could ${figure.text} mean for ${concerned.name}?`
      : `What could ${figure.text} mean?`;
  }
  return null;
}
