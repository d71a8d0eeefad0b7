// An aggregator's headline without the outlet it names at its end. Google News (and Bing News, and
// feeds made the same way) title an item "Rates held - Reuters" and name Reuters in the item's
// <source> too; the article carries the outlet as its publisher (item-publisher.ts), so the title is
// the headline alone, as the outlet itself wrote it. Only that outlet's name goes: a headline's own
// " - " ending ("Brexit - what now", "Live - rates") is the headline.

/** " - ", " – ", " — " and " | ": how aggregators set the outlet's name after the headline. */
const separator = /\s+[-–—|]\s+/gu;

/** The text as names compare: composed, case folded, any run of whitespace one space. */
export const comparableName = (text: string): string =>
  text.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();

/**
 * `title` without a final separator and `publisher` (compared case-insensitively and whitespace
 * normalised); `title` unchanged when it does not end so, or when nothing of the headline would be
 * left ("Reuters", " - Reuters"): a title is never emptied.
 */
export function withoutPublisherSuffix(title: string, publisher: string | null): string {
  const name = publisher === null ? '' : comparableName(publisher);
  if (name === '') return title;
  // The first separator that the name alone follows: a name with a separator of its own ("Reuters |
  // Business") is matched whole, not taken for its last part.
  for (const match of title.matchAll(separator)) {
    if (comparableName(title.slice(match.index + match[0].length)) !== name) continue;
    const headline = title.slice(0, match.index).trimEnd();
    return headline === '' ? title : headline;
  }
  return title;
}
