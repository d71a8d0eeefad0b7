// The `q` search syntax, parsed into an expression the article query turns into SQL.
//
//   bank rates              both words (AND is implied between terms)
//   "interest rates"        the words next to each other, in this order
//   fed OR ecb              either
//   NOT china, -china       without (also !china)
//   (fed OR ecb) AND rates  parentheses group; AND may be written out (&& and || are AND and OR)
//
// Operators are AND, OR and NOT in capitals (lower-case "and"/"or" are words); NOT binds tighter
// than AND, AND tighter than OR. A term is compared as whole words without regard to case: a run of
// letters, marks and digits is a word, and a term written with punctuation inside ("anti-spyware",
// "U.S.") is its words next to each other, as a phrase. Text in a script written without spaces
// (Chinese, Japanese, Thai, ...) is found wherever it occurs, inside a longer run or not
// (search-words.ts). A query that cannot be read answers 400 saying what is
// wrong and where (a 1-based character position).

import {
  isIndexed,
  isUnspaced,
  maxIndexedWordLength,
  searchWords,
  wordsPattern,
} from '../../search/search-words.ts';

export type SearchExpression =
  | { kind: 'term'; words: string[] }
  | { kind: 'and'; items: SearchExpression[] }
  | { kind: 'or'; items: SearchExpression[] }
  | { kind: 'not'; item: SearchExpression };

export class SearchSyntaxError extends Error {}

/** Terms (words and phrases) a query may hold: each becomes a condition. */
export const maxTerms = 20;
const maxDepth = 10;

type Token =
  | { type: 'open' | 'close' | 'and' | 'or' | 'not'; at: number; text: string }
  | { type: 'term'; at: number; text: string; words: string[] };

/**
 * The operators, as words in capitals and as a programmer writes them: read as punctuation, `fed || ecb`
 * had been `fed ecb`, both words, the opposite of what was asked.
 */
const operators = new Map<string, 'and' | 'or' | 'not'>([
  ['AND', 'and'],
  ['OR', 'or'],
  ['NOT', 'not'],
  ['&&', 'and'],
  ['||', 'or'],
]);

/** Where a field named in front of a term (`title:apple`, as other search engines take) is chosen here. */
const namedFields = new Map<string, string>([
  ...['title', 'summary', 'content', 'headline', 'description', 'body', 'text'].map(
    (f) => [f, 'search_in (title, summary, content) chooses the fields q looks in'] as const,
  ),
  ...['source', 'category', 'language'].map((f) => [f, `the ${f} parameter filters by ${f}`] as const),
  ['lang', 'the language parameter filters by language'],
]);

/**
 * Syntax of other search engines this one does not have, refused rather than read as its words: a
 * wildcard (`econom*`) would look for the word "econom", and `title:apple` for "title" and "apple".
 */
function refuseUnsupported(text: string, at: number): void {
  const where = `${quoteShort(text)} at position ${at + 1}`;
  if (/[\p{L}\p{M}\p{N}][*?]|[*?][\p{L}\p{M}\p{N}]/u.test(text) && /[*]|\?(?!$)/u.test(text))
    throw new SearchSyntaxError(
      `${where}: wildcards are not supported; q finds whole words (write the forms you want with OR: economy OR economic)`,
    );
  // Read as words, each of these found nothing, and an empty answer looked like no news: "blair^2" was
  // the phrase "blair 2", "blair|brown" the phrase "blair brown", '"blair brown"~3' the word 3 besides.
  if (/[\p{L}\p{M}\p{N}"]\^\d*(?:\.\d+)?$/u.test(text))
    throw new SearchSyntaxError(
      `${where}: boosts (^) are not supported; sort_by=relevance ranks by the words themselves`,
    );
  if (/^~\d*(?:\.\d+)?$|[\p{L}\p{M}\p{N}]~\d*(?:\.\d+)?$/u.test(text))
    throw new SearchSyntaxError(
      `${where}: fuzzy and proximity searches (~) are not supported; q finds whole words and exact phrases ("…")`,
    );
  if (text === '|' || /[\p{L}\p{M}\p{N}]\|+[\p{L}\p{M}\p{N}]/u.test(text))
    throw new SearchSyntaxError(`${where}: write OR between alternatives (blair OR brown), not |`);
  const field = /^([a-z]+):./i.exec(text)?.[1]?.toLowerCase();
  const instead = field === undefined ? undefined : namedFields.get(field);
  if (instead) throw new SearchSyntaxError(`${where}: q does not take field names; ${instead}`);
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/u.test(c)) {
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'open' : 'close', at: i, text: c });
      i += 1;
    } else if (c === '"') {
      const end = query.indexOf('"', i + 1);
      if (end < 0) throw new SearchSyntaxError(`the quote at position ${i + 1} is not closed`);
      const text = query.slice(i, end + 1);
      tokens.push({ type: 'term', at: i, text, words: searchWords(text) });
      i = end + 1;
    } else if ((c === '-' || c === '!') && (i === 0 || /[\s(]/u.test(query[i - 1]!))) {
      // A minus (or a programmer's "!") in front of a term negates it; inside a word ("anti-spyware") it is
      // punctuation, as "!" after one ("Yahoo!") is.
      tokens.push({ type: 'not', at: i, text: c });
      i += 1;
    } else {
      let end = i;
      while (end < query.length && !/[\s()"]/u.test(query[end]!)) end += 1;
      const text = query.slice(i, end);
      const operator = operators.get(text);
      if (operator) tokens.push({ type: operator, at: i, text });
      else {
        refuseUnsupported(text, i);
        tokens.push({ type: 'term', at: i, text, words: searchWords(text) });
      }
      i = end;
    }
  }
  return tokens;
}

/** Parses `q`; throws SearchSyntaxError with a message fit to show after "q: ". */
export function parseSearch(query: string): SearchExpression {
  // Punctuation alone ("&&", "'") is no term: it is dropped, so "' OR '1'='1" reads as "OR 1 1".
  const tokens = tokenize(query).filter((t) => t.type !== 'term' || t.words.length > 0);
  if (!tokens.some((t) => t.type === 'term'))
    throw new SearchSyntaxError(
      tokens.length > 0
        ? 'has only operators (AND, OR, NOT), no word to find'
        : 'must contain at least one letter or digit',
    );
  let position = 0;
  const peek = () => tokens[position];
  const where = (t: Token | undefined) => (t ? `at position ${t.at + 1}` : 'at the end');

  const parseOr = (depth: number): SearchExpression => {
    const items = [parseAnd(depth)];
    while (peek()?.type === 'or') {
      const or = tokens[position++]!;
      if (!startsOperand(peek()))
        throw new SearchSyntaxError(`${or.text} ${where(or)} needs a term after it`);
      items.push(parseAnd(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };
  const parseAnd = (depth: number): SearchExpression => {
    const items = [parseUnary(depth)];
    for (;;) {
      const next = peek();
      if (next?.type === 'and') {
        position += 1;
        if (!startsOperand(peek()))
          throw new SearchSyntaxError(`${next.text} ${where(next)} needs a term after it`);
      } else if (!startsOperand(next)) break;
      items.push(parseUnary(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };
  const parseUnary = (depth: number): SearchExpression => {
    const token = peek();
    if (token?.type === 'not') {
      position += 1;
      if (!startsOperand(peek()))
        throw new SearchSyntaxError(`${token.text} ${where(token)} needs a term after it`);
      return { kind: 'not', item: parseUnary(depth) };
    }
    return parsePrimary(depth);
  };
  const parsePrimary = (depth: number): SearchExpression => {
    const token = tokens[position++];
    if (token?.type === 'term') return { kind: 'term', words: token.words };
    if (token?.type === 'open') {
      if (depth >= maxDepth) throw new SearchSyntaxError(`parentheses nest deeper than ${maxDepth}`);
      if (peek()?.type === 'close') throw new SearchSyntaxError(`the parentheses ${where(token)} are empty`);
      const inner = parseOr(depth + 1);
      const close = tokens[position++];
      if (close?.type !== 'close')
        throw new SearchSyntaxError(`the parenthesis ${where(token)} is not closed`);
      return inner;
    }
    if (token?.type === 'close')
      throw new SearchSyntaxError(`the parenthesis ${where(token)} was not opened`);
    throw new SearchSyntaxError(`${token?.text ?? 'the query'} ${where(token)} needs a term before it`);
  };

  const expression = parseOr(0);
  const rest = peek();
  if (rest) {
    if (rest.type === 'close') throw new SearchSyntaxError(`the parenthesis ${where(rest)} was not opened`);
    throw new SearchSyntaxError(`${rest.text} ${where(rest)} needs a term before it`);
  }
  const long = tokens.find((t) => t.type === 'term' && t.words.some((w) => !isUnspaced(w) && !isIndexed(w)));
  if (long)
    throw new SearchSyntaxError(
      `${quoteShort(long.text)} at position ${long.at + 1} has a word longer than ${maxIndexedWordLength} characters, which the index does not hold`,
    );
  const terms = countTerms(expression);
  if (terms > maxTerms) throw new SearchSyntaxError(`at most ${maxTerms} terms (this has ${terms})`);
  if (!findsSomething(expression))
    throw new SearchSyntaxError('needs a term to find, not only terms to leave out');
  return expression;
}

const quoteShort = (text: string) => JSON.stringify(text.length > 24 ? `${text.slice(0, 24)}…` : text);

function startsOperand(token: Token | undefined): boolean {
  return token?.type === 'term' || token?.type === 'open' || token?.type === 'not';
}

function countTerms(e: SearchExpression): number {
  if (e.kind === 'term') return 1;
  if (e.kind === 'not') return countTerms(e.item);
  return e.items.reduce((n, item) => n + countTerms(item), 0);
}

/**
 * Whether every match must contain some term (so the query narrows rather than lists everything but
 * a few words): a term does; NOT does not; AND does if any part does; OR only if every branch does.
 */
function findsSomething(e: SearchExpression): boolean {
  switch (e.kind) {
    case 'term':
      return true;
    case 'not':
      return false;
    case 'and':
      return e.items.some(findsSomething);
    case 'or':
      return e.items.every(findsSomething);
  }
}

/** The query written back in its normal form (for logs and tests): operators explicit, phrases quoted. */
export function formatSearch(e: SearchExpression): string {
  switch (e.kind) {
    case 'term':
      return e.words.length === 1 ? e.words[0]! : `"${e.words.join(' ')}"`;
    case 'not':
      return `NOT ${formatSearch(e.item)}`;
    case 'and':
      return `(${e.items.map(formatSearch).join(' AND ')})`;
    case 'or':
      return `(${e.items.map(formatSearch).join(' OR ')})`;
  }
}

/**
 * The expression as a test on a text already lowercased (the live stream filters events in memory with
 * the same meaning the article query gives it in SQL).
 */
export function searchMatcher(e: SearchExpression): (lowercaseText: string) => boolean {
  switch (e.kind) {
    case 'term': {
      const pattern = new RegExp(wordsPattern(e.words, 'js'), 'u');
      return (text) => pattern.test(text);
    }
    case 'not': {
      const item = searchMatcher(e.item);
      return (text) => !item(text);
    }
    case 'and': {
      const items = e.items.map(searchMatcher);
      return (text) => items.every((m) => m(text));
    }
    case 'or': {
      const items = e.items.map(searchMatcher);
      return (text) => items.some((m) => m(text));
    }
  }
}
