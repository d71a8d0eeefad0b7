// Three articles of the BBC corpus (a copy of services/demo/corpus/bbc/article/{business/001,business/014,
// tech/005}.txt and their summaries, CC0; see that folder's README), kept beside the parser's tests so its
// testdata stands alone. They build the JSON Feed and Atom fixtures, and the tests check that every
// paragraph survives parsing exactly. File layout: headline, blank line, paragraphs separated by blank lines (one sentence per line
// inside a paragraph).

import { readFileSync } from 'node:fs';

export interface Article {
  slug: string;
  category: string;
  headline: string;
  /** Everything after the headline, trimmed. */
  body: string;
  paragraphs: string[];
  summary: string;
}

export const ARTICLE_SLUGS = ['business-001', 'business-014', 'tech-005'] as const;

function read(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}

export function loadArticle(slug: string): Article {
  const [headline = '', ...rest] = read(`${slug}.txt`).split('\n');
  const body = rest.join('\n').trim();
  return {
    slug,
    category: slug.split('-')[0] ?? '',
    headline,
    body,
    paragraphs: body.split(/\n{2,}/),
    summary: read(`${slug}.summary.txt`).trim(),
  };
}
