// Bounds on what one item may carry into its article event. The text fields are capped where they are
// made plain (normalise-item.ts); an address or a guid cannot be cut without becoming another one, so one
// past its bound is dropped: the item then goes by its other fields (a guid-less item by its link, a
// link-less one by its permalink guid or enclosure, else it is skipped for want of a usable link), and
// the poll's warnings say what was dropped. Without this, one item with a link of megabytes made an
// event larger than a Kafka record may be: the broker refused the poll's whole append, and every later
// poll of the feed again, so none of its new articles arrived.
import { MAX_GUID_CHARS, MAX_URL_CHARS } from './limits.ts';
import type { ParsedItem } from './types.ts';

type Dropped = 'link' | 'guid' | 'image address' | 'enclosure address' | 'publisher address';

const tooLong = (value: string | null, max: number) => value !== null && value.length > max;

/** The items with every over-long address and guid dropped; one warning per kind of field dropped. */
export function boundItems(items: readonly ParsedItem[], warnings: string[]): ParsedItem[] {
  const dropped = new Map<Dropped, number>();
  const drop = (field: Dropped) => dropped.set(field, (dropped.get(field) ?? 0) + 1);
  const bounded = items.map((item) => {
    const over = {
      url: tooLong(item.url, MAX_URL_CHARS),
      guid: tooLong(item.guid, MAX_GUID_CHARS),
      imageUrl: tooLong(item.imageUrl, MAX_URL_CHARS),
      enclosureUrl: tooLong(item.enclosureUrl, MAX_URL_CHARS),
      publisher: tooLong(item.publisher?.url ?? null, MAX_URL_CHARS),
    };
    if (!Object.values(over).some(Boolean)) return item;
    if (over.url) drop('link');
    if (over.guid) drop('guid');
    if (over.imageUrl) drop('image address');
    if (over.enclosureUrl) drop('enclosure address');
    if (over.publisher) drop('publisher address');
    const publisherName = item.publisher?.name ?? null;
    return {
      ...item,
      url: over.url ? null : item.url,
      guid: over.guid ? null : item.guid,
      imageUrl: over.imageUrl ? null : item.imageUrl,
      enclosureUrl: over.enclosureUrl ? null : item.enclosureUrl,
      publisher: over.publisher
        ? publisherName === null
          ? null
          : { name: publisherName, url: null }
        : item.publisher,
    };
  });
  for (const [field, count] of dropped) {
    const max = field === 'guid' ? MAX_GUID_CHARS : MAX_URL_CHARS;
    warnings.push(`${count} item(s) had a ${field} longer than ${max} characters, which was dropped`);
  }
  return bounded;
}
