// Characters as a client counts them against a documented limit: code points, as JSON Schema's
// maxLength counts them (the OpenAPI document's promise). String.length counts UTF-16 units, so an
// emoji or a rare CJK character (outside the Basic Multilingual Plane) would count twice.

/** Code points in `text`; a lone surrogate counts as one. Walks the string without copying it. */
export function characterCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}
