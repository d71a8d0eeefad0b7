// The article list: the facets each article is listed under in `article_list`
// (projections/migrations/0012_article_list.sql), from which GET /v1/articles reads its pages. Each
// article is listed under every facet a list is commonly narrowed by, so the newest articles of one
// source, category or language are one range of the table's primary key instead of a walk back through
// the whole archive's time order looking for them. The projector writes a row under each facet
// (services/projector/rows.ts), the shown columns (title, summary, url) and the fields' lengths in words
// on the row of facet '' only.

/**
 * The facet names, one place for the projector that writes them and the API that reads them. A source
 * is listed under its id and under its name, lowercased, because the API accepts either.
 */
export const facet = {
  all: '',
  source: (id: string) => `source:${id}`,
  sourceName: (name: string) => `source_name:${name.toLowerCase()}`,
  category: (category: string) => `category:${category}`,
  language: (language: string) => `language:${language}`,
};

/** Whether a facet is one source's (by id or by name): a narrow one, tens of articles a day. */
export const isSourceFacet = (name: string): boolean =>
  name.startsWith('source:') || name.startsWith('source_name:');

/** What an article is listed by: its source, category and language as the `articles` row has them. */
export type ListedArticle = {
  source_id: string;
  source_name: string;
  category: string;
  language: string;
};

/** The facets of one revision of an article, the facet of every article first. */
export const articleFacets = (a: ListedArticle): string[] => [
  facet.all,
  facet.source(a.source_id),
  facet.sourceName(a.source_name),
  facet.category(a.category),
  facet.language(a.language),
];
