// The article list: the rows the projector writes to `article_list` for each article
// (projections/migrations/0012_article_list.sql), from which GET /v1/articles reads its pages. Each
// article is listed under every facet a list is commonly narrowed by, so the newest articles of one
// source, category or language are one range of the table's primary key instead of a walk back through
// the whole archive's time order looking for them.

/** The dimensions a list is narrowed by, each a facet of its own. */
export type ListedArticle = {
  article_id: string;
  published_at: number;
  title: string;
  summary: string;
  source_id: string;
  source_name: string;
  url: string;
  language: string;
  category: string;
  revision: number;
  updated_at: number | null;
};

export type ListRow = ListedArticle & { facet: string; version: number };

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

/**
 * The rows of one revision of an article: under the facet of every article with all the columns a list
 * item shows, and under each narrower facet with only the columns a list filters on (the others empty,
 * so those rows cost little; a page's items are read from the first kind, by key).
 */
export function articleListRows(article: ListedArticle, version: number): ListRow[] {
  return [
    listRow(facet.all, article, true, version),
    listRow(facet.source(article.source_id), article, false, version),
    listRow(facet.sourceName(article.source_name), article, false, version),
    listRow(facet.category(article.category), article, false, version),
    listRow(facet.language(article.language), article, false, version),
  ];
}

// One literal of one shape (no spread): the projector builds five of these per article, and a spread
// copy measured three times slower.
function listRow(name: string, a: ListedArticle, shown: boolean, version: number): ListRow {
  return {
    facet: name,
    article_id: a.article_id,
    published_at: a.published_at,
    title: shown ? a.title : '',
    summary: shown ? a.summary : '',
    source_id: a.source_id,
    source_name: a.source_name,
    url: shown ? a.url : '',
    language: a.language,
    category: a.category,
    revision: a.revision,
    updated_at: a.updated_at,
    version,
  };
}
