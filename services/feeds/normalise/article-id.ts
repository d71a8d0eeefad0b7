// Article ids are deterministic (docs/architecture.md, "Decisions"): the same item seen again —
// a re-poll, a restart, a second poller, a replay — gets the same id, so it
// can never become a second article.
import { createHash } from 'node:crypto';

export function articleId(sourceId: string, guid: string | null, canonicalUrl: string): string {
  const identity = guid && guid.trim() ? `guid\n${sourceId}\n${guid.trim()}` : `url\n${canonicalUrl}`;
  return `art_${createHash('sha256').update(identity).digest('hex').slice(0, 32)}`;
}
