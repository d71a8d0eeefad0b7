// Asks a hub to (un)subscribe (WebSub §5.1): a form-encoded POST. Hub URLs come from feeds, which
// customers choose, so the request goes through the same outbound-URL policy as the feeds themselves
// (a hub at a private address is refused unless allow-listed) and connects to the address it checked.
import { Agent } from 'undici';
import type { OutboundUrlPolicy } from '../runtime/outbound/outbound-url.ts';
import { PinnedAddresses } from '../runtime/outbound/pinned-addresses.ts';

export interface HubRequest {
  hub: string;
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  leaseSeconds: number;
  secret: string;
}

export type HubAnswer =
  /** 202 (or another 2xx): the hub will verify our intent at the callback. */
  { ok: true; status: number } | { ok: false; kind: 'refused' | 'failed'; reason: string };

export interface HubClient {
  send(request: HubRequest): Promise<HubAnswer>;
  close(): Promise<void>;
}

/** What a hub's error answer may show of itself in a reason. */
const shownBodyChars = 200;

export function createHubClient(options: {
  policy: OutboundUrlPolicy;
  userAgent: string;
  timeoutMs: number;
}): HubClient {
  const pins = new PinnedAddresses();
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, lookup: pins.lookup },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return {
    async send(request) {
      const verdict = await options.policy.check(request.hub);
      if (!verdict.ok)
        return { ok: false, kind: verdict.kind === 'refused' ? 'refused' : 'failed', reason: verdict.reason };
      const unpin = pins.pin(verdict.hostname, verdict.addresses);
      try {
        const form = new URLSearchParams({
          'hub.callback': request.callback,
          'hub.mode': request.mode,
          'hub.topic': request.topic,
          'hub.lease_seconds': String(request.leaseSeconds),
        });
        if (request.mode === 'subscribe') form.set('hub.secret', request.secret);
        const response = await agent.request({
          origin: verdict.url.origin,
          path: `${verdict.url.pathname}${verdict.url.search}`,
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'user-agent': options.userAgent,
          },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        // Only the start of the answer is kept (for a reason); a hub cannot make us read a long one.
        let text = '';
        for await (const chunk of response.body) {
          text += (chunk as Buffer).toString('utf8');
          if (text.length >= shownBodyChars) break;
        }
        text = text.slice(0, shownBodyChars);
        if (response.statusCode >= 200 && response.statusCode < 300)
          return { ok: true, status: response.statusCode };
        return {
          ok: false,
          kind: 'failed',
          reason: `hub answered ${response.statusCode}${text.trim() ? `: ${text.trim()}` : ''}`,
        };
      } catch (error) {
        return { ok: false, kind: 'failed', reason: `hub request failed: ${(error as Error).message}` };
      } finally {
        unpin();
      }
    },
    close: () => agent.close(),
  };
}
