// When a source follows its feed to a new address. RFC 9110 (15.4.2, 15.4.9) lets a client update a
// stored URL on 301 Moved Permanently and 308 Permanent Redirect; doing so on the first one would let a
// misconfigured server, or a host taken over for an afternoon, move a source for good. So a move is
// taken only when it has been stable:
//
// - every redirect of the poll's chain is permanent (one 302, 303 or 307 anywhere makes the whole chain
//   temporary: the source stays where it is);
// - the chain ended at the same URL on `requiredPolls` successful polls in a row (a failed poll, one
//   that answered without a redirect, a temporary chain or another final URL starts the count again);
// - a feed was read there at least once in that run (a 304 alone proves nothing about the new address).
//
// The final URL passed the outbound-URL policy on each of those polls (the fetcher checks every hop
// before it connects, and a refused hop fails the poll), and a redirect loop, a Location that is not a
// URL or a page that is not a feed fail the poll: none of them can count towards a move. Pure: the
// streak lives in the poll state (poll-state.ts) and poll-source.ts applies the verdict.
import { canonicalUrl } from '../runtime/canonical-url.ts';

/** The run of polls in a row whose permanent redirects ended at one URL. */
export interface MoveStreak {
  /** The canonical final URL. */
  url: string;
  /** Polls in a row that ended there (since the last attempt to move, when one was refused). */
  polls: number;
  /** Whether one of them read a feed there. */
  feedRead: boolean;
  /** The source that already has this URL, when the last attempt to move found one; else null. */
  takenBy: string | null;
}

/** What a poll's fetch came to, as far as a move is concerned. */
export type PollSighting =
  /** Failed or refused, for any reason (network, status, redirect loop, a body that is not a feed). */
  | { kind: 'failed' }
  /** A feed read (200) or not modified (304), at `finalUrl`, after redirects of these statuses. */
  | { kind: 'answered'; finalUrl: string; redirectStatuses: readonly number[]; feedRead: boolean };

export type MoveVerdict =
  /** Nothing to follow: polled where it is. */
  | { kind: 'none' }
  /** Permanently redirected to `to`, not yet often enough (or `to` is another source's). */
  | { kind: 'pending'; to: string; streak: MoveStreak }
  /** Time to move the source to `to`. */
  | { kind: 'move'; to: string; streak: MoveStreak };

const permanent = new Set([301, 308]);

/**
 * The streak after this poll, and the verdict. `requiredPolls` below 1 never moves (a poller that
 * does not move sources).
 */
export function moveVerdict(
  previous: MoveStreak | null,
  feedUrl: string,
  sighting: PollSighting,
  requiredPolls: number,
): MoveVerdict {
  if (requiredPolls < 1 || sighting.kind === 'failed') return { kind: 'none' };
  const { redirectStatuses } = sighting;
  if (redirectStatuses.length === 0 || !redirectStatuses.every((status) => permanent.has(status)))
    return { kind: 'none' };
  const to = canonicalUrl(sighting.finalUrl);
  // Redirected back to where it started, a spelling apart (a tracking parameter dropped, a default port).
  if (to === null || to === canonicalUrl(feedUrl)) return { kind: 'none' };
  const same = previous?.url === to;
  const streak: MoveStreak = {
    url: to,
    polls: (same ? previous.polls : 0) + 1,
    feedRead: (same && previous.feedRead) || sighting.feedRead,
    takenBy: same ? previous.takenBy : null,
  };
  return streak.polls >= requiredPolls && streak.feedRead
    ? { kind: 'move', to, streak }
    : { kind: 'pending', to, streak };
}

/**
 * The streak to keep after an attempt to move found `to` another source's: counted again from zero, so
 * the move is tried again after as many polls (the other source may be gone by then), and meanwhile
 * every poll says why the source stays.
 */
export const refusedStreak = (streak: MoveStreak, takenBy: string): MoveStreak => ({
  ...streak,
  polls: 0,
  takenBy,
});

/** What the source's health says about a move, as the first of the poll's warnings. */
export function moveWarning(verdict: MoveVerdict, requiredPolls: number): string | null {
  if (verdict.kind !== 'pending') return null;
  const { to, streak } = verdict;
  if (streak.takenBy !== null)
    return `the feed moved permanently to ${to}, which is already source ${streak.takenBy}: this source stays at its URL (tried again after ${requiredPolls} polls)`;
  const read = streak.feedRead ? '' : ' and a feed read there';
  return `the feed redirects permanently to ${to}: the source moves there after ${requiredPolls} polls in a row end there${read} (${streak.polls} so far)`;
}
