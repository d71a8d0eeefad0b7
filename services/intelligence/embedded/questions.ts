// Questions to think about after reading: built from what the article says, not generic prompts.
// "Why did <actor> <do what the article says it did>?" from a sentence with a named subject, "What
// could <figure> mean for <entity>?" from a figure, then questions about the main keyword and the
// main entity's future, and what view is missing; general critical-reading questions make up the
// rest. Three to five, none repeated. In French, German, Spanish, Italian, Portuguese, Dutch and Russian
// the questions about a figure and the main entity, and the general ones, are asked in that language.
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
  /** ISO 639-1 of the article; the questions are asked in it where it has templates, else in English. */
  language?: string | null;
}

/**
 * Questions in the article's language, for the languages most feeds are in. Only the questions that put
 * a name or figure into a fixed sentence: asking "why did X do Y" takes English grammar. The name opens
 * the question ("Газпром: что будет дальше?", "Consejo de Ministros: ¿qué pasará ahora?"): inside it,
 * it would need a case ending (Russian "для Газпрома") or an article ("con el Consejo") it does not have.
 */
interface Templates {
  figureFor: (figure: string, who: string) => string;
  figure: (figure: string) => string;
  next: (who: string) => string;
  general: readonly string[];
}

const templates: Record<string, Templates> = {
  fr: {
    figureFor: (f, who) => `${who} : que pourrait signifier ${f} ?`,
    figure: (f) => `Que pourrait signifier ${f} ?`,
    next: (who) => `${who} : que va-t-il se passer ensuite ?`,
    general: [
      "Quelles preuves l'article apporte-t-il à son affirmation principale ?",
      "Qui profite de ce que décrit l'article, et qui y perd ?",
      "Que voudriez-vous savoir que l'article ne dit pas ?",
    ],
  },
  de: {
    figureFor: (f, who) => `${who}: Was könnte ${f} bedeuten?`,
    figure: (f) => `Was könnte ${f} bedeuten?`,
    next: (who) => `${who}: Wie geht es weiter?`,
    general: [
      'Welche Belege nennt der Artikel für seine wichtigste Aussage?',
      'Wer profitiert von dem, was der Artikel beschreibt, und wer verliert?',
      'Was würden Sie gern wissen, das der Artikel nicht sagt?',
    ],
  },
  es: {
    figureFor: (f, who) => `${who}: ¿qué podría significar ${f}?`,
    figure: (f) => `¿Qué podría significar ${f}?`,
    next: (who) => `${who}: ¿qué pasará ahora?`,
    general: [
      '¿Qué pruebas da el artículo de su afirmación principal?',
      '¿Quién se beneficia de lo que describe el artículo y quién pierde?',
      '¿Qué le gustaría saber que el artículo no dice?',
    ],
  },
  it: {
    figureFor: (f, who) => `${who}: che cosa potrebbe significare ${f}?`,
    figure: (f) => `Che cosa potrebbe significare ${f}?`,
    next: (who) => `${who}: che cosa succederà ora?`,
    general: [
      "Quali prove porta l'articolo a sostegno della sua tesi principale?",
      "Chi trae vantaggio da ciò che l'articolo descrive, e chi ci perde?",
      "Che cosa vorreste sapere che l'articolo non dice?",
    ],
  },
  pt: {
    figureFor: (f, who) => `${who}: o que poderá significar ${f}?`,
    figure: (f) => `O que poderá significar ${f}?`,
    next: (who) => `${who}: o que se segue?`,
    general: [
      'Que provas apresenta o artigo para a sua afirmação principal?',
      'Quem ganha com o que o artigo descreve, e quem perde?',
      'O que gostaria de saber que o artigo não diz?',
    ],
  },
  nl: {
    figureFor: (f, who) => `${who}: wat zou ${f} kunnen betekenen?`,
    figure: (f) => `Wat zou ${f} kunnen betekenen?`,
    next: (who) => `${who}: hoe gaat het verder?`,
    general: [
      'Welk bewijs geeft het artikel voor zijn belangrijkste bewering?',
      'Wie heeft baat bij wat het artikel beschrijft, en wie verliest?',
      'Wat zou u willen weten dat het artikel niet vertelt?',
    ],
  },
  ru: {
    figureFor: (f, who) => `${who}: что может означать ${f}?`,
    figure: (f) => `Что может означать ${f}?`,
    next: (who) => `${who}: что будет дальше?`,
    general: [
      'Какие доказательства приводит статья в пользу своего главного утверждения?',
      'Кто выигрывает от того, что описано в статье, а кто проигрывает?',
      'Что вы хотели бы узнать, о чём статья не говорит?',
    ],
  },
};

export function questionsToThinkAbout(input: QuestionInput): string[] {
  const localised = input.language ? templates[input.language] : undefined;
  if (localised) return localisedQuestions(input, localised);
  const { sentences, entities, keywords } = input;
  const actors = actorsOf(entities);
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

/** Who acts in a story: people and organisations before places. */
function actorsOf(entities: readonly Entity[]): Entity[] {
  return [
    ...entities.filter((e) => e.type === 'person' || e.type === 'organization'),
    ...entities.filter((e) => e.type === 'place'),
  ];
}

function localisedQuestions(input: QuestionInput, t: Templates): string[] {
  const actors = actorsOf(input.entities);
  const main = actors[0] ?? input.entities[0];
  const questions: string[] = [];
  const add = (q: string | null) => {
    if (q && !questions.includes(q) && questions.length < maxQuestions) questions.push(q);
  };
  const figure = figureIn(input.sentences, actors, main);
  if (figure) add(figure.who ? t.figureFor(figure.text, figure.who.name) : t.figure(figure.text));
  if (main) add(t.next(main.name));
  for (const q of t.general) add(q);
  return questions;
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
  const figure = figureIn(sentences, actors, main);
  if (!figure) return null;
  return figure.who
    ? `What could ${figure.text} mean for ${figure.who.name}?`
    : `What could ${figure.text} mean?`;
}

/** The first money or percentage figure, and whom it concerns: an actor its sentence names, else `main`. */
function figureIn(
  sentences: readonly Sentence[],
  actors: readonly Entity[],
  main: Entity | undefined,
): { text: string; who: Entity | undefined } | null {
  for (const s of sentences) {
    const figure = figuresIn(s).find((f) => f.kind !== 'count');
    if (figure) return { text: figure.text, who: actors.find((e) => s.text.includes(e.name)) ?? main };
  }
  return null;
}
