// Offset paging, as every list but the articles' answers it (the articles add a cursor): the query's
// limit and offset, how many came back, and where the next page starts.
import { z } from 'zod';

export const offsetPaging = z
  .object({
    limit: z.number().int(),
    offset: z.number().int(),
    returned: z.number().int(),
    has_more: z.boolean(),
    next_offset: z.number().int().nullable(),
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
