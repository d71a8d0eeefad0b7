// The fields of an article a reader sees: a change of any of them makes a new revision of the article
// (the poller), and they are what a revision's changed_fields name (news.articles.discovered.v1, the
// article.updated webhook), always in this order. `url` came last, so that what the poller remembered of
// articles before it existed still reads (seen-articles.ts).
export const readerFields = ['title', 'summary', 'content', 'author', 'published_at', 'url'] as const;
export type ReaderField = (typeof readerFields)[number];
