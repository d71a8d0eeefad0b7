// Offset paging, as every list but the articles' answers it (the articles add a cursor): the query's
// limit and offset, how many came back, and where the next page starts.
import { z } from 'zod';

export const offsetPaging = z
  .object({
    limit: z.number().int().meta({ description: 'The page size asked for (or its default).' }),
    offset: z.number().int().meta({
      description:
        'Items skipped: from the start of the list, or, on a page read with `cursor`, after the cursor.',
    }),
    returned: z
      .number()
      .int()
      .meta({ description: 'Items on this page: `limit` on every page but the last, which may hold fewer.' }),
    has_more: z.boolean().meta({ description: 'Whether items follow this page.' }),
    next_offset: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          'The `offset` of the next page (`offset` + `limit`); null on the last page, and on a page read ' +
          'with `cursor`, which goes on by `next_cursor` alone.',
      }),
  })
  .meta({ id: 'OffsetPaging' });

export type OffsetPaging = z.output<typeof offsetPaging>;

/** The `paging` of a page read with `limit`/`offset` that returned `returned` items. */
export const offsetPage = (
  { limit, offset }: { limit: number; offset: number },
  returned: number,
  hasMore: boolean,
): OffsetPaging => ({
  limit,
  offset,
  returned,
  has_more: hasMore,
  next_offset: hasMore ? offset + limit : null,
});
