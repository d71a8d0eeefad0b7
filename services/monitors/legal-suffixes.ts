// The words that say what legal form a company has ("Inc.", "plc", "GmbH", "& Co") or that it is
// a group ("Holdings", "Group"). Customers write them in monitors and articles mostly leave them
// out, or the other way round, so a name is compared without them: "Acme Inc" in a monitor finds
// "Acme" in an article, and "Acme" finds "Acme Inc.". Written after a name in an article, a suffix
// is also evidence that the name is a company ("Next plc", "Gap Inc.").
import { isFunctionWord } from './tokens.ts';

/** Folded, one word each, as keyOf() leaves them ("S.A." -> "sa", "S.p.A." -> "spa"). */
const suffixes = new Set([
  'ab',
  'ag',
  'asa',
  'bhd',
  'bv',
  'co',
  'company',
  'corp',
  'corporation',
  'gmbh',
  'group',
  'holding',
  'holdings',
  'inc',
  'incorporated',
  'kg',
  'kgaa',
  'kk',
  'limited',
  'llc',
  'llp',
  'lp',
  'ltd',
  'nv',
  'oy',
  'oyj',
  'plc',
  'pte',
  'pty',
  'sa',
  'sarl',
  'sas',
  'se',
  'spa',
  'srl',
]);

export function isLegalSuffix(key: string): boolean {
  return suffixes.has(key);
}

/**
 * How many words of `keys` are left once trailing suffixes ("Co., Ltd.", "Holdings plc") and the
 * "and" of "& Co" are taken off. Never strips a name to nothing or to function words only:
 * "Group plc" and "The Company" keep all their words.
 */
export function lengthWithoutLegalForm(keys: readonly string[]): number {
  let end = keys.length;
  while (end > 0 && (isLegalSuffix(keys[end - 1]!) || (end < keys.length && keys[end - 1] === 'and'))) {
    end -= 1;
  }
  return keys.slice(0, end).some((key) => !isFunctionWord(key)) ? end : keys.length;
}
