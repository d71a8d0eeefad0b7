import { describe, expect, it } from 'vitest';
import type { RelatedArticle } from '../provider.ts';
import { formatDate, listOf, writeContext } from './context.ts';

const related = (
  id: string,
  title: string,
  sharedTerms: string[],
  summary: string | null = null,
): RelatedArticle => ({
  id,
  title,
  source: 'Daily Wire',
  publishedAt: new Date('2026-11-19T08:00:00Z'),
  sharedTerms,
  summary,
});

describe('writeContext', () => {
  it('is null with no ids when there is no related coverage', () => {
    expect(writeContext([])).toEqual({ context: null, contextArticleIds: [] });
  });

  it('cites each related article by title, source and date and says what they share', () => {
    const { context, contextArticleIds } = writeContext(
      [
        related(
          'art_1',
          'Acme warns on profits',
          ['Acme Corp', 'layoffs'],
          'Acme Corp warned on profits. Shares fell.',
        ),
        related('art_2', 'Unions plan strikes', ['Germany']),
      ],
      new Date('2026-11-20T08:00:00Z'),
    );
    expect(context).toBe(
      'Earlier coverage: "Acme warns on profits" (Daily Wire, 19 Nov 2026) also covers Acme Corp and layoffs. ' +
        'It reported: Acme Corp warned on profits. ' +
        '"Unions plan strikes" (Daily Wire, 19 Nov 2026) also covers Germany.',
    );
    expect(contextArticleIds).toEqual(['art_1', 'art_2']);
  });

  it('calls the coverage earlier, later or related by where it falls against the article', () => {
    const at = (iso: string) => ({ ...related('x', 'Story', []), publishedAt: new Date(iso) });
    const article = new Date('2026-11-19T08:00:00Z');
    const label = (cited: RelatedArticle[], publishedAt?: Date) =>
      writeContext(cited, publishedAt).context!.split(':')[0];
    expect(label([at('2026-11-01T00:00:00Z')], article)).toBe('Earlier coverage');
    expect(label([at('2026-11-25T00:00:00Z')], article)).toBe('Later coverage');
    expect(label([at('2026-11-25T00:00:00Z'), at('2026-11-01T00:00:00Z')], article)).toBe('Related coverage');
    // A text posted to the API has no date of its own.
    expect(label([at('2026-11-01T00:00:00Z')])).toBe('Related coverage');
  });

  it('cites at most six (context_level deep), in the order given', () => {
    const many = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => related(id, `Story ${id}`, []));
    const { context, contextArticleIds } = writeContext(many);
    expect(contextArticleIds).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(context).toContain('"Story a" (Daily Wire, 19 Nov 2026) covers a related story.');
    expect(context).not.toContain('Story g');
  });
});

describe('formatting', () => {
  it('writes dates in UTC and lists with "and"', () => {
    expect(formatDate(new Date('2026-11-19T23:30:00-05:00'))).toBe('20 Nov 2026');
    expect(listOf(['a'])).toBe('a');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
