// Sources as a request names them in a lasting filter (a webhook's filter.source_ids, the stream's
// source): by id or by name (any case, as ?source= takes one). A name or a mistyped id had been kept as
// written, and the webhook or stream then never matched an article, without a word: anything that names
// no source is a 400.
import { momentarilyInvalid } from '../../runtime/api-error.ts';
import type { SourceCatalog } from './source-catalog.ts';

/** What source references are checked against: the catalog. */
export type SourceLookup = Pick<SourceCatalog, 'existing' | 'byName'>;

/** The sources' ids, each once, in the order given; a 400 naming `parameter` for one that is neither. */
export async function sourceIdsOf(
  given: readonly string[],
  sources: SourceLookup,
  parameter: string,
): Promise<string[]> {
  const known = await sources.existing(given);
  const ids: string[] = [];
  for (const entry of given) {
    if (known.has(entry)) ids.push(entry);
    else {
      const named = await sources.byName(entry);
      if (!named)
        // Not kept for an Idempotency-Key's retries: the source may be added by then.
        throw momentarilyInvalid(
          parameter,
          `"${entry}" is neither the id nor the name of a source (GET /v1/sources lists them)`,
        );
      ids.push(named.id);
    }
  }
  return [...new Set(ids)];
}
