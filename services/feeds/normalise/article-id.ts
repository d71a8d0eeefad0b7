// Article ids are deterministic (docs/architecture.md, "Decisions"): the same item seen again —
// a re-poll, a restart, a second poller, a replay — gets the same id, so it
// can never become a second article.
import { hash } from 'node:crypto';

export function articleId(sourceId: string, guid: string | null, canonicalUrl: string): string {
  const identity = guid && guid.trim() ? `guid\n${sourceId}\n${guid.trim()}` : `url\n${canonicalUrl}`;
  // The one-shot digest: the same hex as createHash, without a Hash object per item of every poll.
  return `art_${hash('sha256', identity, 'hex').slice(0, 32)}`;
}
