// Updates the bound on revisions held back (revision-bound.ts), kept until the bound allows them.
//
// A held-back update of an item still in the feed needs no memory: the next poll the bound allows reads the
// item again and compares it with the revision emitted last. An item that leaves the feed before then (a
// busy feed listing its latest 20 items, corrected in the minutes after publication, which is when most
// corrections are made) would have lost its correction. So the poller keeps the held-back article, as it
// read it last, in the source's poll state (poll-state.ts), and the first poll after its time emits it
// when the item is no longer listed.
//
// Bounded, because a feed that rewrites every item on every poll holds them all back at every poll and
// the poll state is read and written on every poll: past `heldLimits` the ones due last are not kept, and
// those lose their correction only if they also leave the feed before their time, as before.
import type avro from 'avsc';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { localTypes } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';

export interface HeldRevision {
  /** The article as the feed listed it when its update was held back, the latest listing. */
  article: ArticleDiscovered;
  /** Whether the feed dated the item (fingerprintOf). */
  dated: boolean;
  /** When the bound allows the update (epoch ms). */
  notBefore: number;
}

export const heldLimits = { count: 50, bytes: 256 * 1024 };

/**
 * What becomes of the updates held back so far at a poll that read the feed at `now`: an item the feed
 * still lists is compared again as the poll reads it (its entry is dropped: the poll holds it back anew if
 * it must); one it no longer lists is `due` once the bound allows it, else `kept` for a later poll.
 */
export function heldAtPoll(
  held: readonly HeldRevision[],
  listed: ReadonlySet<string>,
  now: number,
): { due: HeldRevision[]; kept: HeldRevision[] } {
  const due: HeldRevision[] = [];
  const kept: HeldRevision[] = [];
  for (const entry of held) {
    if (listed.has(entry.article.article_id)) continue;
    (now >= entry.notBefore ? due : kept).push(entry);
  }
  return { due, kept };
}

/** The entries to keep within heldLimits, the soonest due first; one per article (the later listing). */
export function boundedHeld(held: readonly HeldRevision[]): HeldRevision[] {
  const latest = new Map<string, HeldRevision>();
  for (const entry of held) latest.set(entry.article.article_id, entry);
  const kept: HeldRevision[] = [];
  let bytes = 0;
  for (const entry of [...latest.values()].sort((a, b) => a.notBefore - b.notBefore)) {
    const size = Buffer.byteLength(JSON.stringify(entry));
    if (kept.length === heldLimits.count || bytes + size > heldLimits.bytes) break;
    kept.push(entry);
    bytes += size;
  }
  return kept;
}

/** As stored in the poll state's hash: JSON, empty when nothing is held. */
export function encodeHeld(held: readonly HeldRevision[]): string {
  return held.length === 0 ? '' : JSON.stringify(held);
}

/**
 * The held updates as stored; what is not one (a hash written by hand, a field from another version) is
 * left out: losing a held update costs one correction, reading a wrong one would emit it.
 */
export function decodeHeld(stored: string | undefined): HeldRevision[] {
  if (!stored) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(isHeldRevision);
}

function isHeldRevision(value: unknown): value is HeldRevision {
  if (typeof value !== 'object' || value === null) return false;
  const { article, dated, notBefore } = value as Record<string, unknown>;
  if (typeof dated !== 'boolean' || typeof notBefore !== 'number' || !Number.isFinite(notBefore))
    return false;
  // The event as the topic's schema has it: one that does not fit would fail its poll at every try.
  return articleType().isValid(article);
}

let cachedType: avro.Type | undefined;
const articleType = () => (cachedType ??= localTypes().get(topicNames.articlesDiscovered)!.type);
