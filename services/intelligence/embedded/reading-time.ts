// Reading time at an adult's silent reading pace for non-fiction, ~230 words per minute (Brysbaert
// 2019 puts the average at 238; news has names and figures that slow it a little).
export const wordsPerMinute = 230;

export function readingTimeSeconds(text: string): number {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  if (words === 0) return 0;
  return Math.max(1, Math.round((words / wordsPerMinute) * 60));
}
