// The outlet that first published an aggregator's article (ArticleDiscovered.publisher_name and
// publisher_url, from RSS or Atom <source>: a Google News item's newspaper), as the API, the webhooks and
// the stream show it: one object, or null when the source published the article itself.
import { z } from 'zod';

export interface ArticlePublisher {
  name: string | null;
  url: string | null;
}

/** The two columns (or event fields) as one publisher; null when neither is set. */
export const articlePublisher = (name: string | null, url: string | null): ArticlePublisher | null =>
  name === null && url === null ? null : { name, url };

/** How the HTTP API and the webhook payloads describe it. */
export const articlePublisherSchema = z
  .object({
    name: z.string().nullable().meta({ description: 'The outlet as the feed names it.' }),
    url: z.string().nullable().meta({ description: "The outlet's home page (or feed), when given." }),
  })
  .nullable()
  .meta({
    description:
      'The outlet that first published the article, when its feed is an aggregator that names one (RSS ' +
      "or Atom `<source>`: a Google News feed's items name their newspaper; the source is then the Google " +
      'News feed). Null when the source published it itself, and for articles found before this field.',
    example: { name: 'Reuters', url: 'https://www.reuters.com/' },
  });
