import { describe, expect, it } from 'vitest';
import {
  rebuildDatabases,
  switchedOver,
  switchOverProblems,
  switchOverStatement,
  undoStatement,
} from './switch-over.ts';

const db = rebuildDatabases('news');
const tables = ['articles', 'sources'];
const present = (...names: string[]) => new Set(names);

describe('rebuildDatabases', () => {
  it('names the scratch and retired databases after the live one', () => {
    expect(db).toEqual({ live: 'news', scratch: 'news_rebuild', retired: 'news_retired' });
  });

  it('refuses a database name that is not an identifier', () => {
    expect(() => rebuildDatabases('news; DROP')).toThrow(/identifier/);
  });
});

describe('switchOverStatement', () => {
  it('retires each live table and moves its rebuilt twin in, all in one RENAME', () => {
    expect(switchOverStatement(tables, db)).toBe(
      'RENAME TABLE news.articles TO news_retired.articles, news_rebuild.articles TO news.articles, ' +
        'news.sources TO news_retired.sources, news_rebuild.sources TO news.sources',
    );
  });
});

describe('switchOverProblems', () => {
  it('finds nothing wrong when both generations exist and the retired names are free', () => {
    const ready = present('news.articles', 'news.sources', 'news_rebuild.articles', 'news_rebuild.sources');
    expect(switchOverProblems(tables, db, ready)).toEqual([]);
  });

  it('names every table that is missing or in the way, since a half-done RENAME is not rolled back', () => {
    const state = present(
      'news.articles',
      'news_rebuild.articles',
      'news_rebuild.sources',
      'news_retired.articles',
    );
    expect(switchOverProblems(tables, db, state)).toEqual([
      'news_retired.articles is in the way',
      'news.sources does not exist',
    ]);
  });
});

describe('undoStatement', () => {
  it('moves back a table whose two renames both happened, and one left half-way', () => {
    // articles fully swapped; sources retired but its rebuilt twin not yet moved in.
    const state = present(
      'news.articles',
      'news_retired.articles',
      'news_retired.sources',
      'news_rebuild.sources',
    );
    expect(undoStatement(tables, db, state)).toBe(
      'RENAME TABLE news.articles TO news_rebuild.articles, news_retired.articles TO news.articles, ' +
        'news_retired.sources TO news.sources',
    );
  });

  it('has nothing to undo when nothing moved', () => {
    const untouched = present(
      'news.articles',
      'news.sources',
      'news_rebuild.articles',
      'news_rebuild.sources',
    );
    expect(undoStatement(tables, db, untouched)).toBeUndefined();
    expect(switchedOver(tables, db, untouched)).toBe(false);
  });

  it('recognises a switch-over that completed although its answer was lost', () => {
    const done = present('news.articles', 'news.sources', 'news_retired.articles', 'news_retired.sources');
    expect(switchedOver(tables, db, done)).toBe(true);
  });
});
