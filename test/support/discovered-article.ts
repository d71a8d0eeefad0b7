// An ArticleDiscovered event as the poller writes it, for tests that need a whole one.
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';

export const discoveredArticle = (
  id: string,
  at: number,
  fields: Partial<ArticleDiscovered> = {},
): ArticleDiscovered => ({
  article_id: id,
  source_id: 's1',
  source_name: 'Daily Example',
  guid: id,
  url: `https://news.example/${id}`,
  original_url: `https://news.example/${id}`,
  title: 'Minister resigns',
  summary: 'The minister resigned.',
  content: '',
  author: null,
  published_at: at,
  published_at_clamped: false,
  discovered_at: at,
  language: 'en',
  category: null,
  image_url: null,
  publisher_name: null,
  publisher_url: null,
  revision: 1,
  changed_fields: [],
  first_published_at: null,
  first_discovered_at: null,
  occurred_at: at,
  ...fields,
});
