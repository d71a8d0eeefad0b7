// Language codes as ISO 639-1, and detection from text when there is enough
// of it to be sure (the precedence is in normalise-item.ts).
import { franc, francAll } from 'franc-min';
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
  return codeOf(iso3);
}

const codeOf = (iso3: string): string | null =>
  iso3 === 'und' ? null : (iso6393To1[iso3] ?? macrolanguages[iso3] ?? null);

/**
 * How far below the best language (franc scores it 1) every other must score for detection to overrule
 * a declared language. Where detection is right the runner-up is far behind (Portuguese over Spanish
 * 0.81, German over Dutch 0.65); where it is wrong it is close: five English headlines scored Quechua
 * 1, Tagalog 0.94, Javanese 0.93; release notes German 1, Kurdish 0.97, French 0.97.
 */
const overrulingMargin = 0.1;

/**
 * The language of a text someone declared a language for (its source, its feed): the declaration,
 * unless detection says otherwise with no other language close behind. Detection alone, where nothing
 * is declared.
 */
export function declaredOrDetected(text: string, declared: string | null): string | null {
  if (!declared) return detectLanguage(text);
  if (text.length < minDetectableLength) return declared;
  const [best, runnerUp] = francAll(text.slice(0, 2_000), { minLength: minDetectableLength });
  const detected = best ? codeOf(best[0]) : null;
  if (detected === null || detected === declared) return declared;
  return (runnerUp?.[1] ?? 0) <= 1 - overrulingMargin ? detected : declared;
}

/**
 * A text's language as far as it can be told: detected from 120 characters, else by its script
 * (script-language.ts: "Банк повысил ставку." is Russian at any length); null when neither tells it.
 */
export function textLanguage(text: string): string | null {
  return detectLanguage(text) ?? scriptLanguage(text);
}
