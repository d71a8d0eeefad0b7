// The heartbeat a handler is given to call during long work. A heartbeat that fails says something
// about the consumer's membership of its group (a rebalance, or a coordinator that restarted and no
// longer knows the member), never about the message in hand: so it must not fail the handler. It did:
// after a broker restart the enricher's per-article heartbeat threw "The coordinator is not aware of
// this member", the batch was retried as if the articles were bad, and after the last attempt good
// articles were dead-lettered (npm run chaos, the broker fault); the member rejoined only two minutes
// later. Now the handler finishes its (idempotent) work; the runner's own heartbeat and commit after
// the batch then fail the same way, KafkaJS rejoins the group, and whoever owns the partition reads
// the batch again.

/** Wraps `beat` so that a failure is reported to `onFailure` instead of thrown at the handler. */
export function handlerHeartbeat(
  beat: () => Promise<void>,
  onFailure: (error: unknown) => void,
): () => Promise<void> {
  return async () => {
    try {
      await beat();
    } catch (error) {
      onFailure(error);
    }
  };
}
