// Language codes as ISO 639-1, and detection from text when there is enough
// of it to be sure (the precedence is in normalise-item.ts).
import { franc } from 'franc-min';
import { iso6393To1 } from 'iso-639-3';
import { scriptLanguage } from './script-language.ts';

/** "en-US", "pt_BR", "DE" -> "en", "pt", "de"; null when it is not a language code. */
export function languageCode(declared: string | null | undefined): string | null {
  if (!declared) return null;
  const match = /^\s*([a-zA-Z]{2})(?:[-_][a-zA-Z0-9]+)*\s*$/.exec(declared);
  return match ? match[1]!.toLowerCase() : null;
}

/** Below this many characters detection guesses more than it knows. */
const minDetectableLength = 120;

/**
 * franc names some languages by an individual code of a macrolanguage that has no ISO 639-1 code of
 * its own, where feeds and readers use the macrolanguage's: Standard Arabic (arb) is ar, Iranian
 * Persian (pes) fa. Without these an Arabic article was detected as no language at all.
 */
const macrolanguages: Record<string, string> = {
  arb: 'ar',
  pes: 'fa',
  swh: 'sw',
  uzn: 'uz',
  zlm: 'ms',
  azj: 'az',
  plt: 'mg',
  npi: 'ne',
  ckb: 'ku',
  pbu: 'ps',
  fuv: 'ff',
};

export function detectLanguage(text: string): string | null {
  if (text.length < minDetectableLength) return null;
  const iso3 = franc(text.slice(0, 2_000), { minLength: minDetectableLength });
  if (iso3 === 'und') return null;
  return iso6393To1[iso3] ?? macrolanguages[iso3] ?? null;
}

/**
 * A text's language as far as it can be told: detected from 120 characters, else by its script
 * (script-language.ts: "Банк повысил ставку." is Russian at any length); null when neither tells it.
 */
export function textLanguage(text: string): string | null {
  return detectLanguage(text) ?? scriptLanguage(text);
}
