// documentary.ready and documentary.failed: a documentary's `ready` (or `failed`) event becomes one pending
// delivery job per webhook of its tenant subscribed to that event, appended to news.webhook-deliveries.v1
// keyed by webhook id, as alerts are (fan-out.ts). The other statuses (requested, progressed) are no
// webhook event: a client waiting on webhooks hears of every documentary once, whichever way it ended.
//
// The delivery id is derived from (documentary.ready, documentary id, webhook): a documentary is ready
// once, so the documentary id alone names the event, and the delivery log's event_id is the id a
// customer already knows from POST /api/v1/documentaries. A replayed ready event, or a batch retried
// after a crash, appends jobs with the same ids, which receivers dedupe on `webhook-id`.
//
// A receiver that gets documentary.ready and asks GET /api/v1/documentaries/{id} at once must see it
// ready, not the `assembling` the read model held a moment before (the projector writes it from the same
// event, and under load it was seen a second behind the webhook). So the jobs are appended once the read
// model shows every ready documentary of the batch as ready, or after `readModelWaitMs` (15 s) in any
// case: a read model that is down or far behind delays the webhook, it never loses it.
import type { Documentary, WebhookDelivery } from '../runtime/events/types.generated.ts';
import type { BatchHandler } from '../runtime/kafka/consumer.ts';
import { PoisonMessageError } from '../runtime/kafka/errors.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';
import type { AudioUrls } from '../audio/audio-urls.ts';
import { defaultDocumentaryLanguage } from '../documentaries/documentary-request.ts';
import { DOCUMENTARY_FAILED, DOCUMENTARY_READY } from '../webhooks/event-types.ts';
import { firstDeliveryJob, unavailableOnError } from './fan-out.ts';
import type { WebhookDirectory } from './webhook-directory.ts';

/**
 * Why a ready event cannot make the payload services/webhooks/payloads.ts promises (null if it can).
 * The unsigned audio_url the event carries is no substitute for the key: /v1/audio refuses unsigned
 * requests, so a receiver could not play it.
 */
export function unsendableReason(documentary: Documentary): string | null {
  if (documentary.audio_key === null) return 'has no audio_key';
  if (documentary.duration_ms === null) return 'has no duration_ms';
  return null;
}

/**
 * The documentary.ready body. `timestamp` is when the documentary became ready (the event's
 * occurred_at), so a replay builds the same one; the URLs are the unsigned addresses (the dispatcher's
 * `audio` gives them), which each attempt signs (payload-audio-urls.ts). `transcript_url` and
 * `transcript_json_url` are null when the request asked for audio alone (no transcript keys). `language`
 * and `voice` are what it was made with, so a receiver filing it needs no second request.
 */
export function documentaryPayload(documentary: Documentary, audio: AudioUrls): string {
  const reason = unsendableReason(documentary);
  if (reason !== null) throw new Error(`ready documentary ${documentary.documentary_id} ${reason}`);
  return JSON.stringify({
    event: DOCUMENTARY_READY,
    timestamp: new Date(documentary.occurred_at).toISOString(),
    data: {
      documentary_id: documentary.documentary_id,
      topic: documentary.topic,
      audio_url: audio.urlFor(documentary.audio_key!),
      transcript_url: documentary.transcript_key === null ? null : audio.urlFor(documentary.transcript_key),
      transcript_json_url:
        documentary.transcript_json_key === null ? null : audio.urlFor(documentary.transcript_json_key),
      duration_ms: documentary.duration_ms,
      language: documentary.language ?? defaultDocumentaryLanguage,
      voice: documentary.voice,
    },
  });
}

/**
 * The documentary.failed body: the failure as GET /api/v1/documentaries/{id} gives it. `timestamp` is when
 * it failed (the event's occurred_at), so a replay builds the same one.
 */
export function documentaryFailurePayload(documentary: Documentary): string {
  return JSON.stringify({
    event: DOCUMENTARY_FAILED,
    timestamp: new Date(documentary.occurred_at).toISOString(),
    data: {
      documentary_id: documentary.documentary_id,
      topic: documentary.topic,
      failure: {
        code: documentary.failure_code ?? 'internal',
        reason: documentary.failure_reason ?? 'the documentary failed',
      },
    },
  });
}

/** The first-attempt jobs for one failed documentary, one per webhook subscribed to documentary.failed. */
export function documentaryFailureJobs(
  documentary: Documentary,
  webhooks: readonly { webhook_id: string; tenant_id: string }[],
  now: Date,
): WebhookDelivery[] {
  const event = {
    type: DOCUMENTARY_FAILED,
    id: documentary.documentary_id,
    payload: documentaryFailurePayload(documentary),
  };
  return webhooks.map((webhook) => firstDeliveryJob(event, webhook, now));
}

/** The first-attempt jobs for one ready documentary, one per webhook, due now. */
export function documentaryDeliveryJobs(
  documentary: Documentary,
  webhooks: readonly { webhook_id: string; tenant_id: string }[],
  now: Date,
  audio: AudioUrls,
): WebhookDelivery[] {
  if (webhooks.length === 0) return [];
  const event = {
    type: DOCUMENTARY_READY,
    id: documentary.documentary_id,
    payload: documentaryPayload(documentary, audio),
  };
  return webhooks.map((webhook) => firstDeliveryJob(event, webhook, now));
}

export interface DocumentaryFanOutDeps {
  directory: Pick<WebhookDirectory, 'catchUp' | 'subscribers'>;
  producer: Pick<EventProducer, 'send'>;
  logger: Logger;
  /** Writes audio_key and transcript_key as data.audio_url and data.transcript_url (unsigned addresses in production, signed at each attempt). */
  audio: AudioUrls;
  /** Which of these documentaries the read model (what the API answers from) shows as ready. */
  shownReady?: (ids: string[]) => Promise<ReadonlySet<string>>;
  /** How long the jobs wait for the read model at most (15 s), and how often it is asked (250 ms). */
  readModelWaitMs?: number;
  readModelStepMs?: number;
  clock?: () => Date;
}

/**
 * Resolves once the read model shows every one of `ids` as ready, or once `waitMs` has passed (then
 * with the ids it did not show, for the log). A failing read counts as "not shown yet". `heartbeat`
 * between reads keeps the consumer in its group while it waits.
 */
async function untilShownReady(
  ids: readonly string[],
  shownReady: (ids: string[]) => Promise<ReadonlySet<string>>,
  { waitMs, stepMs, heartbeat }: { waitMs: number; stepMs: number; heartbeat: () => Promise<void> },
): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  let missing = [...new Set(ids)];
  for (;;) {
    const shown = await shownReady(missing).catch(() => new Set<string>());
    missing = missing.filter((id) => !shown.has(id));
    if (missing.length === 0 || Date.now() >= deadline) return missing;
    await new Promise((resolve) => setTimeout(resolve, Math.min(stepMs, Math.max(deadline - Date.now(), 0))));
    await heartbeat();
  }
}

/**
 * The batch handler of the news.documentaries.v1 consumer. The runner commits the batch's offsets only
 * after this returned, i.e. after the jobs were appended. A ready event that cannot make a payload is
 * refused before anything is appended: the runner then handles the batch message by message and
 * dead-letters that one event, with the reason, while its neighbours are delivered.
 */
export function documentaryFanOutHandler(deps: DocumentaryFanOutDeps): BatchHandler<Documentary> {
  const clock = deps.clock ?? (() => new Date());
  return async (events, { heartbeat }) => {
    // Tombstones (the topic is a stream, they mean nothing here) and every status but ready and failed
    // are skipped.
    const ready = events.flatMap((e) => (e.value?.status === 'ready' ? [e.value] : []));
    const failed = events.flatMap((e) => (e.value?.status === 'failed' ? [e.value] : []));
    if (ready.length === 0 && failed.length === 0) return;
    for (const documentary of ready) {
      const reason = unsendableReason(documentary);
      if (reason !== null)
        throw new PoisonMessageError(
          `ready documentary ${documentary.documentary_id} ${reason}: no documentary.ready can be sent`,
        );
    }
    await unavailableOnError('reading news.webhooks.v1', () => deps.directory.catchUp());
    const now = clock();
    const jobs: WebhookDelivery[] = [];
    for (const documentary of ready) {
      const webhooks = deps.directory.subscribers(documentary.tenant_id, DOCUMENTARY_READY);
      jobs.push(...documentaryDeliveryJobs(documentary, webhooks, now, deps.audio));
      if (webhooks.length > 0) {
        deps.logger.debug(
          { documentaryId: documentary.documentary_id, webhooks: webhooks.length },
          'documentary.ready fanned out',
        );
      }
    }
    // A failure is sent as it is: the read model is not waited for (GET shows it failed a moment later).
    const failures = failed.flatMap((documentary) =>
      documentaryFailureJobs(
        documentary,
        deps.directory.subscribers(documentary.tenant_id, DOCUMENTARY_FAILED),
        now,
      ),
    );
    if (jobs.length === 0 && failures.length === 0) return;
    if (jobs.length > 0 && deps.shownReady) {
      const waitMs = deps.readModelWaitMs ?? 15_000;
      const notShown = await untilShownReady(
        jobs.map((job) => job.event_id),
        deps.shownReady,
        { waitMs, stepMs: deps.readModelStepMs ?? 250, heartbeat },
      );
      if (notShown.length > 0)
        deps.logger.warn(
          { documentaryIds: notShown, waitedMs: waitMs },
          'documentary.ready sent before the read model showed the documentary ready',
        );
    }
    await unavailableOnError(`appending to ${topicNames.webhookDeliveries}`, () =>
      deps.producer.send(
        topicNames.webhookDeliveries,
        [...jobs, ...failures].map((job) => ({ key: job.webhook_id, value: job })),
      ),
    );
  };
}
