// Long articles are cut before they are sent: tokens cost money and the opening of a news
// article carries its substance. The cut falls at a paragraph or sentence end so the model
// never sees half a sentence it might misread.

export interface CappedText {
  text: string;
  truncated: boolean;
  originalLength: number;
}

/** A cut earlier than this share of the cap wastes too much of the budget; cut mid-text instead. */
const minimumShareKept = 0.5;

export function capText(text: string, maxChars: number): CappedText {
  const originalLength = text.length;
  if (originalLength <= maxChars) return { text, truncated: false, originalLength };

  const window = text.slice(0, maxChars);
  const floor = Math.floor(maxChars * minimumShareKept);
  const cut =
    lastMatchEnd(window, /\n\s*\n/g, floor) ??
    lastMatchEnd(window, /\n/g, floor) ??
    lastMatchEnd(window, /[.!?…。]["'”’)\]]*(?=\s)/g, floor) ??
    lastMatchEnd(window, /\s/g, floor) ??
    maxChars;
  return { text: window.slice(0, cut).trimEnd(), truncated: true, originalLength };
}

function lastMatchEnd(text: string, pattern: RegExp, floor: number): number | undefined {
  let end: number | undefined;
  for (const match of text.matchAll(pattern)) {
    const matchEnd = match.index + match[0].length;
    if (matchEnd >= floor) end = matchEnd;
  }
  return end;
}
