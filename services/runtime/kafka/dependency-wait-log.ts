// How a consumer says it is waiting for a dependency (services/runtime/retry.ts's `wait`). Most waits
// are the ordinary race of a pipeline (an enrichment read before the projector has written its article)
// and end within seconds: those are logged at debug. A wait that lasts `quietMs` is an outage worth an
// operator's eye: it is logged at warn then, again every `quietMs` while it lasts, and its end at info
// with how long it took, so the log says when a dependency came back, not only that it was away.
import type { Logger } from '../logger.ts';

export class DependencyWaitLog {
  private since: number | undefined;
  private warnedAt: number | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly context: Record<string, unknown>,
    private readonly quietMs = 30_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One failed attempt that waits for the dependency. */
  waiting(err: unknown): void {
    const now = this.clock();
    this.since ??= now;
    const waitedMs = now - this.since;
    if (waitedMs < this.quietMs) {
      this.logger.debug({ ...this.context, err }, 'dependency unavailable; waiting');
      return;
    }
    if (this.warnedAt !== undefined && now - this.warnedAt < this.quietMs) return;
    this.warnedAt = now;
    this.logger.warn({ ...this.context, err, waitedMs }, 'dependency unavailable; still waiting');
  }

  /** The work went on (or stopped): says so if the wait had been worth a warning, and starts afresh. */
  ended(): void {
    if (this.warnedAt !== undefined && this.since !== undefined)
      this.logger.info({ ...this.context, waitedMs: this.clock() - this.since }, 'dependency back; going on');
    this.since = undefined;
    this.warnedAt = undefined;
  }
}
