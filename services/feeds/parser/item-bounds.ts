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

const tooLong = (value: string | null | undefined, max: number) => value != null && value.length > max;

const overBounds = (item: ParsedItem) =>
  tooLong(item.url, MAX_URL_CHARS) ||
  tooLong(item.guid, MAX_GUID_CHARS) ||
  tooLong(item.imageUrl, MAX_URL_CHARS) ||
  tooLong(item.enclosureUrl, MAX_URL_CHARS) ||
  tooLong(item.publisher?.url, MAX_URL_CHARS);

/** The items with every over-long address and guid dropped; one warning per kind of field dropped. */
export function boundItems(items: ParsedItem[], warnings: string[]): ParsedItem[] {
  // Every feed is checked, and nearly every one passes: that costs no copy.
  if (!items.some(overBounds)) return items;
  const dropped = new Map<Dropped, number>();
  const keep = (value: string | null, max: number, field: Dropped) => {
    if (!tooLong(value, max)) return value;
    dropped.set(field, (dropped.get(field) ?? 0) + 1);
    return null;
  };
  const bounded = items.map((item) => {
    if (!overBounds(item)) return item;
    const publisher = item.publisher && {
      name: item.publisher.name,
      url: keep(item.publisher.url, MAX_URL_CHARS, 'publisher address'),
    };
    return {
      ...item,
      url: keep(item.url, MAX_URL_CHARS, 'link'),
      guid: keep(item.guid, MAX_GUID_CHARS, 'guid'),
      imageUrl: keep(item.imageUrl, MAX_URL_CHARS, 'image address'),
      enclosureUrl: keep(item.enclosureUrl, MAX_URL_CHARS, 'enclosure address'),
      publisher: publisher && (publisher.name !== null || publisher.url !== null) ? publisher : null,
    };
  });
  for (const [field, count] of dropped) {
    const max = field === 'guid' ? MAX_GUID_CHARS : MAX_URL_CHARS;
    warnings.push(`${count} item(s): ${field} longer than ${max} characters, dropped`);
  }
  return bounded;
}
