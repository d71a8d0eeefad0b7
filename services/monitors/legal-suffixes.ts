// The words that say what legal form a company has ("Inc.", "plc", "GmbH", "& Co"; before the name in
// Russian, "ПАО", and Indonesian, "PT") or that it is a group ("Holdings", "Group"). Customers write them in monitors and articles mostly leave them
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
  // Indonesian: Terbuka, listed ("PT Astra International Tbk")
  'tbk',
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

/**
 * Legal forms written before the name, folded: Russian (ПАО, ОАО, ЗАО, ООО, АО: "ПАО «Газпром»"),
 * Ukrainian (ПАТ, ПрАТ, ТОВ) and Indonesian (PT: "PT Astra International").
 */
const prefixes = new Set(['пао', 'оао', 'зао', 'ооо', 'ао', 'пат', 'прат', 'тов', 'pt']);

export function isLegalPrefix(key: string): boolean {
  return prefixes.has(key);
}

/** How many leading words of `keys` are legal forms written before the name; never all of them. */
export function legalPrefixLength(keys: readonly string[]): number {
  let start = 0;
  while (start < keys.length - 1 && isLegalPrefix(keys[start]!)) start += 1;
  return keys.slice(start).some((key) => !isFunctionWord(key)) ? start : 0;
}

/**
 * Legal forms of text written without spaces (tokens.ts), which are no words of their own to drop:
 * Japanese (株式会社 before or after the name, (株)), Chinese (有限公司, 股份有限公司, 集团 "group", 控股
 * "holdings"), Korean (주식회사, (주)). Longest first, so 股份有限公司 goes whole.
 */
const unspacedForms = [
  '股份有限公司',
  '有限责任公司',
  '有限責任公司',
  '株式会社',
  '有限会社',
  '合同会社',
  '合資会社',
  '合名会社',
  '有限公司',
  '주식회사',
  '유한회사',
  '（株）',
  '(株)',
  '（주）',
  '(주)',
  '集团',
  '集團',
  '控股',
  '㈱',
  '㈜',
];

/** The name with such legal forms taken off both ends ("腾讯控股有限公司" -> "腾讯"), never to nothing. */
export function withoutUnspacedLegalForms(name: string): string {
  let rest = name.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const form of unspacedForms) {
      if (rest.length > form.length && rest.endsWith(form)) rest = rest.slice(0, -form.length).trim();
      else if (rest.length > form.length && rest.startsWith(form)) rest = rest.slice(form.length).trim();
      else continue;
      changed = true;
    }
  }
  return rest;
}
