// Language codes as ISO 639-1, and detection from text when there is enough
// of it to be sure (the precedence is in normalise-item.ts).
import { franc } from 'franc-min';
import { iso6393To1 } from 'iso-639-3';

/** "en-US", "pt_BR", "DE" -> "en", "pt", "de"; null when it is not a language code. */
export function languageCode(declared: string | null | undefined): string | null {
  if (!declared) return null;
  const match = /^\s*([a-zA-Z]{2})(?:[-_][a-zA-Z0-9]+)*\s*$/.exec(declared);
  return match ? match[1]!.toLowerCase() : null;
}

/** Below this many characters detection guesses more than it knows. */
const minDetectableLength = 120;

export function detectLanguage(text: string): string | null {
  if (text.length < minDetectableLength) return null;
  const iso3 = franc(text.slice(0, 2_000), { minLength: minDetectableLength });
  if (iso3 === 'und') return null;
  return iso6393To1[iso3] ?? null;
}
