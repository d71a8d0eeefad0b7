// Reads a labelled news-story data set into articles in arrival order, each with its true story.
//
// Formats, told apart by the file's first bytes:
// - the UCI News Aggregator data set (Gasparetti, 2017): `uci-news-aggregator.csv` with the header
//   ID,TITLE,URL,PUBLISHER,CATEGORY,STORY,HOSTNAME,TIMESTAMP, or the original tab-separated
//   `newsCorpora.csv` without a header; TIMESTAMP in ms since the epoch;
// - JSON Lines, one article a line: {"id","title","lead"?,"source","at" (ISO or ms),"story","language"?}.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { StoryArticle } from '../../../services/stories/story-vector.ts';

export interface LabelledArticle {
  article: Omit<StoryArticle, 'entities' | 'keywords'>;
  story: string;
  /** Display name of the outlet. */
  outlet: string;
}

const uciColumns = ['ID', 'TITLE', 'URL', 'PUBLISHER', 'CATEGORY', 'STORY', 'HOSTNAME', 'TIMESTAMP'];

export function readLabelledStories(path: string): LabelledArticle[] {
  const text = readFileSync(path, 'utf8');
  const first = text.slice(0, text.indexOf('\n'));
  const articles = first.trimStart().startsWith('{')
    ? readJsonLines(text, path)
    : readUci(text, first.startsWith('ID,TITLE') ? ',' : '\t', first.startsWith('ID,TITLE'));
  return articles.sort((a, b) => a.article.at - b.article.at || compare(a.article.id, b.article.id));
}

function readUci(text: string, delimiter: string, header: boolean): LabelledArticle[] {
  const rows: string[][] = parse(text, {
    delimiter,
    from_line: header ? 2 : 1,
    relax_quotes: true,
    relax_column_count: true,
    quote: delimiter === '\t' ? false : '"',
    skip_empty_lines: true,
  });
  return rows.flatMap((row) => {
    if (row.length < uciColumns.length) return [];
    const [id, title, , publisher, , story, hostname, timestamp] = row as [string, ...string[]];
    const at = Number(timestamp);
    if (!title || !story || !Number.isFinite(at)) return [];
    return [
      {
        article: { id: `uci-${id}`, sourceId: hostname || publisher!, language: 'en', at, title, lead: '' },
        story,
        outlet: publisher!,
      },
    ];
  });
}

function readJsonLines(text: string, path: string): LabelledArticle[] {
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    const row = JSON.parse(line) as Record<string, unknown>;
    const { id, title, story, source } = row;
    const at = typeof row.at === 'number' ? row.at : Date.parse(String(row.at));
    if (
      typeof id !== 'string' ||
      typeof title !== 'string' ||
      typeof story !== 'string' ||
      !Number.isFinite(at)
    )
      throw new Error(`${path}:${i + 1}: needs string id, title, story and a time "at"`);
    const outlet = typeof source === 'string' ? source : 'unknown';
    return [
      {
        article: {
          id,
          sourceId: outlet,
          language: typeof row.language === 'string' ? row.language : 'en',
          at,
          title,
          lead: typeof row.lead === 'string' ? row.lead : '',
        },
        story,
        outlet,
      },
    ];
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
