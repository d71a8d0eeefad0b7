import { describe, expect, it } from 'vitest';
import { isListId, listIds, listRequests } from './list-queries.ts';

describe('the filter sets bench:api measures', () => {
  const options = { word: 'world', sourceName: 'Auckland Chronicle' };

  it('are all five when none is named, in their order', () => {
    expect(listRequests(options).map((r) => r.id)).toEqual([...listIds]);
    expect(listRequests(options).map((r) => r.query)).toEqual([
      'limit=20',
      'category=technology&limit=20',
      'language=en&date_range=7d&limit=20',
      'q=world&limit=20',
      'source=Auckland%20Chronicle&limit=20',
    ]);
  });

  it('are the ones BENCH_LISTS names, in their order whatever the order named', () => {
    expect(listRequests({ ...options, only: ['source', 'newest'] }).map((r) => r.name)).toEqual([
      'newest',
      'source',
    ]);
    expect(listRequests({ ...options, only: ['q'] }).map((r) => r.name)).toEqual(['q=world']);
  });

  it('are named by their ids only', () => {
    expect(listIds.filter(isListId)).toEqual([...listIds]);
    expect(['language+7d', 'q=world', 'Newest', ''].filter(isListId)).toEqual([]);
  });
});
